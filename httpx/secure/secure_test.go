package secure

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestMiddleware: every answer, an error included, carries the headers
// that keep it out of frames, sniffing and inline scripts.
func TestMiddleware(t *testing.T) {
	e := echo.New()
	e.Use(Middleware)
	e.GET("/", func(c echo.Context) error { return echo.ErrNotFound })
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	h := rec.Header()
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	for name, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
		"X-Frame-Options": "DENY", "Cross-Origin-Opener-Policy": "same-origin"} {
		if got := h.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}
