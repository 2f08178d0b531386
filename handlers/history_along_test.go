package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/audit"
)

// An entry still being written along its send is not on the history page;
// one left open past audit.OpenFor (the dashboard stopped mid-send) is, in
// the reader's language, with the rows it recorded and the note that it
// was interrupted.
func TestHistoryShowsInterruptedEntry(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	loginAs(t, b, "demo-1001", "sandbox-secret-1001", "1001", "production", "Anna")
	ctx := context.Background()
	begin := func(at time.Time, key string) {
		t.Helper()
		o, err := app.Audit.Begin(ctx, audit.Entry{At: at, Kind: audit.KindPrice, ClientID: "demo-1001", UserName: "Anna", SellerID: 1001, Environment: "production"})
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Append(ctx, []audit.Item{{Key: key, Outcome: audit.Accepted}}); err != nil {
			t.Fatal(err)
		}
	}
	begin(time.Now(), "SKU-BEING-SENT")
	begin(time.Now().Add(-audit.OpenFor-time.Hour), "SKU-INTERRUPTED")
	if r := b.Post("/settings/language", url.Values{"lang": {"ru"}}); r.Status >= 400 {
		t.Fatalf("switch: %d", r.Status)
	}
	h := b.Get("/history")
	if h.Status != http.StatusOK {
		t.Fatalf("history: %d", h.Status)
	}
	text := h.Text("main")
	if strings.Contains(text, "SKU-BEING-SENT") {
		t.Error("the history shows an entry still being written")
	}
	for _, want := range []string{"SKU-INTERRUPTED", "Дашборд остановился во время отправки"} {
		if !strings.Contains(text, want) {
			t.Errorf("the history lacks %q: %q", want, text)
		}
	}
}
