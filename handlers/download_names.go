package handlers

import (
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/views/format"
)

// today is now in the dashboard's zone (SELLERDESK_TIMEZONE): the day a
// download's name carries.
func (a *App) today(c echo.Context) time.Time {
	return format.LocaleOf(c.Request().Context()).In(a.deps.Now())
}
