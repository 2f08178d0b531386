package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// ---- P5: session size and heap per idle session ----

// SessionSize (target P5) reads the stored size of a real logged-in session (both tokens), then
// creates many more sessions exactly as the login handler does (new
// session, renewed id, credentials, both tokens, saved) and measures the
// dashboard process's live heap before and after, with the garbage
// collected. The sandbox is not involved after the first login, so its
// memory does not blur the figure.
func SessionSize(s Sizes) (Result, error) {
	r := Result{ID: "P5", Target: "<= 2 KB; <= 8 KB"}
	e, err := Start(EnvOptions{})
	if err != nil {
		return r, err
	}
	defer e.Close()
	u, err := e.Login()
	if err != nil {
		return r, err
	}
	ctx := context.Background()
	size, err := e.Backend.StoredSize(ctx, u.ID)
	if err != nil {
		return r, err
	}
	toks, err := e.Store.LoadTokens(ctx, u.ID)
	if err != nil {
		return r, err
	}
	req := httptest.NewRequest(http.MethodPost, "http://dashboard.test/login", nil)
	create := func() (string, error) {
		sess, err := e.Store.Load(req)
		if err != nil {
			return "", err
		}
		sess.Renew()
		d := sess.Data()
		d.ClientID, d.ClientSecret, d.Environment, d.SellerID = clientID, secret, env, sellerID
		for name, t := range toks {
			sess.SetToken(name, t)
		}
		if err := sess.Save(req, httptest.NewRecorder()); err != nil {
			return "", err
		}
		return sess.ID(), nil
	}
	// Warm the database and the pools first.
	for range min(200, s.P5Sessions) {
		if _, err := create(); err != nil {
			return r, err
		}
	}
	h0, rss0 := liveHeap(), rss()
	var last string
	for range s.P5Sessions {
		if last, err = create(); err != nil {
			return r, err
		}
	}
	h1, rss1 := liveHeap(), rss()
	per := float64(int64(h1)-int64(h0)) / float64(s.P5Sessions)
	lastSize, _ := e.Backend.StoredSize(ctx, last)
	r.Holds = size <= 2048 && per <= 8192
	r.Figure = fmt.Sprintf("stored %d B (both tokens); heap %+.0f B per idle session over %d", size, per, s.P5Sessions)
	r.Detail = append(r.Detail,
		fmt.Sprintf("stored size as SQLite measures it (dbstat: session row and token rows) of a real login: %d B; of a session created in the loop: %d B", size, lastSize),
		fmt.Sprintf("live Go heap after GC: %d B before, %d B after %d sessions; process RSS %+.0f B per session (includes SQLite's page cache, which lives outside the Go heap)",
			h0, h1, s.P5Sessions, float64(int64(rss1)-int64(rss0))/float64(s.P5Sessions)))
	return r, nil
}

// liveHeap returns the live heap after two full collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// rss returns the resident set size from /proc (0 where there is none).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseUint(f[1], 10, 64)
	return n * uint64(os.Getpagesize())
}

// ---- P6: load on mixed pages ----
