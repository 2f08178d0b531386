package bench

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// LoadThroughput (target P6) runs closed-loop load with vegeta: P6Users workers on mixed dashboard
// pages (each worker pool cycling through the users' sessions), and the same
// number of workers on the upstream calls those pages make, directly. The
// sides alternate in slices so both see the same machine.
func LoadThroughput(s Sizes) (Result, error) {
	// Information only, as P1: the load on pages served from the copy is
	// P10 and P11.
	r := Result{ID: "P6", Target: "information (was 0 err; p99<=5xp50; thr>=0.5x)", Info: true}
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
			dashTargets = append(dashTargets, vegeta.Target{Method: http.MethodGet, URL: e.URL + dash(p),
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
