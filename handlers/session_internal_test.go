package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"

	gsessions "github.com/gorilla/sessions"
)

// countingStore is a gorilla Store that counts the calls it passes on.
type countingStore struct {
	gsessions.Store
	news, saves int
}

func (s *countingStore) New(r *http.Request, name string) (*gsessions.Session, error) {
	s.news++
	return s.Store.New(r, name)
}

func (s *countingStore) Save(r *http.Request, w http.ResponseWriter, gs *gsessions.Session) error {
	s.saves++
	return s.Store.Save(r, w, gs)
}

// The session middleware obtains and saves sessions through gorilla's
// Store interface (the server-side store behind it), not around it.
func TestSessionThroughGorillaStore(t *testing.T) {
	t.Parallel()
	deps, _ := fullDeps(t)
	store := deps.Sessions
	a, err := New(deps)
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingStore{Store: store}
	a.gstore = counting
	// A visitor without a login: the page to come back to is saved in a
	// new session, and its cookie set.
	w := httptest.NewRecorder()
	a.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/orders", nil))
	if w.Code != http.StatusSeeOther || w.Header().Get("Set-Cookie") == "" {
		t.Fatalf("GET /orders: %d, Set-Cookie %q; want 303 with a session cookie", w.Code, w.Header().Get("Set-Cookie"))
	}
	if counting.news != 1 || counting.saves == 0 {
		t.Errorf("through the gorilla Store: %d New, %d Save; want 1 and at least 1", counting.news, counting.saves)
	}
	// The next request finds it, again through the interface.
	req := httptest.NewRequest(http.MethodGet, "/login", nil)
	for _, c := range w.Result().Cookies() {
		req.AddCookie(c)
	}
	w = httptest.NewRecorder()
	a.ServeHTTP(w, req)
	if w.Code != http.StatusOK || counting.news != 2 {
		t.Errorf("GET /login: %d after %d New", w.Code, counting.news)
	}
}
