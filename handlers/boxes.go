package handlers

import (
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

var boxLimits = []int{20, 50, 100}

// ReturnBoxesList shows a page of return boxes, filtered by status.
func (a *App) ReturnBoxesList(c echo.Context) error {
	q := parseListQuery(c, boxLimits, boxLimits[0], boxStatuses)
	list, err := a.seller(c).Boxes(c.Request().Context(), q.reads())
	if err != nil {
		return err
	}
	toolbar, err := a.copyToolbar(c, paths.ReturnBoxes, q, boxSorts)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	v := pages.BoxesView{
		Status:   q.Status,
		Limit:    strconv.Itoa(q.Limit),
		Statuses: localStatusOptions(ctx, boxStatuses, i18n.T(ctx, "boxes.all_statuses")),
		Limits:   limitOptions(boxLimits),
		Pager:    q.pager(at(c, paths.ReturnBoxes), list.Pages, list.Total),
		Rows:     make([]pages.BoxRow, 0, len(list.Boxes)),
		Copy:     toolbar,
	}
	for _, b := range list.Boxes {
		row := pages.BoxRow{
			Code: b.Code, Status: b.Status, Dimension: b.Dimension, Items: b.ItemQuantity,
			Created: format.DateTimeIn(l, b.CreatedAt), Updated: format.DateTimeIn(l, b.UpdatedAt),
		}
		if !b.ShippedAt.IsZero() {
			row.Shipped = format.DateTimeIn(l, b.ShippedAt)
		}
		v.Rows = append(v.Rows, row)
	}
	return a.renderList(c, pages.ReturnBoxesPage(a.chrome(c, i18n.T(ctx, "boxes.title"), "return-boxes"), v), nil, pages.ReturnBoxesAnswer(v))
}
