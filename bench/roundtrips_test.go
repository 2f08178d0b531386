package bench

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/httpx/reqlog"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// requestStatements keeps the statements each request sent to PostgreSQL,
// by the request's id (reqlog.ID of the statement's context); the
// background work (the job runner, the copy's manager) has no request id
// and is left out.
type requestStatements struct {
	mu  sync.Mutex
	sql map[string][]string
}

func (r *requestStatements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.add(ctx, d.SQL)
	return ctx
}

func (r *requestStatements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A batch is one round trip whatever it holds.
func (r *requestStatements) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.add(ctx, "(batch)")
	return ctx
}

// A batch's statements are logged, not counted.
func (r *requestStatements) TraceBatchQuery(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	r.add(ctx, inBatch+d.SQL)
}

// inBatch marks a statement sent in a batch.
const inBatch = "  in the batch: "

func (r *requestStatements) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (r *requestStatements) add(ctx context.Context, sql string) {
	id := reqlog.ID(ctx)
	if id == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	flat := strings.Join(strings.Fields(sql), " ")
	if rest, ok := strings.CutPrefix(sql, inBatch); ok {
		flat = inBatch + strings.Join(strings.Fields(rest), " ")
	}
	r.sql[id] = append(r.sql[id], flat)
}

// take returns the statements of every request since the last take, and
// forgets them.
func (r *requestStatements) take() map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.sql
	r.sql = map[string][]string{}
	return out
}

// pageRoundTrips are the most round trips one page of P11's load may make
// to PostgreSQL, from the session's load to the rendered page, once its
// statements are prepared and its counts cached: the session with its
// tokens and, in the same batch, the request's checks (the copy's sync
// states, access, version and kept counts, and whether the current
// account's credential was rejected), then the page's rows; the start
// page is the batch alone; the history's entries come with their count
// (and, when they have items, the items of all of them in one more:
// TestHistoryRoundTripsPostgres).
var pageRoundTrips = map[string]int{
	"/": 1, "/orders": 2, "/prices?limit=50": 2, "/nomenclature?status=online": 2,
	"/prices?q=" + "%D0%BA%D1%80%D0%BE%D1%81": 2, "/return-boxes": 2, "/history": 2,
}

// countTrips views path twice as u (the first prepares its statements)
// and returns the round trips the second made, logging its statements.
func countTrips(t *testing.T, tr *requestStatements, u *User, path string) (int, string) {
	t.Helper()
	var body string
	for range 2 {
		tr.take()
		st, b, err := u.Get(path)
		if err != nil || st != 200 {
			t.Fatalf("GET %s: %d %v", path, st, err)
		}
		body = string(b)
	}
	reqs := tr.take()
	if len(reqs) != 1 {
		t.Fatalf("GET %s: statements of %d requests, want 1", path, len(reqs))
	}
	trips := 0
	for _, sql := range reqs {
		for _, s := range sql {
			if !strings.HasPrefix(s, inBatch) {
				trips++
			}
			t.Logf("%s #%d: %.160s", path, trips, s)
		}
	}
	return trips, body
}

// TestHistoryRoundTripsPostgres: a history page whose entries hold items
// (one of them thousands) reads its entries with their count, then the
// items of all of them at once: three round trips with the session's,
// whatever the page shows, and every entry's first items on the page.
func TestHistoryRoundTripsPostgres(t *testing.T) {
	e, tr, u := loggedInCopy(t, 50)
	ctx := context.Background()
	for i, n := range []int{3, 0, 2000, 1, 12} {
		items := make([]audit.Item, n)
		for k := range items {
			items[k] = audit.Item{Key: "HIST-" + strconv.Itoa(i) + "-" + strconv.Itoa(k+1), Outcome: audit.Accepted}
		}
		if err := e.built.Audit.Record(ctx, audit.Entry{SellerID: sellerID, Environment: env, Kind: audit.KindPrice, UserName: "bench", Items: items}); err != nil {
			t.Fatal(err)
		}
	}
	trips, body := countTrips(t, tr, u, "/history")
	if trips > 3 {
		t.Errorf("GET /history with 5 entries made %d round trips, want at most 3", trips)
	}
	for _, key := range []string{"HIST-0-3", "HIST-2-1", "HIST-2-10", "HIST-3-1", "HIST-4-10"} {
		if !strings.Contains(body, key) {
			t.Errorf("the history page does not show %s", key)
		}
	}
	if strings.Contains(body, "HIST-2-11") || strings.Contains(body, "HIST-4-11") {
		t.Errorf("the history page shows more than the first items of an entry")
	}
}

