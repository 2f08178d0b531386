// Package budget is HTTP plumbing: the time a request's outside calls (the
// marketplace's) may take, and the work to do when the request ends.
// Middleware bounds the request's context; a handler that bounds some of
// its calls more tightly registers the cancel function with OnEnd.
package budget

import (
	"context"
	"time"

	"github.com/labstack/echo/v4"
)

const endKey = "budget.end"

// Middleware bounds the request's context by timeout (0: not at all, for
// routes that bound their calls by their own means) and runs the functions
// given to OnEnd when the handler returns. The context the handler got
// never reaches the error handler: an error page must not inherit an
// expired deadline. Parsed form values stay.
func Middleware(timeout time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			var end []func()
			c.Set(endKey, &end)
			defer func() {
				for _, f := range end {
					f()
				}
			}()
			orig := c.Request().Context()
			if timeout > 0 {
				ctx, cancel := context.WithTimeout(orig, timeout)
				defer cancel()
				c.SetRequest(c.Request().WithContext(ctx))
			}
			err := next(c)
			c.SetRequest(c.Request().WithContext(orig))
			return err
		}
	}
}

// Within reports whether c runs inside Middleware, where OnEnd works.
func Within(c echo.Context) bool {
	_, ok := c.Get(endKey).(*[]func())
	return ok
}

// OnEnd runs f when the request ends; outside Middleware it runs f at once.
func OnEnd(c echo.Context, f func()) {
	end, ok := c.Get(endKey).(*[]func())
	if !ok {
		f()
		return
	}
	*end = append(*end, f)
}
