//go:build linux || darwin

package handlers_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// slowExportProducts sizes the sellers of the slow-export tests: 3 records
// a product, about 170 bytes a CSV line, several hundred KB an export, far
// more than the socket buffers between the server and a client that reads
// nothing (stalledGet keeps them small).
const slowExportProducts = 1500

// copyComplete waits until the copy of k finished a pass of every list.
func copyComplete(t *testing.T, app *testapp.App, k copystore.Key) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("a full copy of %d", k.SellerID), func() bool {
		st, err := app.Catalog.Store().SyncStates(context.Background(), k)
		if err != nil {
			t.Fatal(err)
		}
		done := !app.Catalog.Running(k)
		for _, kind := range copystore.Kinds {
			done = done && !st[kind].Running && st[kind].Complete()
		}
		return done
	})
}

// stalledGet sends GET path with b's cookies on a connection of its own
// and reads the answer's status and headers, never its body: a client on
// a link that takes nothing more. Its buffers are small, so the server's
// writes soon block. The connection closes when the test ends.
func stalledGet(t *testing.T, app *testapp.App, b *testapp.Browser, path string) (*http.Response, net.Conn) {
	t.Helper()
	path = b.InAccount(path)
	u, _ := url.Parse(app.URL)
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			// Before the handshake: a small window and small segments,
			// so the server's send buffer (sized from both) stays small
			// too and a few hundred KB of export fill every buffer.
			serr = errors.Join(syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10),
				syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 536))
		})
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var cookies []string
	for _, c := range b.Client.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nAccept-Language: en\r\n\r\n", path, u.Host, strings.Join(cookies, "; "))
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 512), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp, conn
}

// TestSlowExportsLeaveDashboardServing: four clients start an export of
// the whole catalogue and read nothing of it. Two exports run (one per
// seller, two in all), the others are refused with 429 and Retry-After;
// the running ones, blocked on their clients, hold no database connection,
// and a fifth user's page answers at once. When the clients go, their
// places are free again.
func TestSlowExportsLeaveDashboardServing(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: slowExportProducts}, Catalog: true})
	login := func(id, secret, seller string) *testapp.Browser {
		b := app.Browser(t)
		b.Login(id, secret, seller, "test")
		return b
	}
	// One login at a time, each copy made before the next: a first sync
	// holds the one writer for long stretches.
	a1 := login("demo-1001", "sandbox-secret-1001", "1001")
	copyComplete(t, app, copystore.Key{SellerID: 1001, Env: "test"})
	b1 := login("demo-1002", "sandbox-secret-1002", "1002")
	copyComplete(t, app, copystore.Key{SellerID: 1002, Env: "test"})
	a2, b2 := login("demo-1001", "sandbox-secret-1001", "1001"), login("demo-1002", "sandbox-secret-1002", "1002")
	fifth := login("demo-1001", "sandbox-secret-1001", "1001")

	var conns []net.Conn
	for i, b := range []*testapp.Browser{a1, a2, b1, b2} {
		resp, conn := stalledGet(t, app, b, "/nomenclature/export-all.csv")
		conns = append(conns, conn)
		want := []int{http.StatusOK, http.StatusTooManyRequests}[i%2] // the second of a seller waits
		if resp.StatusCode != want {
			t.Fatalf("export %d: %d, want %d", i+1, resp.StatusCode, want)
		}
		if want == http.StatusTooManyRequests {
			body, _ := io.ReadAll(resp.Body)
			if resp.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), "An export is already running") {
				t.Errorf("export %d refused with Retry-After %q: %q", i+1, resp.Header.Get("Retry-After"), body)
			}
		}
	}
	// The two running exports stop once their clients' buffers are full,
	// and hold no connection while they wait: every pool is idle.
	inUse := func() int { return app.DB.Reader().Stats().InUse + app.DB.Bulk().Stats().InUse }
	waitUntil(t, "exports waiting on their clients without a connection", func() bool { return inUse() == 0 })
	if n := handlers.ExportsRunning(app.Handler); n != 2 {
		t.Fatalf("%d exports running, want 2 waiting on their clients (does the export fit the socket buffers?)", n)
	}

	start := time.Now()
	p := fifth.Get("/")
	took := time.Since(start)
	if p.Status != http.StatusOK || took > 5*time.Second {
		t.Fatalf("a colleague's overview beside two stalled exports: %d in %v", p.Status, took)
	}
	t.Logf("overview beside two stalled exports: %v", took)
	if n := handlers.ExportsRunning(app.Handler); n != 2 {
		t.Fatalf("%d exports running after the page, want 2", n)
	}

	// A third seller's export finds both places taken (its login starts a
	// sync, which the page above did not need beside it).
	c1 := login("test-1003", "sandbox-secret-1003", "1003")
	if p := c1.Get("/nomenclature/export-all.xlsx"); p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") != "5" {
		t.Errorf("a third export at once: %d, Retry-After %q", p.Status, p.Header.Get("Retry-After"))
	}

	// The clients go: their places are given back, and the next export
	// runs to the end.
	for _, c := range conns {
		c.Close()
	}
	waitUntil(t, "places given back", func() bool { return handlers.ExportsRunning(app.Handler) == 0 })
	resp, err := a2.Client.Get(app.URL + a2.InAccount("/nomenclature/export-all.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if n := strings.Count(string(body), "\r\n"); err != nil || resp.StatusCode != http.StatusOK || n != 3*slowExportProducts+1 {
		t.Errorf("export after the stalled ones: %d, %d lines, %v", resp.StatusCode, n, err)
	}
}

