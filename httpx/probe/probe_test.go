package probe

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestProbes: liveness is always "ok"; readiness follows the check, its
// deadline within a second, the reason logged and never answered; no
// answer is cached.
func TestProbes(t *testing.T) {
	var logs bytes.Buffer
	log := func(context.Context) *slog.Logger { return slog.New(slog.NewTextHandler(&logs, nil)) }
	failing := func(ctx context.Context) error {
		if _, ok := ctx.Deadline(); !ok {
			return errors.New("no deadline")
		}
		return errors.New("secret database detail")
	}
	e := echo.New()
	e.GET("/healthz", Live)
	e.GET("/ready", Ready(func(context.Context) error { return nil }, log))
	e.GET("/nil", Ready(nil, log))
	e.GET("/not", Ready(failing, log))
	for path, want := range map[string]struct {
		status int
		body   string
	}{"/healthz": {200, "ok\n"}, "/ready": {200, "ready\n"}, "/nil": {200, "ready\n"}, "/not": {503, "not ready\n"}} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want.status || rec.Body.String() != want.body || rec.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q %q, want %d %q, no-store", path, rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"), want.status, want.body)
		}
	}
	if !strings.Contains(logs.String(), "secret database detail") {
		t.Errorf("the reason is not logged: %q", logs.String())
	}
}
