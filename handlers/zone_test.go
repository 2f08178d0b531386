package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// TestPagesShowTimesInTheConfiguredZone: the zone of the dashboard's
// setting (Deps.Zone) reaches every request, and its pages label their
// times with it; without one, Moscow's.
func TestPagesShowTimesInTheConfiguredZone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		zone *time.Location
		want string
	}{{time.UTC, "Times in UTC."}, {nil, "Times in MSK."}} {
		app := testapp.New(t, testapp.Options{Zone: c.zone})
		b := app.Browser(t)
		loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Anna Petrova")
		b.Post("/settings/language", url.Values{"lang": {"en"}})
		p := b.Get("/history")
		if p.Status != http.StatusOK || !strings.Contains(p.Text("main"), c.want) {
			t.Errorf("zone %v: %d, %q lacks %q", c.zone, p.Status, p.Text("main"), c.want)
		}
	}
}
