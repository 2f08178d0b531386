package bench

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// PageCost (P10c, for information) is what one of P10's pages costs this
// process in CPU and allocations, counted over a fixed number of requests
// rather than timed: the figure holds on a machine others load, where
// P10's throughput does not. The same closed loop (CopyUsers clients,
// loadPages, P10's copy and sessions) runs three ways in interleaved
// rounds: asking for gzip and reading the compressed bytes (as P10's
// load), asking for gzip and decompressing them in the load's own
// transport (as P10's load did), and not asking (no compression); and
// the static floor, P10's files of the gzipped pages. The process's CPU
// includes the load generator's: in P10 it shares the cores.
func PageCost(s Sizes) (Result, error) {
	r := Result{ID: "P10c", Info: true, Target: "information: CPU and allocations per page of P10's load"}
	ce, err := startCopy(s.CopyLarge, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	users := make([]*User, s.CopyUsers)
	for i := range users {
		if users[i], err = ce.Login(); err != nil {
			return r, err
		}
	}
	dir, err := os.MkdirTemp("", "sdbench-cost-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	var dashURLs, cookies, staticURLs []string
	for k := range loadPages {
		for u := range users {
			dashURLs = append(dashURLs, ce.URL+dash(loadPages[(k+u)%len(loadPages)]))
			cookies = append(cookies, users[u].Cookie)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return r, err
	}
	static := &http.Server{Handler: gzippedFiles(http.FileServer(http.Dir(dir))), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = static.Serve(ln) }()
	defer static.Close()
	for i, p := range loadPages {
		st, body, err := rawGet(users[0], p)
		if err != nil || st != http.StatusOK {
			return r, fmt.Errorf("GET %s: %d %v", p, st, err)
		}
		name := "page" + strconv.Itoa(i) + ".html"
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o600); err != nil {
			return r, err
		}
		staticURLs = append(staticURLs, "http://"+ln.Addr().String()+"/"+name)
	}
	type way struct {
		name          string
		urls, cookies []string
		header        string // Accept-Encoding sent as the request's own
		transportAsks bool   // the transport asks for gzip and decompresses
		n             int
		cpu           []time.Duration
		allocs, bytes []float64
	}
	n := s.CostRequests
	ways := []*way{
		{name: "gzip asked, read compressed (P10's load)", urls: dashURLs, cookies: cookies, header: "gzip", n: n},
		{name: "gzip asked, decompressed by the load's transport", urls: dashURLs, cookies: cookies, transportAsks: true, n: n},
		{name: "no gzip asked", urls: dashURLs, cookies: cookies, header: "identity", n: n},
		{name: "static floor: the gzipped pages as files", urls: staticURLs, header: "gzip", n: 4 * n},
	}
	for round := range s.CostRounds {
		for i := range ways {
			w := ways[(i+round)%len(ways)]
			cpu, allocs, bytes, err := costLoop(w.urls, w.cookies, w.header, w.transportAsks, s.CopyUsers, w.n)
			if err != nil {
				return r, fmt.Errorf("%s: %w", w.name, err)
			}
			w.cpu, w.allocs, w.bytes = append(w.cpu, cpu), append(w.allocs, allocs), append(w.bytes, bytes)
		}
	}
	med := func(w *way) (time.Duration, float64, float64) {
		return median(w.cpu), medianF(w.allocs), medianF(w.bytes)
	}
	c0, a0, _ := med(ways[0])
	c1, _, _ := med(ways[1])
	c2, a2, _ := med(ways[2])
	c3, _, _ := med(ways[3])
	r.Figure = fmt.Sprintf("CPU per page (medians of %d rounds of %d requests): %s as P10's load (%.0f allocs), %s decompressed by the load, %s without gzip (%.0f allocs); static floor %s",
		s.CostRounds, n, c0.Round(time.Microsecond), a0, c1.Round(time.Microsecond), c2.Round(time.Microsecond), a2, c3.Round(time.Microsecond))
	for _, w := range ways {
		c, a, b := med(w)
		r.Detail = append(r.Detail, fmt.Sprintf("%s: %s CPU, %.0f allocations, %.0f B allocated per request (median of %d rounds of %d requests; each round's CPU %v)",
			w.name, c.Round(time.Microsecond), a, b, len(w.cpu), w.n, roundAll(w.cpu)))
	}
	r.Detail = append(r.Detail, fmt.Sprintf("closed loop of %d clients (goroutines, one keep-alive transport), each request's body read whole; rounds interleaved, the way going first rotating; CPU is the process's (getrusage user+sys: the dashboard, the load and the static server), allocations from runtime.MemStats", s.CopyUsers))
	return r, nil
}

// errStatus marks a page answered other than 200.
var errStatus = errors.New("status")

// costLoop runs requests through clients goroutines cycling through urls
// (with cookies, where given) and returns the process's CPU, allocations
// and bytes allocated per request. header, when set, is the request's own
// Accept-Encoding (its answer read as it came); transportAsks lets the
// transport ask for gzip and decompress instead.
func costLoop(urls, cookies []string, header string, transportAsks bool, clients, requests int) (time.Duration, float64, float64, error) {
	return costLoopOf(cpuTime, urls, cookies, header, transportAsks, clients, requests)
}

// costLoopOf is costLoop counting the CPU that cpuOf reports (this
// process's, or a child dashboard's).
func costLoopOf(cpuOf func() time.Duration, urls, cookies []string, header string, transportAsks bool, clients, requests int) (time.Duration, float64, float64, error) {
	tr := &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients, DisableCompression: !transportAsks}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(i int) error {
		req, err := http.NewRequest(http.MethodGet, urls[i%len(urls)], nil)
		if err != nil {
			return err
		}
		if header != "" {
			req.Header.Set("Accept-Encoding", header)
		}
		if cookies != nil {
			req.Header.Set("Cookie", cookies[i%len(cookies)])
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %w %d", urls[i%len(urls)], errStatus, resp.StatusCode)
		}
		return err
	}
	for i := range min(len(urls), 2*clients) { // connections open, caches warm
		if err := do(i); err != nil && !errors.Is(err, errStatus) {
			return 0, 0, 0, err
		}
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var refused atomic.Int64
	c0 := cpuOf()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= requests {
					return
				}
				switch err := do(i); {
				case errors.Is(err, errStatus):
					// A page answered otherwise (the page gate's "took
					// too long" on a machine loaded enough) is counted,
					// not fatal: at most one in a hundred.
					refused.Add(1)
				case err != nil:
					failed.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	wg.Wait()
	cpu := cpuOf() - c0
	runtime.ReadMemStats(&m1)
	if e := failed.Load(); e != nil {
		return 0, 0, 0, *e
	}
	if n := refused.Load(); n*100 > int64(requests) {
		return 0, 0, 0, fmt.Errorf("%d of %d pages answered other than 200", n, requests)
	}
	n := float64(requests)
	return cpu / time.Duration(requests), float64(m1.Mallocs-m0.Mallocs) / n, float64(m1.TotalAlloc-m0.TotalAlloc) / n, nil
}

func medianF(xs []float64) float64 {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x)
	}
	return float64(median(ds))
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Microsecond)
	}
	return out
}
