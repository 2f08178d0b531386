package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// millionPages are the pages P15 holds to at most 2x from the small copy
// to the large one: a page of the price editor, a search and a deep
// sorted page; their indexes in copyPages, which pairedPageMedians
// measures (the other pages are recorded beside them).
var millionPages = []int{1, 3, 4}

// Million (target P15) measures a copy of MillionLarge x 3 records (a
// million with the full sizes) beside one of MillionSmall x 3 (a
// thousand), on SQLite and, when SELLERDESK_TEST_POSTGRES_URL is set, on
// PostgreSQL, in one run:
//   - a page, a search and a deep sorted page, one client, medians, side by
//     side: each at most 2x at the large size what it is at the small one;
//   - the whole-catalogue CSV export of the large copy by the dashboard
//     alone (cmd/web as a child process on the same database): at least
//     50,000 records/s, with the child's peak RSS at most 256 MB;
//   - a forget of the large copy: at most 10 s until nothing of it is
//     readable (the user's wait); the deletes after it, in the
//     background, recorded beside it;
//   - the bytes on disk per record (information);
//   - the first full copy of MillionSyncProducts x 3 records against the
//     marketplace's floor of the same run (its pages x the sandbox's
//     latency, one request in flight): at most 1.2x.
//
// The copies are filled through the copy's own write path, one full pass
// of copystore.Syncer over the sandbox's records read in process in pages
// of seedPage (seededCopy); that pass is not what is measured. The first
// copy against the floor is the real one, over HTTP, 100 a page.
func Million(s Sizes) (Result, error) {
	r := Result{ID: "P15", Target: "pages <= 2x; CSV >= 50k rec/s, RSS <= 256 MB; forget <= 10 s; sync <= 1.2x floor"}
	r.Holds = true
	var figures []string
	dbs := []struct {
		name string
		db   func() (string, func(), error)
	}{{"SQLite", func() (string, func(), error) { return "", func() {}, nil }}}
	if os.Getenv("SELLERDESK_TEST_POSTGRES_URL") != "" {
		dbs = append(dbs, struct {
			name string
			db   func() (string, func(), error)
		}{"PostgreSQL", postgresSchema})
	}
	for _, d := range dbs {
		m, err := millionOn(s, d.name, d.db)
		if err != nil {
			return r, fmt.Errorf("%s: %w", d.name, err)
		}
		r.Holds = r.Holds && m.holds
		figures = append(figures, d.name+": "+m.figure)
		r.Detail = append(r.Detail, m.detail...)
	}
	if len(dbs) == 1 {
		figures = append(figures, "PostgreSQL: not measured (SELLERDESK_TEST_POSTGRES_URL is not set)")
	}
	fs, err := millionFirstSync(s)
	if err != nil {
		return r, err
	}
	r.Holds = r.Holds && fs.holds
	figures = append(figures, fs.figure)
	r.Detail = append(r.Detail, fs.detail...)
	r.Figure = strings.Join(figures, "; ")
	return r, nil
}

type millionPart struct {
	holds  bool
	figure string
	detail []string
}

