package scaleout

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// ownCluster is a PostgreSQL cluster that one test owns, so that it can
// stop and start it.
type ownCluster struct {
	t        *testing.T
	bin      string // PostgreSQL's bin folder
	dir      string // data folder
	log      string // server log
	port     int
	password string
	DSN      string
}

// postgresBin finds the newest installed PostgreSQL bin folder with initdb
// (Debian's layout), or "".
func postgresBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi < vj
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

// startOwnCluster initialises a cluster in t.TempDir() on a free loopback
// port with a random password and starts it; it is stopped when the test
// ends. As root the server runs as the postgres user (PostgreSQL refuses
// root), like sessions/testdata/start-postgres.sh does.
func startOwnCluster(t *testing.T) *ownCluster {
	t.Helper()
	bin := postgresBin()
	if bin == "" {
		t.Skip("initdb not found: install PostgreSQL (apt-get install -y postgresql) to run the database restart test")
	}
	root := os.Geteuid() == 0
	var uid, gid int
	if root {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres user to run the server as: install Debian's postgresql package")
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	tmp := t.TempDir()
	base := filepath.Join(tmp, "pg") // the server's own folder: data, log, socket
	if err := os.Mkdir(base, 0o700); err != nil {
		t.Fatal(err)
	}
	if root {
		// The postgres user must reach its folder through the test's
		// temporary folders, which are private to root.
		for _, d := range []string{filepath.Dir(tmp), tmp} {
			if err := os.Chmod(d, 0o711); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chown(base, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	pw := make([]byte, 16)
	rand.Read(pw)
	c := &ownCluster{t: t, bin: bin, dir: filepath.Join(base, "data"), log: filepath.Join(base, "server.log"),
		port: freePort(t), password: "pw-" + hex.EncodeToString(pw)}
	pwfile := filepath.Join(base, "pwfile")
	if err := os.WriteFile(pwfile, []byte(c.password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if root {
		os.Chown(pwfile, uid, gid)
	}
	c.run(30*time.Second, "initdb", "-D", c.dir, "-U", "postgres", "--pwfile="+pwfile, "--auth=scram-sha-256",
		"--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C.UTF-8")
	os.Remove(pwfile)
	c.DSN = fmt.Sprintf("postgres://postgres:%s@127.0.0.1:%d/postgres?sslmode=disable", c.password, c.port)
	c.Start()
	t.Cleanup(func() { c.pgctl(30*time.Second, "-m", "immediate", "stop") })
	return c
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// run runs a PostgreSQL program, as the postgres user when root, and fails
// the test on error.
func (c *ownCluster) run(timeout time.Duration, prog string, args ...string) {
	c.t.Helper()
	if err := c.try(timeout, prog, args...); err != nil {
		c.t.Fatal(err)
	}
}

func (c *ownCluster) try(timeout time.Duration, prog string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	path := filepath.Join(c.bin, prog)
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, path, args...)
	}
	cmd.Dir = os.TempDir() // a folder the postgres user may enter
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		logTail, _ := os.ReadFile(c.log)
		return fmt.Errorf("%s %s: %v\n%s\nserver log:\n%s", prog, strings.Join(args, " "), err, out.String(), logTail)
	}
	return nil
}

func (c *ownCluster) pgctl(timeout time.Duration, args ...string) error {
	return c.try(timeout, "pg_ctl", append([]string{"-D", c.dir, "-w", "-t", "30"}, args...)...)
}

// Start starts the server (again) on its port.
func (c *ownCluster) Start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
		c.port, filepath.Dir(c.dir))
	if err := c.pgctl(60*time.Second, "-l", c.log, "-o", opts, "start"); err != nil {
		c.t.Fatal(err)
	}
}

// Stop stops the server; "fast" ends open connections at once.
func (c *ownCluster) Stop() {
	c.t.Helper()
	if err := c.pgctl(60*time.Second, "-m", "fast", "stop"); err != nil {
		c.t.Fatal(err)
	}
}

// The session database stops and starts again while two instances serve a
// logged-in user: pages answer 503 "session store unavailable" within a
// bounded time, requests do not pile up goroutines, no page or log line
// shows the database password or the client secret, and the dashboard
// works again by itself once the database is back.
func TestDatabaseStoppedAndRestarted(t *testing.T) {
	// Not parallel: it counts the process's goroutines.
	requirePostgres(t)
	db := startOwnCluster(t)
	p := newPair(t, db.DSN, testapp.Options{})

	a := p.A.Browser(t)
	a.LoginDemo()
	b := on(t, a, p.A, p.B)
	for _, br := range []*testapp.Browser{a, b} {
		if pg := br.Get("/orders"); pg.Status != http.StatusOK {
			t.Fatalf("before the stop: GET /orders %d", pg.Status)
		}
	}

	db.Stop()

	// A deadline on the client: an answer must come within 3 s.
	bounded := func(br *testapp.Browser) *http.Client {
		return &http.Client{
			Jar:           br.Client.Jar,
			Timeout:       3 * time.Second,
			Transport:     &http.Transport{DisableKeepAlives: true},
			CheckRedirect: br.Client.CheckRedirect,
		}
	}
	ca, cb := bounded(a), bounded(b)
	var pages []string
	check503 := func(who string, r result) {
		t.Helper()
		if r.err != nil {
			t.Errorf("%s with the database down: %v (want an answer within 3 s)", who, r.err)
			return
		}
		pages = append(pages, r.body)
		if r.status != http.StatusServiceUnavailable || !strings.Contains(strings.ToLower(r.body), "session store unavailable") {
			t.Errorf("%s with the database down: %d, want 503 \"session store unavailable\"", who, r.status)
		}
	}
	for _, path := range []string{"/orders", "/prices", "/"} {
		check503("A "+path, fetch(ca, http.MethodGet, p.A.URL+a.InAccount(path), nil))
		check503("B "+path, fetch(cb, http.MethodGet, p.B.URL+b.InAccount(path), nil))
	}
	htmx, _ := http.NewRequest(http.MethodGet, p.A.URL+a.InAccount("/orders"), nil)
	htmx.Header.Set("HX-Request", "true")
	if resp, err := ca.Do(htmx); err != nil {
		t.Errorf("htmx request with the database down: %v", err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("htmx request with the database down: %d, want 503", resp.StatusCode)
		}
	}

	// A burst of requests while the database is down leaves no goroutines
	// behind once it has been answered.
	settle := func() int {
		runtime.GC()
		time.Sleep(100 * time.Millisecond)
		return runtime.NumGoroutine()
	}
	before := settle()
	const burst = 40
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range burst {
		c, url := ca, p.A.URL
		if i%2 == 1 {
			c, url = cb, p.B.URL
		}
		wg.Go(func() {
			r := fetch(c, http.MethodGet, url+a.InAccount("/orders"), nil)
			mu.Lock()
			defer mu.Unlock()
			check503(fmt.Sprintf("burst request %d", i), r)
		})
	}
	wg.Wait()
	const slack = 10
	var after int
	if !waitFor(5*time.Second, func() bool { after = runtime.NumGoroutine(); return after <= before+slack }) {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d before a burst of %d requests, %d after (slack %d)\n%s", before, burst, after, slack, buf[:n])
	}

	db.Start()

	// Back by itself: no restart of the dashboard, the same cookie.
	for name, c := range map[string]struct {
		br  *testapp.Browser
		url string
	}{"A": {a, p.A.URL}, "B": {b, p.B.URL}} {
		var r result
		attempts := 0
		if !waitFor(15*time.Second, func() bool {
			attempts++
			r = fetch(bounded(c.br), http.MethodGet, c.url+c.br.InAccount("/orders"), nil)
			return r.err == nil && r.status == http.StatusOK
		}) {
			t.Fatalf("%s after the restart: status %d, err %v; want 200 within 15 s", name, r.status, r.err)
		}
		pages = append(pages, r.body)
		if !strings.Contains(r.body, demoClientID) {
			t.Errorf("%s after the restart: the page does not show the logged-in user", name)
		}
		t.Logf("%s answered 200 again after %d attempt(s)", name, attempts)
	}

	for _, secret := range []string{db.password, demoSecret} {
		for i, body := range pages {
			if strings.Contains(body, secret) {
				t.Errorf("page %d contains a secret", i)
			}
		}
		for name, app := range map[string]*testapp.App{"A": p.A, "B": p.B} {
			if strings.Contains(app.Logs.String(), secret) {
				t.Errorf("instance %s logged a secret", name)
			}
		}
	}
	if !strings.Contains(p.A.Logs.String(), "session store unavailable") {
		t.Error("instance A did not log the outage")
	}
}
