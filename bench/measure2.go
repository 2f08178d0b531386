package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/sellerdesk/sellerdesk/sessions"
)

// ---- P5: session size and heap per idle session ----

// P5 reads the stored size of a real logged-in session (both tokens), then
// creates many more sessions exactly as the login handler does (new
// session, renewed id, credentials, both tokens, saved) and measures the
// dashboard process's live heap before and after, with the garbage
// collected. The sandbox is not involved after the first login, so its
// memory does not blur the figure.
func P5(s Sizes) (Result, error) {
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

// P6 runs closed-loop load with vegeta: P6Users workers on mixed dashboard
// pages (each worker pool cycling through the users' sessions), and the same
// number of workers on the upstream calls those pages make, directly. The
// sides alternate in slices so both see the same machine.
func P6(s Sizes) (Result, error) {
	r := Result{ID: "P6", Target: "0 err; p99<=5xp50; thr>=0.5x"}
	e, err := Start(EnvOptions{})
	if err != nil {
		return r, err
	}
	defer e.Close()
	d, err := e.Direct()
	if err != nil {
		return r, err
	}
	pages := []string{"/orders?limit=50", "/prices?limit=50", "/nomenclature?limit=50", "/return-boxes?limit=50"}
	var dashTargets []vegeta.Target
	for range s.P6Users {
		u, err := e.Login()
		if err != nil {
			return r, err
		}
		for _, p := range pages {
			dashTargets = append(dashTargets, vegeta.Target{Method: http.MethodGet, URL: e.URL + p,
				Header: http.Header{"Cookie": {u.Cookie}}})
		}
	}
	// Interleave users so that consecutive requests belong to different
	// users and pages.
	dashTargets = interleave(dashTargets, len(pages))
	b2b := http.Header{"Authorization": {"Bearer " + d.B2B}, "Accept": {"application/json"}}
	sel := http.Header{"Authorization": {"Bearer " + d.Seller}, "Content-Type": {"application/json"}, "Accept": {"application/json"}}
	directTargets := []vegeta.Target{
		{Method: http.MethodGet, URL: d.OrdersURL + "?limit=50", Header: b2b},
		{Method: http.MethodPost, URL: d.RPCURL, Header: sel, Body: []byte(rpcListBody(50))},
		{Method: http.MethodPost, URL: d.RPCURL, Header: sel, Body: []byte(rpcListBody(50))},
		{Method: http.MethodGet, URL: fmt.Sprintf("%s?seller_id=%d&page=1&limit=50", d.BoxesURL, sellerID), Header: sel},
	}
	// Check every target once (and warm both sides).
	for _, t := range append(slices2(dashTargets[:len(pages)]), directTargets...) {
		req, _ := t.Request()
		resp, err := d.Client.Do(req)
		if err != nil {
			return r, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return r, fmt.Errorf("%s %s: status %d", t.Method, t.URL, resp.StatusCode)
		}
	}
	px, err := e.StartProxy()
	if err != nil {
		return r, err
	}
	defer px.Close()
	proxyTargets := make([]vegeta.Target, len(directTargets))
	base := strings.TrimSuffix(e.Market.SellerURL, "/")
	for i, t := range directTargets {
		t.URL = px.URL + strings.TrimPrefix(t.URL, base)
		proxyTargets[i] = t
	}
	attacker := func() *vegeta.Attacker {
		return vegeta.NewAttacker(vegeta.Workers(uint64(s.P6Users)), vegeta.MaxWorkers(uint64(s.P6Users)),
			vegeta.KeepAlive(true), vegeta.Connections(s.P6Users*2), vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
	}
	type side struct {
		name    string
		targets []vegeta.Target
		m       vegeta.Metrics
		total   time.Duration
	}
	run := func(sd *side, slice time.Duration) {
		a := attacker()
		t0 := time.Now()
		for res := range a.Attack(vegeta.NewStaticTargeter(sd.targets...), vegeta.Rate{Freq: 0}, slice, sd.name) {
			sd.m.Add(res)
		}
		sd.total += time.Since(t0)
		a.Stop()
	}
	// Slices rotate which side goes first, so all see the same machine.
	attack := func(sides []*side, slices int, slice time.Duration) {
		for i := range slices {
			for j := range sides {
				run(sides[(i+j)%len(sides)], slice)
			}
		}
		for _, sd := range sides {
			sd.m.Close()
		}
	}
	thr := func(sd *side) float64 { return float64(sd.m.StatusCodes["200"]) / sd.total.Seconds() }
	errs := func(sd *side) int { return int(sd.m.Requests) - sd.m.StatusCodes["200"] }
	dash, direct, proxy := &side{name: "dashboard", targets: dashTargets}, &side{name: "direct", targets: directTargets}, &side{name: "proxy", targets: proxyTargets}
	attack([]*side{dash, direct, proxy}, s.P6Slices, s.P6Slice)
	// The same with the latency of a real marketplace on every sandbox
	// route (5 ms, as P4).
	e.Sandbox.SetLatency("", s.P4Latency)
	ldash, ldirect := &side{name: "dashboard+latency", targets: dashTargets}, &side{name: "direct+latency", targets: directTargets}
	attack([]*side{ldash, ldirect}, s.P6LatencySlices, s.P6Slice)
	e.Sandbox.SetLatency("", 0)

	dm, xm := &dash.m, &direct.m
	dErr, xErr := errs(dash), errs(direct)
	dThr, xThr, pThr := thr(dash), thr(direct), thr(proxy)
	p50, p99 := dm.Latencies.P50, dm.Latencies.P99
	tail := float64(p99) / float64(p50)
	ratio := dThr / xThr
	r.Holds = dErr == 0 && xErr == 0 && tail <= 5 && ratio >= 0.5
	lratio := thr(ldash) / thr(ldirect)

	// The CPU budget the target leaves a dashboard beyond forwarding bytes,
	// against what the API client alone costs per page. In a closed loop
	// that keeps every core busy, a pipeline reaching thr pages a second
	// spends cores/thr of CPU on each.
	cores := float64(runtime.GOMAXPROCS(0))
	cpuPer := func(thr float64) time.Duration { return time.Duration(cores / thr * float64(time.Second)) }
	atTarget, atProxy := cpuPer(0.5*xThr), cpuPer(pThr)
	budget := atTarget - atProxy
	client, scan, err := clientPageCost(e, s.P6ClientRounds)
	if err != nil {
		return r, err
	}
	r.Figure = fmt.Sprintf("%d users %s: %d err; p99 %s = %.1f x p50 %s; %.0f/s = %.2f x direct %.0f/s (floor: pass-through proxy %.2f x, leaving %s of CPU per page beyond it; the API client alone takes %s per page; at %s upstream latency %.2f x, %d err, p99 %.1f x p50)",
		s.P6Users, dash.total.Round(time.Second), dErr, p99.Round(time.Millisecond), tail, p50.Round(time.Millisecond), dThr, ratio, xThr,
		pThr/xThr, budget.Round(time.Microsecond), client.Round(time.Microsecond), s.P4Latency, lratio, errs(ldash)+errs(ldirect), float64(ldash.m.Latencies.P99)/float64(ldash.m.Latencies.P50))
	verdict := fmt.Sprintf("the API client's %s fits in the %s the target leaves, so the target is not shown out of reach by this; it is missed on the dashboard's other work (session, render, its own HTTP server)", client.Round(time.Microsecond), budget.Round(time.Microsecond))
	switch {
	case budget <= 0:
		verdict = "the proxy alone is below the target, so no dashboard can meet it on this sandbox and these cores"
	case scan > budget:
		verdict = fmt.Sprintf("that is %.1f x the CPU the target leaves, and merely scanning the same answers once as JSON (jsontext, nothing built) takes %s per page, %.1f x it: no dashboard that reads the marketplace's answers at all can meet the target on this sandbox and these cores",
			float64(client)/float64(budget), scan.Round(time.Microsecond), float64(scan)/float64(budget))
	case client > budget:
		verdict = fmt.Sprintf("that is %.1f x the CPU the target leaves, before any session, rendering or HTTP server work, so no dashboard that reads the marketplace's answers through a typed client can meet the target on this sandbox and these cores (a bare JSON scan of the answers, %s per page, would fit)", float64(client)/float64(budget), scan.Round(time.Microsecond))
	}
	r.Detail = append(r.Detail,
		fmt.Sprintf("vegeta (library), closed loop: %d workers, rate unlimited, %d slices of %s per side, rotating which side goes first", s.P6Users, s.P6Slices, s.P6Slice),
		fmt.Sprintf("dashboard: %d sessions, pages %v; %d requests, status codes %v, errors %v; p50 %s p90 %s p99 %s max %s",
			s.P6Users, pages, dm.Requests, dm.StatusCodes, firstErrs(dm.Errors), dm.Latencies.P50, dm.Latencies.P90, dm.Latencies.P99, dm.Latencies.Max),
		fmt.Sprintf("direct: the upstream calls those pages make (orders, nomenclatures.list twice, return boxes; 50 records each); %d requests, status codes %v; p50 %s p99 %s",
			xm.Requests, xm.StatusCodes, xm.Latencies.P50, xm.Latencies.P99),
		fmt.Sprintf("floor: the same direct calls through a pass-through reverse proxy (net/http/httputil, own loopback server, same 2 cores): %.0f/s = %.2f x direct, %d errors, p50 %s; a proxy does one HTTP exchange more per call and nothing else, so no dashboard in front of this sandbox on these cores can exceed it",
			pThr, pThr/xThr, errs(proxy), proxy.m.Latencies.P50),
		fmt.Sprintf("budget: with %.0f cores kept busy by the closed loop, 0.5 x direct (%.0f/s) allows %s of CPU per page for vegeta, the sandbox and whatever stands between them; the pass-through proxy's pipeline (%.0f/s) already spends %s, leaving %s per page for everything a dashboard does beyond forwarding bytes",
			cores, 0.5*xThr, atTarget.Round(time.Microsecond), pThr, atProxy.Round(time.Microsecond), budget.Round(time.Microsecond)),
		fmt.Sprintf("API client alone: the four pages' upstream calls (50 records each, the handlers' options) made %d times each through apiclient against answers held in memory (no socket, sandbox, session or rendering: request, token from memory, reading and decoding the answer), one goroutine: %s per page; %s",
			s.P6ClientRounds, client.Round(time.Microsecond), verdict),
		fmt.Sprintf("with %s latency on every sandbox route, %d slices of %s per side: dashboard %.0f/s (%d err, p50 %s, p99 %s), direct %.0f/s (%d err, p50 %s); dashboard / direct = %.2f",
			s.P4Latency, s.P6LatencySlices, s.P6Slice, thr(ldash), errs(ldash), ldash.m.Latencies.P50, ldash.m.Latencies.P99, thr(ldirect), errs(ldirect), ldirect.m.Latencies.P50, lratio),
		"the sandbox, the load generator and the dashboard share the same 2 cores: the direct figure is what the sandbox and vegeta reach alone, so the ratio compares the dashboard's whole CPU cost with the sandbox's answer from pre-encoded JSON; the verdict is the stated target on the figure without latency")
	return r, nil
}

func slices2(t []vegeta.Target) []vegeta.Target { return append([]vegeta.Target(nil), t...) }

func firstErrs(errs []string) []string { return errs[:min(3, len(errs))] }

// interleave reorders [u0p0 u0p1 .. u1p0 ..] so that page k of every user
// comes before page k+1 of any, rotating pages between users.
func interleave(ts []vegeta.Target, per int) []vegeta.Target {
	users := len(ts) / per
	out := make([]vegeta.Target, 0, len(ts))
	for k := range per {
		for u := range users {
			out = append(out, ts[u*per+(k+u)%per])
		}
	}
	return out
}

// ---- P7: allocations per /orders page ----

// OrdersPageRig is a dashboard whose /orders upstream answers are replayed,
// with a logged-in session, for counting allocations of one page.
type OrdersPageRig struct {
	e      *Env
	req    *http.Request
	Cookie string
}

// NewOrdersPageRig starts the rig; Close stops it.
func NewOrdersPageRig() (*OrdersPageRig, error) {
	// Upstream answers come from memory after the first of each (see
	// memAnswers), so the count is the dashboard's own work, not the
	// sandbox's or the network's.
	e, err := Start(EnvOptions{Transport: &memAnswers{next: newTransport(), seen: map[string]memAnswer{}}})
	if err != nil {
		return nil, err
	}
	u, err := e.Login()
	if err != nil {
		e.Close()
		return nil, err
	}
	g := &OrdersPageRig{e: e, Cookie: u.Cookie}
	g.req = httptest.NewRequest(http.MethodGet, "/orders?limit=50", nil)
	g.req.Header.Set("Cookie", u.Cookie)
	if rows, err := g.Serve(); err != nil || rows != 50 { // records the upstream answer
		e.Close()
		return nil, fmt.Errorf("orders page: %d rows, %v", rows, err)
	}
	return g, nil
}

// Serve renders one /orders?limit=50 page through the echo handler and
// returns its row count.
func (g *OrdersPageRig) Serve() (int, error) {
	w := httptest.NewRecorder()
	g.e.App.ServeHTTP(w, g.req)
	if w.Code != http.StatusOK {
		return 0, fmt.Errorf("status %d", w.Code)
	}
	return countRows(w.Body.Bytes()), nil
}

// Close stops the rig.
func (g *OrdersPageRig) Close() { g.e.Close() }

// P7 counts allocations of one /orders page with 50 rows through the echo
// handler, with a warm session and token and the upstream answer replayed.
func P7(s Sizes) (Result, error) {
	r := Result{ID: "P7", Target: "<= 1,000"}
	g, err := NewOrdersPageRig()
	if err != nil {
		return r, err
	}
	defer g.Close()
	var serveErr error
	allocs := testing.AllocsPerRun(s.P7Runs, func() {
		if _, err := g.Serve(); err != nil {
			serveErr = err
		}
	})
	if serveErr != nil {
		return r, serveErr
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for range s.P7Runs {
		_, _ = g.Serve()
	}
	runtime.ReadMemStats(&ms1)
	bytesPer := (ms1.TotalAlloc - ms0.TotalAlloc) / uint64(s.P7Runs)
	r.Holds = allocs <= 1000
	r.Figure = fmt.Sprintf("%.0f allocs (%d B) per /orders page, 50 rows", allocs, bytesPer)
	r.Detail = append(r.Detail, fmt.Sprintf("testing.AllocsPerRun(%d) around App.ServeHTTP with a warm session and token; the upstream answer is replayed from memory by the API client's transport, so the count is the dashboard's own: middleware, the session load from SQLite (one read, tokens included), the API client's JSON decode and the render", s.P7Runs))
	return r, nil
}

// Sessions is exported for tests that size the store.
var _ = sessions.ErrNotFound
