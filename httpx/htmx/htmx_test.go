package htmx

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestWantsFragment: only a plain htmx request wants a fragment; a
// boosted link and a history restore replace the whole page.
func TestWantsFragment(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers map[string]string
		htmx    bool
		want    bool
	}{
		{"browser", nil, false, false},
		{"htmx", map[string]string{HeaderRequest: "true"}, true, true},
		{"boosted", map[string]string{HeaderRequest: "true", HeaderBoosted: "true"}, true, false},
		{"history restore", map[string]string{HeaderRequest: "true", HeaderHistoryRestore: "true"}, true, false},
		{"not quite htmx", map[string]string{HeaderRequest: "1"}, false, false},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		for k, v := range c.headers {
			r.Header.Set(k, v)
		}
		if got := IsRequest(r); got != c.htmx {
			t.Errorf("%s: IsRequest %v, want %v", c.name, got, c.htmx)
		}
		if got := WantsFragment(r); got != c.want {
			t.Errorf("%s: WantsFragment %v, want %v", c.name, got, c.want)
		}
	}
}

// TestRedirect: a browser gets a 303 to the path, htmx an HX-Redirect
// with a 200 it does not follow itself.
func TestRedirect(t *testing.T) {
	w := httptest.NewRecorder()
	Redirect(w, httptest.NewRequest(http.MethodPost, "/x", nil), "/orders")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/orders" || w.Header().Get(HeaderRedirect) != "" {
		t.Errorf("browser: %d, Location %q, HX-Redirect %q", w.Code, w.Header().Get("Location"), w.Header().Get(HeaderRedirect))
	}
	r := httptest.NewRequest(http.MethodPost, "/x", nil)
	r.Header.Set(HeaderRequest, "true")
	w = httptest.NewRecorder()
	Redirect(w, r, "/orders")
	if w.Code != http.StatusOK || w.Header().Get(HeaderRedirect) != "/orders" || w.Header().Get("Location") != "" {
		t.Errorf("htmx: %d, HX-Redirect %q, Location %q", w.Code, w.Header().Get(HeaderRedirect), w.Header().Get("Location"))
	}
}