// millionOn is P15's pages, export, disk and forget on one database.
func millionOn(s Sizes, dbName string, db func() (string, func(), error)) (out millionPart, _ error) {
	var envs [2]*copyEnv
	var dbURLs [2]string
	for i, products := range []int{s.MillionSmall, s.MillionLarge} {
		dbURL, drop, err := db()
		if err != nil {
			return out, err
		}
		defer drop()
		t0 := time.Now()
		ce, err := seededCopy(products, dbURL)
		if err != nil {
			return out, err
		}
		defer ce.Close()
		envs[i], dbURLs[i] = ce, dbURL
		if dbURL == "" {
			dbURLs[i] = filepath.Join(ce.dir, "sessions.db")
		}
		out.detail = append(out.detail, fmt.Sprintf("%s copy of %d records built in %s (copystore.Syncer over the sandbox's products read in process, %d records a page)", dbName, ce.records, time.Since(t0).Round(time.Second), seedPage))
	}
	small, large := envs[0], envs[1]

	// Pages, side by side.
	med, err := pairedPageMedians(envs, s.MillionViews)
	if err != nil {
		return out, err
	}
	out.holds = true
	worst, worstPage := 0.0, ""
	table := []string{fmt.Sprintf("| page on %s (one client, median of %d) | %d records | %d records | growth |", dbName, s.MillionViews, small.records, large.records), "|---|---|---|---|"}
	names := append(append([]string{}, copyPages...), copyLastOf+" → the pager's last link")
	for i, p := range names {
		g := float64(med[1][i]) / float64(med[0][i])
		held := ""
		for _, j := range millionPages {
			if j == i {
				held = " (held to <= 2x)"
				out.holds = out.holds && g <= 2
				if g > worst {
					worst, worstPage = g, p
				}
			}
		}
		table = append(table, fmt.Sprintf("| `%s`%s | %s | %s | %.1fx |", p, held, ms(med[0][i]), ms(med[1][i]), g))
	}
	out.detail = append(out.detail, strings.Join(table, "\n"))

	// Bytes on disk per record, before the export and the forget.
	bytes, err := copyBytes(dbURLs[1])
	if err != nil {
		return out, err
	}
	perRecord := float64(bytes) / float64(large.records)
	out.detail = append(out.detail, fmt.Sprintf("%s: %d bytes on disk for the large copy (%s), %.0f bytes per record", dbName, bytes, bytesWhat(dbURLs[1]), perRecord))

	// The CSV export by the dashboard alone, on the same database.
	ex, err := childExport(large.Env, dbURLs[1], s.ChildRSS)
	if err != nil {
		return out, err
	}
	rate := float64(large.records) / ex.took.Seconds()
	exportHolds := rate >= 50_000 && (!ex.measured || ex.peak <= 256<<20)
	out.holds = out.holds && exportHolds
	rss := "RSS not measured (smoke sizes)"
	if ex.measured {
		rss = fmt.Sprintf("peak RSS %d MB", ex.peak>>20)
	}
	out.detail = append(out.detail, fmt.Sprintf("%s: `/nomenclature/export-all.csv` of %d records by cmd/web as a child process on the same database, read as fast as it comes: %d bytes in %s, %.0f records/s, %s (%d MB before; VmRSS sampled every 50 ms)",
		dbName, large.records, ex.size, ex.took.Round(time.Millisecond), rate, rss, ex.before>>20))

	// A forget of the large copy: the user's wait (Manager.Forget returns
	// once nothing of the copy is readable), then the deletes it leaves to
	// the background (Store.Purge), until the copy's rows are gone.
	t0 := time.Now()
	if err := large.Catalog.Forget(context.Background(), benchKey); err != nil {
		return out, err
	}
	forget := time.Since(t0)
	purged, err := waitPurged(large.Catalog.Store(), t0)
	if err != nil {
		return out, err
	}
	out.holds = out.holds && forget <= 10*time.Second
	out.detail = append(out.detail, fmt.Sprintf("%s: forgetting the copy of %d records (copystore.Manager.Forget): nothing of it readable after %s; its rows deleted in the background, a chunk a transaction, after %s (%.0f records/s)",
		dbName, large.records, forget.Round(time.Millisecond), purged.Round(time.Millisecond), float64(large.records)/purged.Seconds()))

	out.figure = fmt.Sprintf("%d vs %d records: worst of page/search/deep page %.2fx (%s); CSV export %.0f records/s, %s; forget %s (rows deleted after %s); %.0f bytes/record",
		large.records, small.records, worst, worstPage, rate, rss, forget.Round(10*time.Millisecond), purged.Round(100*time.Millisecond), perRecord)
	return out, nil
}

