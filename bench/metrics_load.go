package bench

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app"
	"github.com/sellerdesk/sellerdesk/app/metrics"
	"github.com/sellerdesk/sellerdesk/handlers"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// MetricsOverhead (target P10m) serves P10's load (a SQLite copy of
// CopyLarge x 3 records, CopyUsers clients cycling through loadPages)
// from two dashboards on the same database and sandbox, the same sessions
// valid on both: one with metrics off, as P10 runs it, and one with
// metrics on (every hook fed, the pools, gate, jobs and copies read by a
// scrape in the middle of each slice, as Prometheus would). The two sides
// run at once, half the clients each, in slices: whatever else the
// machine runs meanwhile slows both alike (alternating slices, as P10b
// does, measured the other engineers' compiles on a shared machine more
// than the metrics: bench/NOTES.md). It reports the throughput with
// metrics on as a ratio to the throughput with them off, over the run and
// slice by slice.
func MetricsOverhead(s Sizes) (Result, error) {
	r := Result{ID: "P10m", Target: "thr with metrics >= 0.97x without, 0 err"}
	ce, err := startCopy(s.CopyLarge, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	// Both sides are dashboards built alike for this measurement, on the
	// copy the bench's own dashboard filled: that one ran the first sync
	// (its connections, caches and copy manager are not a fresh
	// dashboard's), so serving one side from it measured the two
	// dashboards' difference along with the metrics'. At full sizes each
	// is cmd/web in a process of its own, as deployed: two servers in one
	// runtime share its scheduler, and there the side with metrics lost
	// 5-8 % that each process alone does not (bench/NOTES.md).
	var on, plain *metricsTwin
	var users []string
	if s.ChildRSS {
		on, plain, users, err = childTwins(ce, s.CopyUsers)
	} else {
		on, plain, users, err = processTwins(ce, s.CopyUsers)
	}
	if err != nil {
		return r, err
	}
	defer on.close()
	defer plain.close()

	targets := func(base string) []vegeta.Target {
		var out []vegeta.Target
		for k := range loadPages {
			for u := range users {
				p := (k + u) % len(loadPages)
				out = append(out, vegeta.Target{Method: http.MethodGet, URL: base + dash(loadPages[p]),
					Header: loadHeader(users[u])})
			}
		}
		return out
	}
	type side struct {
		targets []vegeta.Target
		scrape  bool
		m       vegeta.Metrics
		total   time.Duration
		scrapes int
		bytes   int
		slices  []float64 // each counted slice's throughput (200s a second)
	}
	var scrapeErr error
	workers := max(1, s.CopyUsers/2)
	run := func(sd *side, name string, d time.Duration, count bool) {
		a := vegeta.NewAttacker(vegeta.Workers(uint64(workers)), vegeta.MaxWorkers(uint64(workers)),
			vegeta.KeepAlive(true), vegeta.Connections(workers*2), vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
		var wg sync.WaitGroup
		if sd.scrape && count {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(d / 2)
				resp, err := http.Get(on.scrape)
				if err != nil {
					scrapeErr = err
					return
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					scrapeErr = fmt.Errorf("scrape: status %d", resp.StatusCode)
				}
				sd.scrapes++
				sd.bytes = int(n)
			}()
		}
		ok := 0
		t0 := time.Now()
		for res := range a.Attack(vegeta.NewStaticTargeter(sd.targets...), vegeta.Rate{Freq: 0}, d, name) {
			if count {
				sd.m.Add(res)
				if res.Code == http.StatusOK {
					ok++
				}
			}
		}
		if count {
			took := time.Since(t0)
			sd.total += took
			sd.slices = append(sd.slices, float64(ok)/took.Seconds())
		}
		a.Stop()
		wg.Wait()
	}
	off, with := &side{targets: targets(plain.url)}, &side{targets: targets(on.url), scrape: true}
	// both runs a slice of each side at once; which side's load starts
	// first alternates slice by slice.
	both := func(i int, count bool) {
		first, second := off, with
		if i%2 == 1 {
			first, second = with, off
		}
		name := func(sd *side) string {
			if sd == with {
				return "on"
			}
			return "off"
		}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); run(first, name(first), s.MetricsSlice, count) }()
		go func() { defer wg.Done(); run(second, name(second), s.MetricsSlice, count) }()
		wg.Wait()
	}
	both(0, false) // both dashboards' readers and caches warmed before anything counts
	both(1, false)
	for i := range s.MetricsSlices {
		both(i, true)
	}
	off.m.Close()
	with.m.Close()
	if scrapeErr != nil {
		return r, scrapeErr
	}
	// Each side alone, CPU per page over a fixed number of requests, in
	// interleaved rounds (the side going first alternating): a count of
	// the process's CPU (PageCost's loop), it holds where the throughput
	// of the slices moves with the neighbours' load. The metrics side is
	// scraped once a round, its CPU counted apart and spread over the
	// round's pages.
	urlsOf := func(base string) (urls, cookies []string) {
		for k := range loadPages {
			for u := range users {
				urls = append(urls, base+dash(loadPages[(k+u)%len(loadPages)]))
				cookies = append(cookies, users[u])
			}
		}
		return urls, cookies
	}
	offURLs, offCookies := urlsOf(plain.url)
	withURLs, withCookies := urlsOf(on.url)
	var cpuOff, cpuWith []time.Duration
	var scrapeCPU time.Duration
	for round := range s.CostRounds {
		for i := range 2 {
			if (i+round)%2 == 0 {
				c, _, _, err := costLoopOf(plain.cpu, offURLs, offCookies, "gzip", false, s.CopyUsers, s.CostRequests)
				if err != nil {
					return r, err
				}
				cpuOff = append(cpuOff, c)
				continue
			}
			c, _, _, err := costLoopOf(on.cpu, withURLs, withCookies, "gzip", false, s.CopyUsers, s.CostRequests)
			if err != nil {
				return r, err
			}
			c0 := on.cpu()
			resp, err := http.Get(on.scrape)
			if err != nil {
				return r, err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			sc := on.cpu() - c0
			scrapeCPU = max(scrapeCPU, sc)
			cpuWith = append(cpuWith, c+sc/time.Duration(s.CostRequests))
		}
	}
	cpuRatio := float64(median(cpuWith)) / float64(median(cpuOff))

	thr := func(sd *side) float64 { return float64(sd.m.StatusCodes["200"]) / sd.total.Seconds() }
	errs := func(sd *side) int { return int(sd.m.Requests) - sd.m.StatusCodes["200"] }
	ratio := thr(with) / thr(off)
	// Each slice as a ratio of its own: the median and the range say how
	// steady the run's ratio is.
	var pairs []float64
	for i := range min(len(with.slices), len(off.slices)) {
		if off.slices[i] > 0 {
			pairs = append(pairs, with.slices[i]/off.slices[i])
		}
	}
	slices.Sort(pairs)
	pairMedian, pairLow, pairHigh := 0.0, 0.0, 0.0
	if n := len(pairs); n > 0 {
		pairMedian, pairLow, pairHigh = pairs[n/2], pairs[0], pairs[n-1]
		if n%2 == 0 {
			pairMedian = (pairs[n/2-1] + pairs[n/2]) / 2
		}
	}
	r.Holds = ratio >= 0.97 && errs(with) == 0 && errs(off) == 0
	cpuOf := "the process's CPU, getrusage: the dashboards and the load"
	if s.ChildRSS {
		cpuOf = "each child's own CPU, /proc/<pid>/stat"
	}
	r.Figure = fmt.Sprintf("SQLite, %d records, %d clients: %.0f/s with metrics = %.3fx %.0f/s without (slice by slice: median %.3fx, %.3f..%.3f); p99 %s with, %s without; %d err; CPU per page %s with = %.3fx %s without",
		ce.records, s.CopyUsers, thr(with), ratio, thr(off), pairMedian, pairLow, pairHigh, with.m.Latencies.P99.Round(100*time.Microsecond),
		off.m.Latencies.P99.Round(100*time.Microsecond), errs(with)+errs(off), median(cpuWith).Round(time.Microsecond), cpuRatio, median(cpuOff).Round(time.Microsecond))
	r.Detail = append(r.Detail,
		fmt.Sprintf("CPU per page, each side alone (%d clients, %d requests a round, %d rounds, interleaved; %s): with metrics %v, without %v; medians %s and %s, %.3fx; the costliest scrape %s of CPU, spread over its round",
			s.CopyUsers, s.CostRequests, s.CostRounds, cpuOf, roundAll(cpuWith), roundAll(cpuOff), median(cpuWith).Round(time.Microsecond), median(cpuOff).Round(time.Microsecond), cpuRatio, scrapeCPU.Round(time.Microsecond)),
		fmt.Sprintf("%s, scraped once in the middle of each slice (%d scrapes of %d bytes: the database's pools, the page gate, the jobs by state and the copies' ages read each time)", on.how, with.scrapes, with.bytes),
		fmt.Sprintf("vegeta (library), closed loop: %d workers a side, both sides at once, %d sessions shared, pages %v; a warm-up of %s not counted, then %d slices of %s",
			workers, len(users), loadPages, s.MetricsSlice, s.MetricsSlices, s.MetricsSlice),
		fmt.Sprintf("throughput ratio slice by slice, sorted: %.3f", pairs),
		fmt.Sprintf("with metrics: %d requests, status codes %v, p50 %s p90 %s p99 %s", with.m.Requests, with.m.StatusCodes, with.m.Latencies.P50, with.m.Latencies.P90, with.m.Latencies.P99),
		fmt.Sprintf("without: %d requests, status codes %v, p50 %s p90 %s p99 %s", off.m.Requests, off.m.StatusCodes, off.m.Latencies.P50, off.m.Latencies.P90, off.m.Latencies.P99))
	return r, nil
}

