package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/sellerdesk/sellerdesk/copystore"
)

// CopyLoadSQLite (target P10) is copyLoad on SQLite.
func CopyLoadSQLite(s Sizes) (Result, error) { return copyLoad(s, "P10", "SQLite", "") }

// CopyLoadPostgres (target P11) is copyLoad on PostgreSQL
// (SELLERDESK_TEST_POSTGRES_URL, a new schema dropped after); without it
// the figure says so and is kept for information.
func CopyLoadPostgres(s Sizes) (Result, error) {
	dbURL, drop, err := postgresSchema()
	if err != nil {
		return Result{ID: "P11"}, err
	}
	defer drop()
	if dbURL == "" {
		return Result{ID: "P11", Info: true, Figure: "not measured: SELLERDESK_TEST_POSTGRES_URL is not set (sessions/testdata/start-postgres.sh starts a server)"}, nil
	}
	return copyLoad(s, "P11", "PostgreSQL", dbURL)
}

// copyLoad serves a copy of CopyLarge x 3 records (100,000) to CopyUsers
// clients cycling through loadPages (closed loop, vegeta), alternating
// slices with the same bytes served as static files by net/http's file
// server, and reports: the dashboard's p99 and errors, its throughput as a
// ratio to the static side's (the same pages' bytes as they went on the
// wire, gzipped), the process's resident memory under load,
// the marketplace calls the pages made (0: they are served from the copy)
// and the marketplace calls per hour the copy's steady-state refresh makes
// (the first full pass's calls times the refreshes an hour).
func copyLoad(s Sizes, id, dbName, dbURL string) (Result, error) {
	r := Result{ID: id, Target: "p99 <= 100 ms, 0 err, thr >= 0.1x, RSS <= 256 MB, 0 calls"}
	rssBefore := vmRSS()
	t0 := time.Now()
	ce, err := startCopy(s.CopyLarge, dbURL)
	if err != nil {
		return r, err
	}
	defer ce.Close()
	built := time.Since(t0)

	// One session per client, as a team would have.
	users := make([]*User, s.CopyUsers)
	for i := range users {
		if users[i], err = ce.Login(); err != nil {
			return r, err
		}
	}
	dir, err := os.MkdirTemp("", "sdbench-static-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	// The static side serves each page's bytes as they went on the wire
	// once now (gzipped, as the load asks: loadHeader), already
	// compressed: the floor is moving the same bytes, not making them.
	for i, p := range loadPages {
		st, body, err := rawGet(users[0], p)
		if err != nil || st != http.StatusOK {
			return r, fmt.Errorf("GET %s: %d %v", p, st, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "page"+strconv.Itoa(i)+".html"), body, 0o600); err != nil {
			return r, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return r, err
	}
	static := &http.Server{Handler: gzippedFiles(http.FileServer(http.Dir(dir))), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = static.Serve(ln) }()
	defer static.Close()
	staticURL := "http://" + ln.Addr().String()

	var dashTargets, staticTargets []vegeta.Target
	for k := range loadPages {
		for u := range users {
			p := (k + u) % len(loadPages)
			dashTargets = append(dashTargets, vegeta.Target{Method: http.MethodGet, URL: ce.URL + dash(loadPages[p]),
				Header: loadHeader(users[u].Cookie)})
		}
		staticTargets = append(staticTargets, vegeta.Target{Method: http.MethodGet, URL: staticURL + "/page" + strconv.Itoa(k) + ".html",
			Header: loadHeader("")})
	}

	// Resident memory of the process, sampled through the dashboard's
	// slices (the peak is kept).
	var peakRSS atomic.Int64
	sample := func(stop <-chan struct{}, wg *sync.WaitGroup) {
		defer wg.Done()
		for {
			if v := vmRSS(); v > peakRSS.Load() {
				peakRSS.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	type side struct {
		targets []vegeta.Target
		m       vegeta.Metrics
		total   time.Duration
		// cpu is this process's CPU through the side's slices (the
		// dashboard or the static server, and the load generator); pg,
		// PostgreSQL's processes'.
		cpu, pg time.Duration
	}
	run := func(sd *side, name string, watch bool) {
		a := vegeta.NewAttacker(vegeta.Workers(uint64(s.CopyUsers)), vegeta.MaxWorkers(uint64(s.CopyUsers)),
			vegeta.KeepAlive(true), vegeta.Connections(s.CopyUsers*2), vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
		var wg sync.WaitGroup
		stop := make(chan struct{})
		if watch {
			wg.Add(1)
			go sample(stop, &wg)
		}
		t0, cpu0, pg0 := time.Now(), cpuTime(), postgresCPU()
		for res := range a.Attack(vegeta.NewStaticTargeter(sd.targets...), vegeta.Rate{Freq: 0}, s.CopySlice, name) {
			sd.m.Add(res)
		}
		sd.total += time.Since(t0)
		sd.cpu += cpuTime() - cpu0
		sd.pg += postgresCPU() - pg0
		a.Stop()
		close(stop)
		wg.Wait()
	}
	dash, stat := &side{targets: dashTargets}, &side{targets: staticTargets}
	callsBefore := upstreamCalls(ce.Sandbox)
	for i := range s.CopySlices {
		if i%2 == 0 {
			run(dash, "dashboard", true)
			run(stat, "static", false)
		} else {
			run(stat, "static", false)
			run(dash, "dashboard", true)
		}
	}
	dash.m.Close()
	stat.m.Close()
	calls := upstreamCalls(ce.Sandbox) - callsBefore

	// The dashboard alone, as a child process on its own database: the
	// figure the memory target is held to. Without it (smoke sizes) the
	// process's RSS, an upper bound, stands in.
	child := childRSS{PeakRSS: -1}
	if s.ChildRSS {
		childDB := ""
		if dbURL != "" {
			var drop func()
			if childDB, drop, err = postgresSchema(); err != nil {
				return r, err
			}
			defer drop()
		}
		if child, err = measureChildRSS(ce.Env, childDB, s.CopyUsers, s.CopySlice, s.CopySlices); err != nil {
			return r, fmt.Errorf("the dashboard as a child process: %w", err)
		}
	}

	thr := func(sd *side) float64 { return float64(sd.m.StatusCodes["200"]) / sd.total.Seconds() }
	errs := func(sd *side) int { return int(sd.m.Requests) - sd.m.StatusCodes["200"] }
	p99 := dash.m.Latencies.P99
	ratio := thr(dash) / thr(stat)
	perHour := float64(ce.syncCalls) * float64(time.Hour) / float64(copystore.DefaultInterval)
	rss, rssOf := peakRSS.Load(), "process, upper bound"
	if child.PeakRSS >= 0 {
		rss, rssOf = child.PeakRSS, "dashboard alone"
	}
	r.Holds = p99 <= 100*time.Millisecond && errs(dash) == 0 && ratio >= 0.1 && rss <= 256<<20 && calls == 0
	r.Figure = fmt.Sprintf("%s, %d records, %d clients: p99 %s, %d err, %.0f/s = %.3fx static %.0f/s (static p99 %s); RSS %d MB (%s); %d marketplace calls; refresh %.0f calls/h",
		dbName, ce.records, s.CopyUsers, p99.Round(100*time.Microsecond), errs(dash), thr(dash), ratio, thr(stat), stat.m.Latencies.P99.Round(100*time.Microsecond), rss>>20, rssOf, calls, perHour)
	if child.PeakRSS >= 0 {
		r.Detail = append(r.Detail, fmt.Sprintf("dashboard alone: cmd/web built and run as a child process against the same sandbox, on its own %s database, %d sessions, its copy of %d records filled by a first sync, then %s of the same closed-loop load (%d requests, %d answered 200, p99 %s): VmRSS peak %d MB (sampled every 100 ms), VmHWM %d MB (the kernel's peak, the first sync included), from /proc/<pid>/status",
			dbName, s.CopyUsers, child.Records, s.CopySlice*time.Duration(s.CopySlices), child.Requests, child.OK, child.P99.Round(100*time.Microsecond), child.PeakRSS>>20, child.HWM>>20))
	}
	r.Detail = append(r.Detail,
		fmt.Sprintf("%s copy of %d records built (sandbox, first sync, no latency) in %s", dbName, ce.records, built.Round(time.Second)),
		fmt.Sprintf("vegeta (library), closed loop: %d workers, %d sessions, pages %v; %d slices of %s per side, alternating which goes first", s.CopyUsers, len(users), loadPages, s.CopySlices, s.CopySlice),
		fmt.Sprintf("dashboard: %d requests, status codes %v, errors %v; p50 %s p90 %s p99 %s max %s",
			dash.m.Requests, dash.m.StatusCodes, firstErrs(dash.m.Errors), dash.m.Latencies.P50, dash.m.Latencies.P90, dash.m.Latencies.P99, dash.m.Latencies.Max),
		"both sides are asked for gzip and their answers read as they came, not decompressed (a browser decompresses on its own machine, not on the server's cores): the dashboard compresses each page as it serves it (internal/httpzip), the static side serves the pages' gzipped bytes as read once",
		fmt.Sprintf("static: the same pages' bytes (gzipped, Content-Encoding: gzip) as files served by net/http's FileServer on its own loopback server, same cores: %d requests, %d errors, p50 %s p99 %s. %s",
			stat.m.Requests, errs(stat), stat.m.Latencies.P50, stat.m.Latencies.P99,
			cpuBudget(dbURL != "", float64(dash.m.StatusCodes["200"]), dash.cpu, dash.pg, float64(stat.m.StatusCodes["200"]), stat.cpu, thr(stat))),
		fmt.Sprintf("RSS of this process (/proc/self/status), peak sampled every 100 ms during the dashboard's slices: %d MB; %d MB before the sandbox and dashboard were built: an upper bound, the in-process sandbox (holding the %d products) and the load generator are counted in it",
			peakRSS.Load()>>20, rssBefore>>20, s.CopyLarge),
		fmt.Sprintf("marketplace calls during the load (sandbox request counters, token issues excluded): %d", calls),
		fmt.Sprintf("steady-state refresh: a full pass of the copy made %d marketplace calls (nomenclature, orders and return boxes at %d a page); a copy in use is refreshed every %s, so %.0f calls an hour per seller",
			ce.syncCalls, copystore.PageLimit, copystore.DefaultInterval, perHour))
	return r, nil
}

// cpuBudget is the line that says what the load's pages cost in CPU and
// what throughput the machine's cores allow at that cost: pages answered
// on the dashboard's side with this process's CPU (dashboard and load
// generator) and PostgreSQL's through those slices, and the same for the
// static side, whose rate is staticRate pages a second.
func cpuBudget(postgres bool, pages float64, cpu, pg time.Duration, staticPages float64, staticCPU time.Duration, staticRate float64) string {
	if pages <= 0 || staticPages <= 0 {
		return "CPU a page: no page answered"
	}
	per := func(d time.Duration, n float64) float64 { return d.Seconds() * 1000 / n }
	cores := float64(runtime.NumCPU())
	own, db, gen := per(cpu, pages), per(pg, pages), per(staticCPU, staticPages)
	line := "CPU a page (getrusage of this process"
	if postgres {
		line += fmt.Sprintf(", and /proc/<pid>/stat of every postgres process, summed): dashboard's slices %.3f ms in this process (the dashboard with the load generator) + %.3f ms in PostgreSQL's processes = %.3f ms", own, db, own+db)
	} else {
		line += fmt.Sprintf("): dashboard's slices %.3f ms (the dashboard with the load generator; SQLite runs inside it)", own)
	}
	need := 1000 * cores / (0.1 * staticRate)
	return line + fmt.Sprintf("; static slices %.3f ms (the file server with the load generator, an upper bound of the generator's share). %.0f cores give at most %.0f pages/s at the dashboard's cost = %.3fx the static rate; 0.1x (%.0f pages/s) needs %.3f ms a page or less, the load generator's included",
		gen, cores, 1000*cores/(own+db), 1000*cores/(own+db)/staticRate, 0.1*staticRate, need)
}

// postgresCPU is the CPU time so far of every process named postgres
// the machine shows (the test server and its backends), 0 where there are
// none or /proc is unavailable.
func postgresCPU() time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
			sum += procCPU(pid)
		}
	}
	return sum
}

// vmRSS is the resident set size of this process in bytes (0 where
// /proc/self/status is unavailable).
func vmRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n << 10
			}
		}
	}
	return 0
}

// loadHeader is the header of a load's request: the session's cookie
// (none where empty) and Accept-Encoding: gzip, as a browser sends. Named
// by the request, the encoding is not undone by the client's transport
// (net/http decompresses only what it asked for itself): the load reads
// the compressed bytes as they came, so the dashboard pays for
// compressing as it would for a browser, and the load generator, on the
// same cores, does not pay for decompressing, which a browser does on its
// own machine.
func loadHeader(cookie string) http.Header {
	h := http.Header{"Accept-Encoding": {"gzip"}}
	if cookie != "" {
		h.Set("Cookie", cookie)
	}
	return h
}

// rawGet fetches a page of the bench seller's account as the load does
// (loadHeader) and returns its body as it came on the wire.
func rawGet(u *User, path string) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodGet, u.e.URL+dash(path), nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header = loadHeader(u.Cookie)
	resp, err := u.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return 0, nil, fmt.Errorf("GET %s: not gzipped (Content-Encoding %q)", path, resp.Header.Get("Content-Encoding"))
	}
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// gzippedFiles serves files that hold gzipped HTML, as a static server
// serves pages compressed ahead of time.
func gzippedFiles(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
		h.ServeHTTP(w, r)
	})
}