// waitPurged waits until the bench copy's forget has deleted its rows
// and returns the time since t0.
func waitPurged(cs *copystore.Store, t0 time.Time) (time.Duration, error) {
	deadline := t0.Add(2 * time.Hour) // a backstop, not a target
	for {
		pending, err := cs.PurgePending(context.Background(), benchKey)
		if err != nil {
			return 0, err
		}
		if !pending {
			return time.Since(t0), nil
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("the forget's rows were not deleted within %s", deadline.Sub(t0))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seedPage is the page size the seeding pass reads: far above the
// marketplace's 100, so a million records take 200 transactions' worth of
// pages rather than 10,000 requests.
const seedPage = 5000

// seededCopy starts a dashboard on dbURL whose sandbox holds products x 3
// records and fills the bench seller's copy by one full pass of the
// copy's own Syncer over those records read in process, seedPage at a
// time (orders and return boxes through the API as the sync reads them);
// then logs in, which finds the copy fresh and reads nothing.
func seededCopy(products int, dbURL string) (*copyEnv, error) {
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: products}, Catalog: true, DatabaseURL: dbURL})
	if err != nil {
		return nil, err
	}
	ce := &copyEnv{Env: e}
	fail := func(err error) (*copyEnv, error) { e.Close(); return nil, err }
	ctx := context.Background()
	cs := e.Catalog.Store()
	if err := cs.Remember(ctx, benchKey); err != nil {
		return fail(err)
	}
	src := productSource{AccountSource: copystore.AccountSource{SellerID: sellerID, Account: e.API.Account(apiclient.Credentials{ClientID: clientID, ClientSecret: secret, Environment: apiclient.Test}, apiclient.NewMemoryTokenStore())}}
	for _, p := range e.Sandbox.Products(sellerID) {
		for w, wh := range p.Warehouses {
			st := "online"
			if (len(src.recs)+w)%5 == 4 {
				st = "disabled"
			}
			src.recs = append(src.recs, apiclient.Nomenclature{SellerID: sellerID, WarehouseCode: wh, Barcode: p.Barcode, MarketplaceSKU: p.MarketplaceSKU,
				ParentSKU: p.ParentSKU, SellerSKU: p.SellerSKU, Name: p.Name, Brand: p.Brand, Size: p.Size,
				Price: apiclient.Money(p.Price), SalePrice: apiclient.Money(p.SalePrice), Quantity: len(src.recs) % 40, Status: st, PriceUpdateStatus: p.PriceUpdateStatus})
		}
	}
	if want := 3 * products; len(src.recs) != want {
		// A sandbox capping its products would measure a smaller copy
		// under the million's name.
		return fail(fmt.Errorf("the sandbox holds %d records, %d asked for", len(src.recs), want))
	}
	y := copystore.Syncer{Store: cs, Lock: lockerFunc(e.Catalog.Lock), PageLimit: seedPage}
	if err := y.Run(ctx, benchKey, src); err != nil {
		return fail(err)
	}
	if ce.user, err = e.Login(); err != nil {
		return fail(err)
	}
	if err := waitCopy(cs, 30*time.Minute); err != nil {
		return fail(err)
	}
	if ce.records, err = cs.CountNomenclature(ctx, benchKey, copystore.Query{}); err != nil {
		return fail(err)
	}
	if ce.records != len(src.recs) {
		return fail(fmt.Errorf("the seeded copy holds %d records, the sandbox %d", ce.records, len(src.recs)))
	}
	return ce, nil
}

// productSource is the copy's Source with the nomenclature read from
// memory, any page size; orders, boxes and the token renewal go through
// the API.
type productSource struct {
	copystore.AccountSource
	recs []apiclient.Nomenclature
}

func (p productSource) NomenclaturePage(_ context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	lo := min((page-1)*limit, len(p.recs))
	hi := min(lo+limit, len(p.recs))
	return p.recs[lo:hi], (len(p.recs) + limit - 1) / limit, len(p.recs), nil
}

// OrdersPage and BoxesPage read the marketplace's pages of at most
// copystore.PageLimit, whatever the pass asks: the page numbers and count
// are the marketplace's own, so the pass reads them all.
func (p productSource) OrdersPage(ctx context.Context, page, limit int) ([]apiclient.Order, int, int, error) {
	return p.AccountSource.OrdersPage(ctx, page, min(limit, copystore.PageLimit))
}

func (p productSource) BoxesPage(ctx context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	return p.AccountSource.BoxesPage(ctx, page, min(limit, copystore.PageLimit))
}

// lockerFunc is a copystore.Locker from a function (the manager's Lock).
type lockerFunc func(ctx context.Context, seller int64) (func(), error)

func (f lockerFunc) LockSeller(ctx context.Context, seller int64) (func(), error) {
	return f(ctx, seller)
}