// tracedPostgres starts a dashboard with a copy of products products a
// seller on a fresh PostgreSQL schema, its statements told to the tracer
// returned; both go when tb ends. It skips tb without the test server.
func tracedPostgres(tb testing.TB, products int) (*Env, *requestStatements) {
	tb.Helper()
	dbURL, drop, err := postgresSchema()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(drop)
	if dbURL == "" {
		tb.Skip("SELLERDESK_TEST_POSTGRES_URL is not set (sessions/testdata/start-postgres.sh starts a server)")
	}
	tr := &requestStatements{sql: map[string][]string{}}
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: products}, Catalog: true, DatabaseURL: dbURL, DatabaseTracer: tr})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(e.Close)
	return e, tr
}

// loggedInCopy is tracedPostgres with one user logged in and the copy's
// first full pass finished.
func loggedInCopy(t *testing.T, products int) (*Env, *requestStatements, *User) {
	t.Helper()
	e, tr := tracedPostgres(t, products)
	u, err := e.Login()
	if err != nil {
		t.Fatal(err)
	}
	if err := waitCopy(e.Catalog.Store(), 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	return e, tr, u
}

// TestPageRoundTripsPostgres serves each page of P11's load from a copy on
// PostgreSQL and counts the round trips one view of it makes (a statement,
// or a batch of them), logging each statement; it fails when a page makes
// more than pageRoundTrips says.
func TestPageRoundTripsPostgres(t *testing.T) {
	_, tr, u := loggedInCopy(t, 200)
	for _, p := range loadPages {
		want, ok := pageRoundTrips[p]
		if !ok {
			t.Fatalf("%s has no bound in pageRoundTrips", p)
		}
		if trips, _ := countTrips(t, tr, u, p); trips > want {
			t.Errorf("GET %s made %d round trips, want at most %d", p, trips, want)
		}
	}
}

// TestRejectedCredentialRefusedAtOnceBatched: with the request's checks
// read in the session's own round trip, a credential rejected in the
// database (as another instance does) ends the session at its very next
// page, as when the checks were read apart.
func TestRejectedCredentialRefusedAtOnceBatched(t *testing.T) {
	e, tr, u := loggedInCopy(t, 50)
	for range 2 {
		if st, _, err := u.Get("/orders"); err != nil || st != 200 {
			t.Fatalf("GET /orders: %d %v", st, err)
		}
	}
	tr.take()
	if st, _, err := u.Get("/orders"); err != nil || st != 200 {
		t.Fatalf("GET /orders: %d %v", st, err)
	}
	for _, sql := range tr.take() {
		if len(sql) == 0 || sql[0] != "(batch)" {
			t.Fatalf("the page's checks were not read in the session's batch: %q", sql)
		}
	}
	if err := e.Catalog.Store().RejectCredential(context.Background(), copystore.CredentialOf(clientID, env, secret)); err != nil {
		t.Fatal(err)
	}
	st, _, err := u.Get("/orders")
	if err != nil {
		t.Fatal(err)
	}
	if st != 303 {
		t.Fatalf("GET /orders after the credential was rejected: %d, want 303 (the session ended)", st)
	}
}

// BenchmarkPagesPostgres serves P11's pages from a copy on PostgreSQL to 64
// sessions at once (closed loop, each request's body read whole) and
// reports the CPU one page costs this process (the dashboard and its
// clients, getrusage) and PostgreSQL's server processes (their utime and
// stime from /proc, every postgres process of the machine: run it where no
// one else uses that server), with the round trips a page made.
func BenchmarkPagesPostgres(b *testing.B) {
	e, tr := tracedPostgres(b, 2000)
	const clients = 64
	users := make([]*User, clients)
	for i := range users {
		var err error
		if users[i], err = e.Login(); err != nil {
			b.Fatal(err)
		}
	}
	if err := waitCopy(e.Catalog.Store(), 5*time.Minute); err != nil {
		b.Fatal(err)
	}
	for _, u := range users { // prepares the statements, fills the count cache
		for _, p := range loadPages {
			if st, _, err := u.Get(p); err != nil || st != 200 {
				b.Fatalf("GET %s: %d %v", p, st, err)
			}
		}
	}
	tr.take()
	var next atomic.Int64
	cpu0, pg0 := cpuTime(), postgresCPU()
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			u := users[c]
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if st, _, err := u.Get(loadPages[(int(i)+c)%len(loadPages)]); err != nil || st != 200 {
					b.Errorf("GET: %d %v", st, err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	cpu, pg := cpuTime()-cpu0, postgresCPU()-pg0
	trips := 0
	for _, sql := range tr.take() {
		for _, s := range sql {
			if !strings.HasPrefix(s, inBatch) {
				trips++
			}
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "proc-cpu-µs/page")
	b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-cpu-µs/page")
	b.ReportMetric(float64(trips)/float64(b.N), "roundtrips/page")
}
