package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// childRSS is the resident memory of a dashboard alone: cmd/web built and
// run as a child process against the in-process sandbox of e (the three
// marketplace URLs), on its own database (dbURL; "" = a new SQLite file),
// logged in by clients sessions, its copy filled by a first sync, then
// loaded as copyLoad loads the in-process one for slices x slice. It
// reports the child's peak VmRSS sampled during the load and its VmHWM
// (the kernel's peak, the sync included), from /proc/<pid>/status.
type childRSS struct {
	PeakRSS, HWM int64
	Records      int // the child's copy
	Requests     uint64
	OK           int
	P99          time.Duration
}

func measureChildRSS(e *Env, dbURL string, clients int, slice time.Duration, slices int) (childRSS, error) {
	var out childRSS
	dir, err := os.MkdirTemp("", "sdbench-child-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	child, err := startChild(e, dir, dbURL)
	if err != nil {
		return out, err
	}
	defer child.stop()
	base, cmd, dbURL := child.base, child.cmd, child.dbURL
	cookies := make([]string, clients)
	for i := range cookies {
		if cookies[i], err = childLogin(base); err != nil {
			return out, err
		}
	}
	db, err := sqldb.Open(context.Background(), dbURL)
	if err != nil {
		return out, err
	}
	defer db.Close()
	cs, err := copystore.New(context.Background(), db)
	if err != nil {
		return out, err
	}
	if err := waitCopy(cs, 30*time.Minute); err != nil {
		return out, err
	}
	if out.Records, err = cs.CountNomenclature(context.Background(), benchKey, copystore.Query{}); err != nil {
		return out, err
	}

	var targets []vegeta.Target
	for k := range loadPages {
		for u := range cookies {
			targets = append(targets, vegeta.Target{Method: http.MethodGet, URL: base + dash(loadPages[(k+u)%len(loadPages)]),
				Header: loadHeader(cookies[u])})
		}
	}
	var peak atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			if v, _ := procStatus(cmd.Process.Pid); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	a := vegeta.NewAttacker(vegeta.Workers(uint64(clients)), vegeta.MaxWorkers(uint64(clients)),
		vegeta.KeepAlive(true), vegeta.Connections(clients*2), vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	var m vegeta.Metrics
	for res := range a.Attack(vegeta.NewStaticTargeter(targets...), vegeta.Rate{Freq: 0}, slice*time.Duration(slices), "child") {
		m.Add(res)
	}
	m.Close()
	close(stop)
	wg.Wait()
	_, hwm := procStatus(cmd.Process.Pid)
	out.PeakRSS, out.HWM, out.Requests, out.OK, out.P99 = peak.Load(), hwm, m.Requests, m.StatusCodes["200"], m.Latencies.P99
	if out.OK == 0 || uint64(out.OK) < m.Requests {
		// Memory under redirects or errors is not memory under the pages.
		return out, fmt.Errorf("the child answered %d of %d requests with 200 (codes %v, errors %v)", out.OK, m.Requests, m.StatusCodes, firstErrs(m.Errors))
	}
	return out, nil
}

// webChild is cmd/web running as a child process.
type webChild struct {
	cmd   *exec.Cmd
	base  string // its URL
	dbURL string
}

// startChild builds cmd/web into dir and runs it against the in-process
// sandbox of e, on dbURL ("" = a new SQLite file in dir), with the
// variables vars ("NAME=value") besides, until stop; it returns once the
// child serves its login page.
func startChild(e *Env, dir, dbURL string, vars ...string) (*webChild, error) {
	bin, err := buildWeb(dir)
	if err != nil {
		return nil, err
	}
	return runChild(e, bin, dir, dbURL, vars...)
}

// buildWeb builds cmd/web into dir and returns the binary's path.
func buildWeb(dir string) (string, error) {
	bin := filepath.Join(dir, "web")
	if b, err := exec.Command("go", "build", "-o", bin, "./cmd/web").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/web (run from the module root): %v: %s", err, b)
	}
	return bin, nil
}

// runChild runs the cmd/web binary bin as startChild does.
func runChild(e *Env, bin, dir, dbURL string, vars ...string) (*webChild, error) {
	if dbURL == "" {
		dbURL = filepath.Join(dir, "web.db")
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"SELLERDESK_ADDR="+addr,
		"SELLERDESK_B2B_URL="+e.Market.B2BURL, "SELLERDESK_B2B_TEST_URL="+e.Market.B2BTestURL, "SELLERDESK_SELLER_URL="+e.Market.SellerURL,
		"SELLERDESK_DATABASE_URL="+dbURL, "SELLERDESK_SESSION_KEY="+hex.EncodeToString(key), "SELLERDESK_LOG_LEVEL=error")
	cmd.Env = append(cmd.Env, vars...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &webChild{cmd: cmd, base: "http://" + addr, dbURL: dbURL}
	if err := waitServing(c.base+"/login", time.Minute); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// stop ends the child: an interrupt, then a kill after 10 s.
func (c *webChild) stop() {
	_ = c.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		<-done
	}
}

// freeAddr is a loopback address no one listens on (now).
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitServing waits until u answers 200.
func waitServing(u string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		resp, err := http.Get(u)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the child dashboard did not serve %s in %s (%v)", u, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// childLogin logs the bench seller in to the dashboard at base and
// returns its session cookie.
func childLogin(base string) (string, error) {
	return childLoginAs(base, clientID, secret, sellerID)
}

// procStatus reads VmRSS and VmHWM of process pid in bytes (0 where
// /proc is unavailable).
func procStatus(pid int) (rss, hwm int64) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		for _, f := range []struct {
			prefix string
			v      *int64
		}{{"VmRSS:", &rss}, {"VmHWM:", &hwm}} {
			if v, ok := strings.CutPrefix(sc.Text(), f.prefix); ok {
				if fs := strings.Fields(v); len(fs) > 0 {
					n, _ := strconv.ParseInt(fs[0], 10, 64)
					*f.v = n << 10
				}
			}
		}
	}
	return rss, hwm
}