// metricsTwin is one side of P10m: a dashboard to load and, on the
// metrics side, where its metrics are scraped.
type metricsTwin struct {
	url    string               // the dashboard
	scrape string               // its metrics (the side with them)
	cpu    func() time.Duration // the CPU the dashboard has used so far
	how    string               // where it runs and whose CPU cpu counts
	close  func()
}

// childTwins runs the two sides as cmd/web child processes, one with
// SELLERDESK_METRICS_ADDR set, on the copy's database with one session
// key, and logs users sessions in; each session is valid on both.
func childTwins(ce *copyEnv, users int) (on, plain *metricsTwin, cookies []string, err error) {
	dir, err := os.MkdirTemp("", "sdbench-p10m-")
	if err != nil {
		return nil, nil, nil, err
	}
	var started []*metricsTwin
	defer func() { // on failure, whatever was started is stopped
		if err != nil {
			for _, t := range started {
				t.close()
			}
			os.RemoveAll(dir)
		}
	}()
	bin, err := buildWeb(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	dbURL := filepath.Join(ce.dir, "sessions.db")
	key := "SELLERDESK_SESSION_KEY=" + hex.EncodeToString(benchSessionKey())
	maddr, err := freeAddr()
	if err != nil {
		return nil, nil, nil, err
	}
	start := func(vars ...string) (*metricsTwin, error) {
		c, err := runChild(ce.Env, bin, dir, dbURL, append([]string{key}, vars...)...)
		if err != nil {
			return nil, err
		}
		pid := c.cmd.Process.Pid
		t := &metricsTwin{url: c.base, cpu: func() time.Duration { return procCPU(pid) }, close: c.stop,
			how: "cmd/web as two child processes (built once) on one SQLite file and the in-process sandbox, one session key, the sessions valid on both; metrics on: SELLERDESK_METRICS_ADDR set, its listener"}
		started = append(started, t)
		return t, nil
	}
	a, err := start("SELLERDESK_METRICS_ADDR=" + maddr)
	if err != nil {
		return nil, nil, nil, err
	}
	a.scrape = "http://" + maddr + metrics.Path
	b, err := start()
	if err != nil {
		return nil, nil, nil, err
	}
	for range users {
		ck, err := childLogin(a.url)
		if err != nil {
			return nil, nil, nil, err
		}
		cookies = append(cookies, ck)
	}
	if err = waitCopy(ce.Catalog.Store(), 30*time.Minute); err != nil {
		return nil, nil, nil, err
	}
	stopA := a.close
	a.close = func() { stopA(); os.RemoveAll(dir) }
	return a, b, cookies, nil
}

// processTwins serves the two sides from this process (the smoke sizes,
// where no child is built): the CPU counted is the process's.
func processTwins(ce *copyEnv, users int) (on, plain *metricsTwin, cookies []string, err error) {
	mx := metrics.New()
	a, err := startTwin(ce.Env, mx)
	if err != nil {
		return nil, nil, nil, err
	}
	b, err := startTwin(ce.Env, nil)
	if err != nil {
		a.close()
		return nil, nil, nil, err
	}
	scraper := httptest.NewServer(mx.Handler())
	on = &metricsTwin{url: a.url, scrape: scraper.URL + metrics.Path, cpu: cpuTime, close: func() { scraper.Close(); a.close() },
		how: "two dashboards in this process on one SQLite file and one sandbox, the sessions valid on both; metrics on: every observer hook fed, its handler"}
	plain = &metricsTwin{url: b.url, cpu: cpuTime, close: b.close}
	for range users {
		u, err := ce.Login()
		if err != nil {
			on.close()
			plain.close()
			return nil, nil, nil, err
		}
		cookies = append(cookies, u.Cookie)
	}
	return on, plain, cookies, nil
}

// procCPU is the user and system CPU process pid has used (0 where /proc
// is unavailable), in clock ticks of 10 ms.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name in parentheses may hold spaces; the fields counted
	// from after its closing parenthesis: state is the first, utime the
	// 12th, stime the 13th.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// twin is a second dashboard on an Env's database and sandbox.
type twin struct {
	built *app.App
	srv   *http.Server
	url   string
	done  chan struct{}
}

// startTwin builds and serves a dashboard as Start builds e's, on e's
// database (the same copy and sessions) and sandbox, with mx fed by its
// hooks.
func startTwin(e *Env, mx *metrics.Metrics) (*twin, error) {
	m := e.Market
	built, err := app.New(context.Background(), app.Config{
		Marketplace: app.Marketplace{B2B: m.B2BURL, B2BTest: m.B2BTestURL, Seller: m.SellerURL},
		APIOptions:  func(ao *apiclient.Options) { ao.Now, ao.UserAgent = m.Sandbox.Now, "" },
		DatabaseURL: filepath.Join(e.dir, "sessions.db"),
		Sessions:    sessions.Options{Keys: [][]byte{benchSessionKey()}, Now: m.Sandbox.Now},
		Catalog:     &app.CatalogOptions{},
		History:     &app.HistoryOptions{},
		Dashboard:   handlers.Deps{Demo: true, DemoCredentials: app.DemoCredentials(), Now: m.Sandbox.Now, GuardPercent: -1},
		Metrics:     mx,
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = built.Close()
		return nil, err
	}
	t := &twin{built: built, url: "http://" + ln.Addr().String(), done: make(chan struct{}),
		srv: &http.Server{Handler: built.Handler, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		defer close(t.done)
		_ = t.srv.Serve(ln)
	}()
	return t, nil
}

func (t *twin) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = t.srv.Shutdown(ctx)
	cancel()
	<-t.done
	_ = t.built.Close()
}

// benchSessionKey is the session key Start gives its dashboard, so a
// twin opens the same sessions.
func benchSessionKey() []byte { return bytes.Repeat([]byte{7}, sessions.KeySize) }
