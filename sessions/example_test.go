package sessions_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Example shows the login flow as a handler runs it: load, renew (a new id
// at login), fill in, stage tokens, save; then a later request.
func Example() {
	dir, _ := os.MkdirTemp("", "sessions-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	db, err := sqldb.Open(ctx, filepath.Join(dir, "sellerdesk.db")) // or postgres://...
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	backend, err := sessions.NewBackend(ctx, db) // migrates the session tables
	if err != nil {
		log.Fatal(err)
	}
	defer backend.Close()
	key, _, err := sessions.LoadOrCreateKeyFile(filepath.Join(dir, "session.key"))
	if err != nil {
		log.Fatal(err)
	}
	store, err := sessions.NewStore(backend, sessions.Options{Keys: [][]byte{key}})
	if err != nil {
		log.Fatal(err)
	}
	purgerCtx, stopPurger := context.WithCancel(ctx)
	defer stopPurger()
	store.StartPurger(purgerCtx, 10*time.Minute)

	// POST /login
	r := httptest.NewRequest(http.MethodPost, "/login", nil)
	w := httptest.NewRecorder()
	sess, err := store.Load(r)
	if err != nil {
		log.Fatal(err) // only database failures: answer 503
	}
	sess.Renew()
	d := sess.Data()
	d.ClientID, d.ClientSecret, d.Environment, d.SellerID = "client-1", "secret", "test", 42
	sess.SetToken("seller", sessions.StoredToken{AccessToken: "eyJ...", ExpiresAt: time.Now().Add(15 * time.Minute)})
	sess.AddFlash("success", "Logged in")
	if err := sess.Save(r, w); err != nil {
		log.Fatal(err)
	}

	// GET / with the cookie the login set
	r = httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range w.Result().Cookies() {
		r.AddCookie(c)
	}
	sess, _ = store.Load(r)
	tok, ok, _ := store.LoadToken(ctx, sess.ID(), "seller")
	fmt.Println(sess.LoggedIn(), sess.Data().SellerID, ok, tok.AccessToken, sess.PopFlashes()[0].Text)
	// Output: true 42 true eyJ... Logged in
}
