package bench

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

func BenchmarkZZPage(b *testing.B) {
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: 33334}, Catalog: true})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	u, err := e.Login()
	if err != nil {
		b.Fatal(err)
	}
	if err := waitCopy(e.Catalog.Store(), 0); err != nil && false {
		b.Fatal(err)
	}
	for waitCopy(e.Catalog.Store(), 1) != nil {
	}
	p := os.Getenv("ZZ_PAGE")
	if p == "" {
		p = "/prices?q=" + url.QueryEscape("крос")
	}
	req := httptest.NewRequest(http.MethodGet, dash(p), nil)
	req.Header.Set("Cookie", u.Cookie)
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		e.App.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