// copyBytes is the disk the copy at dbURL takes: the SQLite file with its
// WAL, or the PostgreSQL catalog tables with their indexes and TOAST.
func copyBytes(dbURL string) (int64, error) {
	if !strings.Contains(dbURL, "://") {
		var n int64
		for _, f := range []string{dbURL, dbURL + "-wal"} {
			if st, err := os.Stat(f); err == nil {
				n += st.Size()
			}
		}
		return n, nil
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	var n int64
	err = conn.QueryRow(ctx, `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
		JOIN pg_namespace ns ON ns.oid = c.relnamespace
		WHERE ns.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'catalog\_%'`).Scan(&n)
	return n, err
}

func bytesWhat(dbURL string) string {
	if strings.Contains(dbURL, "://") {
		return "pg_total_relation_size of the catalog_ tables"
	}
	return "the SQLite file and its WAL, sessions included"
}

type exportRun struct {
	took         time.Duration
	size         int64
	peak, before int64
	measured     bool
}

// childExport downloads the bench seller's whole-catalogue CSV from the
// dashboard alone: cmd/web as a child process on dbURL (the copy e's
// dashboard filled) when child is set, e's in-process dashboard
// otherwise (the smoke sizes do not build cmd/web).
func childExport(e *Env, dbURL string, child bool) (exportRun, error) {
	var out exportRun
	acct := sessions.Account{ClientID: clientID, SellerID: sellerID, Environment: env}.ID()
	base, cookie, pid := e.URL, "", 0
	if child {
		dir, err := os.MkdirTemp("", "sdbench-million-")
		if err != nil {
			return out, err
		}
		defer os.RemoveAll(dir)
		c, err := startChild(e, dir, dbURL)
		if err != nil {
			return out, err
		}
		defer c.stop()
		if cookie, err = childLogin(c.base); err != nil {
			return out, err
		}
		base, pid, out.measured = c.base, c.cmd.Process.Pid, true
		out.before, _ = procStatus(pid)
	} else {
		u, err := e.Login()
		if err != nil {
			return out, err
		}
		cookie = u.Cookie
	}
	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	if pid != 0 {
		sampler.Go(func() {
			for {
				if v, _ := procStatus(pid); v > peak.Load() {
					peak.Store(v)
				}
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	req, _ := http.NewRequest(http.MethodGet, base+paths.Of(acct, "/nomenclature/export-all.csv"), nil)
	req.Header.Set("Cookie", cookie)
	t0 := time.Now()
	resp, err := (&http.Client{Timeout: 30 * time.Minute}).Do(req)
	if err == nil {
		out.size, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("export: status %d", resp.StatusCode)
		}
	}
	out.took = time.Since(t0)
	close(stop)
	sampler.Wait()
	out.peak = peak.Load()
	return out, err
}

// millionFirstSync is the first full copy of MillionSyncProducts x 3
// records at P8Latency per request against the floor of the same run
// (firstSync: the same pages read one at a time, nothing stored).
func millionFirstSync(s Sizes) (out millionPart, _ error) {
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: s.MillionSyncProducts}, Catalog: true})
	if err != nil {
		return out, err
	}
	defer e.Close()
	e.Sandbox.SetLatency("", s.P8Latency)
	fs, err := firstSync(e, s.P8Latency)
	if err != nil {
		return out, err
	}
	out.holds = fs.ratio() <= 1.2
	out.figure = fmt.Sprintf("first copy of %d records %.2fx the marketplace floor", 3*s.MillionSyncProducts, fs.ratio())
	out.detail = append(out.detail, fmt.Sprintf("first full copy (SQLite) of %d records at %s a request: %d pages in %s, floor (pages x latency) %s: %.2fx; at most %d request(s) in flight; the same pages read through the API client with nothing stored took %.2fx (before) and %.2fx (after) the floor",
		3*s.MillionSyncProducts, s.P8Latency, fs.pages, fs.took.Round(time.Millisecond), fs.floor(), fs.ratio(), fs.inFlight,
		float64(fs.readBefore)/float64(fs.floor()), float64(fs.readAfter)/float64(fs.floor())))
	return out, nil
}
