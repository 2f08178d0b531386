package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// BenchmarkPageAllocs puts a 50-row /nomenclature page served from the
// local copy beside P7's /orders page (issue 16: "a 50-row page from the
// copy allocates no more than /orders does today"), side by side
// (benchstat -col /side). Both go through the echo handler with a warm
// session; /orders replays its upstream answer.
func BenchmarkPageAllocs(b *testing.B) {
	b.Run("side=orders", func(b *testing.B) {
		g, err := NewOrdersPageRig()
		if err != nil {
			b.Fatal(err)
		}
		defer g.Close()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.Serve(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("side=copy", func(b *testing.B) {
		e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: 100}, Catalog: true})
		if err != nil {
			b.Fatal(err)
		}
		defer e.Close()
		u, err := e.Login() // starts the sync
		if err != nil {
			b.Fatal(err)
		}
		if err := waitForCopy(e); err != nil {
			b.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodGet, dash("/nomenclature?limit=50"), nil)
		req.Header.Set("Cookie", u.Cookie)
		serve := func() error {
			w := httptest.NewRecorder()
			e.App.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				return fmt.Errorf("status %d", w.Code)
			}
			// The copy's freshness line, in any language, and the 50 rows.
			body := w.Body.String()
			if !strings.Contains(body, `data-testid="sync-status"`) {
				return fmt.Errorf("the page is not served from the copy")
			}
			if n := strings.Count(body, `data-testid="row-`); n != 50 {
				return fmt.Errorf("%d rows, want 50", n)
			}
			return nil
		}
		if err := serve(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := serve(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// waitForCopy waits (a minute at most) until every kind of the bench
// seller's copy finished a full pass.
func waitForCopy(e *Env) error {
	deadline := time.Now().Add(time.Minute)
	for {
		states, err := e.Catalog.Store().SyncStates(context.Background(), benchKey)
		if err != nil {
			return err
		}
		done := len(states) == len(copystore.Kinds)
		for _, st := range states {
			done = done && st.Complete() && !st.Running
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the copy did not finish in a minute: %+v", states)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
