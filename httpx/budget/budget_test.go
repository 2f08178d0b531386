package budget

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestMiddleware: the handler's context ends by the timeout, the request
// the error handler sees has the context before it, and what the handler
// gave OnEnd runs once it returned; with no timeout nothing is bounded.
func TestMiddleware(t *testing.T) {
	for _, timeout := range []time.Duration{time.Hour, 0} {
		e := echo.New()
		c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		orig := c.Request().Context()
		ended := 0
		var inner context.Context
		err := Middleware(timeout)(func(c echo.Context) error {
			inner = c.Request().Context()
			if !Within(c) {
				t.Error("Within is false inside the middleware")
			}
			OnEnd(c, func() { ended++ })
			if ended != 0 {
				t.Error("OnEnd ran before the request ended")
			}
			return echo.ErrTeapot
		})(c)
		if err != echo.ErrTeapot {
			t.Errorf("error %v, want the handler's", err)
		}
		dl, ok := inner.Deadline()
		if bounded := ok && time.Until(dl) <= time.Hour; bounded != (timeout > 0) {
			t.Errorf("timeout %v: the handler's deadline %v (%v)", timeout, dl, ok)
		}
		if c.Request().Context() != orig {
			t.Errorf("timeout %v: the request keeps the handler's context", timeout)
		}
		if ended != 1 {
			t.Errorf("timeout %v: OnEnd ran %d times, want 1", timeout, ended)
		}
	}
}

// TestOnEndOutside: outside the middleware there is no end to wait for:
// OnEnd runs f at once.
func TestOnEndOutside(t *testing.T) {
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
	ran := false
	OnEnd(c, func() { ran = true })
	if Within(c) || !ran {
		t.Errorf("Within = %v, ran = %v; want false, true", Within(c), ran)
	}
}