// TestExportBusyPage: a refused export says so in the reader's language, as
// a page or, for htmx, in the flash area, with Retry-After.
func TestExportBusyPage(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: slowExportProducts}, Catalog: true})
	holder := app.Browser(t)
	holder.LoginDemo()
	copyComplete(t, app, copyKey1001)
	if resp, _ := stalledGet(t, app, holder, "/nomenclature/export-all.csv"); resp.StatusCode != http.StatusOK {
		t.Fatalf("the held export: %d", resp.StatusCode)
	}
	colleague := app.Browser(t)
	colleague.LoginDemo()
	for _, c := range []struct {
		lang, want string
		htmx       bool
	}{
		{"en", "An export is already running", false},
		{"ru", "Выгрузка уже идёт", false},
		{"ru", "Выгрузка всего каталога этого продавца уже идёт", true},
	} {
		req, _ := http.NewRequest(http.MethodGet, app.URL+colleague.InAccount("/nomenclature/export-all.xlsx"), nil)
		req.Header.Set("Accept-Language", c.lang)
		if c.htmx {
			req.Header.Set("HX-Request", "true")
		}
		resp, err := colleague.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), c.want) {
			t.Errorf("%s htmx=%v: %d, Retry-After %q, %q", c.lang, c.htmx, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		if c.htmx && resp.Header.Get("HX-Retarget") != "#flash-area" {
			t.Errorf("htmx: retarget %q", resp.Header.Get("HX-Retarget"))
		}
	}
}

// TestSlowDownloadOutlivesTheRequestBudget: a whole-catalogue export reads
// the local copy, not the marketplace, so the budget of a marketplace call
// does not cut it: a client on a slow link that takes nothing for a while
// and then reads on gets every line, long after that budget has run out.
func TestSlowDownloadOutlivesTheRequestBudget(t *testing.T) {
	t.Parallel()
	const budget = 300 * time.Millisecond
	// Logged in on a dashboard with the default budget (a loaded machine's
	// token calls may take longer than this one's), sharing its sessions.
	m, err := demo.Start(sandbox.New(sandbox.Options{ProductsPerSeller: slowExportProducts}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	backend := sessionBackend(t)
	app := testapp.New(t, testapp.Options{Market: m, Backend: backend, Catalog: true, UpstreamTimeout: budget})
	login := testapp.New(t, testapp.Options{Market: m, Backend: backend}).Browser(t)
	login.LoginDemo()
	b := login.On(app)
	b.Get("/nomenclature")
	copyComplete(t, app, copyKey1001)
	start := time.Now()
	resp, conn := stalledGet(t, app, b, "/nomenclature/export-all.csv")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("export: %d", resp.StatusCode)
	}
	// The export waits on the client, past the budget.
	waitUntil(t, "the export waiting on its client past the budget", func() bool {
		return time.Since(start) > 3*budget && handlers.ExportsRunning(app.Handler) == 1
	})
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("after %d bytes: %v", len(body), err)
	}
	if n := strings.Count(string(body), "\r\n"); n != 3*slowExportProducts+1 {
		t.Errorf("the slow download has %d lines, want %d (cut short?)", n, 3*slowExportProducts+1)
	}
}

// TestStoppedDownloadFailsVisibly: an export that cannot go on once its
// status is out (here the seller's data is forgotten meanwhile) drops the
// connection unfinished, so the browser says the download failed instead
// of keeping a file that silently lacks its end.
func TestStoppedDownloadFailsVisibly(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: slowExportProducts}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyComplete(t, app, copyKey1001)
	resp, conn := stalledGet(t, app, b, "/nomenclature/export-all.csv")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("export: %d", resp.StatusCode)
	}
	waitUntil(t, "the export waiting on its client", func() bool { return handlers.ExportsRunning(app.Handler) == 1 })
	colleague := app.Browser(t)
	colleague.LoginDemo()
	if p := colleague.Post("/sync/forget", url.Values{}); p.Status != http.StatusSeeOther && p.Header.Get("HX-Redirect") == "" {
		t.Fatalf("forget: %d", p.Status)
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("the stopped download ended cleanly after %d lines: a short file the user cannot tell from a whole one", strings.Count(string(body), "\r\n"))
	}
	if n := strings.Count(string(body), "\r\n"); n >= 3*slowExportProducts+1 {
		t.Errorf("the download has all %d lines: the forget did not stop it", n)
	}
}
