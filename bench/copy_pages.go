package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// copyPages are the catalogue pages whose cost must not grow with the
// copy (P9): the overview, the price editor, a filtered list, a search, a
// deep sorted page, return boxes and orders; and the last page of
// copyLastOf (copyLastPage).
var copyPages = []string{
	"/",
	"/prices?limit=50",
	"/nomenclature?status=online",
	"/prices?q=" + url.QueryEscape("крос"),
	"/nomenclature?sort=-price&page=20",
	"/return-boxes",
	"/orders",
}

// copyLastOf is the list whose last page P9 also measures, reached as a
// user jumping to the end reaches it: through its pager's last link.
const copyLastOf = "/nomenclature?sort=-price"

// copyLastPage is the href of the last numbered link of the pager of
// list (a keyset cursor to the end of the list); list itself when it
// fits one page (the short sizes' small copy).
func copyLastPage(u *User, list string) (string, error) {
	st, body, err := u.Get(list)
	if err != nil || st != http.StatusOK {
		return "", fmt.Errorf("GET %s: %d %v", list, st, err)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	links := doc.Find("[data-testid=pager] a:not([rel])")
	if links.Length() == 0 {
		return list, nil
	}
	href, _ := links.Last().Attr("href")
	if !strings.Contains(href, "cursor=") {
		return "", fmt.Errorf("%s: the pager's last link %q has no cursor", list, href)
	}
	return href, nil
}

// loadPages are the pages the load's clients cycle through (P10, P11).
var loadPages = []string{
	"/", "/orders", "/prices?limit=50", "/nomenclature?status=online",
	"/prices?q=" + url.QueryEscape("крос"), "/return-boxes", "/history",
}

// copyEnv is a dashboard serving a full copy of products x 3 records.
type copyEnv struct {
	*Env
	user *User
	// syncCalls is how many marketplace requests the first full sync of
	// the copy made (every route but the token endpoints).
	syncCalls int
	records   int
}

// startCopy starts a dashboard on dbURL ("" = a SQLite file), logs in
// (which starts the first sync from the in-process sandbox, without
// latency) and waits for the copy to be complete.
func startCopy(products int, dbURL string) (*copyEnv, error) {
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: products}, Catalog: true, DatabaseURL: dbURL})
	if err != nil {
		return nil, err
	}
	ce := &copyEnv{Env: e}
	before := upstreamCalls(e.Sandbox)
	if ce.user, err = e.Login(); err != nil {
		e.Close()
		return nil, err
	}
	if err := waitCopy(e.Catalog.Store(), 30*time.Minute); err != nil {
		e.Close()
		return nil, err
	}
	ce.syncCalls = upstreamCalls(e.Sandbox) - before
	if ce.records, err = e.Catalog.Store().CountNomenclature(context.Background(), benchKey, copystore.Query{}); err != nil {
		e.Close()
		return nil, err
	}
	return ce, nil
}

// waitCopy waits until every kind of the bench seller's copy has a
// finished pass and none runs.
func waitCopy(cs *copystore.Store, limit time.Duration) error {
	return waitCopyOf(cs, benchKey, limit)
}

// upstreamCalls counts the sandbox's requests other than token issues:
// the marketplace calls a dashboard made.
func upstreamCalls(sb *sandbox.Sandbox) int {
	n := 0
	for route, c := range sb.Counters().Requests {
		if !strings.Contains(route, "token") {
			n += c
		}
	}
	return n
}

// CopyPagesFlat (target P9) measures each catalogue page from the
// copy, one client, median of CopyViews views, on a copy of CopySmall x 3
// records and one of CopyLarge x 3 (1,000 and 100,000 with the full
// sizes), on SQLite and, when SELLERDESK_TEST_POSTGRES_URL is set, on
// PostgreSQL, and holds when on neither a page costs more than 2x at the
// large size what it costs at the small one.
func CopyPagesFlat(s Sizes) (Result, error) {
	r := Result{ID: "P9", Target: "every page <= 2x, both databases"}
	sq, err := flatPages(s, "SQLite", func() (string, func(), error) { return "", func() {}, nil })
	if err != nil {
		return r, err
	}
	r.Holds = sq.holds
	r.Figure = "SQLite: " + sq.figure
	r.Detail = append(r.Detail, sq.detail...)
	if os.Getenv("SELLERDESK_TEST_POSTGRES_URL") == "" {
		r.Figure += "; PostgreSQL: not measured (SELLERDESK_TEST_POSTGRES_URL is not set)"
		return r, nil
	}
	pg, err := flatPages(s, "PostgreSQL", postgresSchema)
	if err != nil {
		return r, err
	}
	r.Holds = r.Holds && pg.holds
	r.Figure += "; PostgreSQL: " + pg.figure
	r.Detail = append(r.Detail, pg.detail...)
	return r, nil
}

// flatPages is P9 on one database: a copy of each size on a database of
// its own (db gives its URL, "" for a SQLite file, and what drops it).
func flatPages(s Sizes, dbName string, db func() (string, func(), error)) (out struct {
	holds  bool
	figure string
	detail []string
}, _ error) {
	var envs [2]*copyEnv
	var records [2]int
	for i, products := range []int{s.CopySmall, s.CopyLarge} {
		dbURL, drop, err := db()
		if err != nil {
			return out, err
		}
		defer drop()
		t0 := time.Now()
		ce, err := startCopy(products, dbURL)
		if err != nil {
			return out, err
		}
		defer ce.Close()
		envs[i], records[i] = ce, ce.records
		out.detail = append(out.detail, fmt.Sprintf("%s copy of %d records built (sandbox, first sync, no latency) in %s", dbName, records[i], time.Since(t0).Round(time.Second)))
	}
	med, err := pairedPageMedians(envs, s.CopyViews)
	if err != nil {
		return out, err
	}
	out.detail = append(out.detail, "both copies are served at once and measured side by side: each round views every page on the small and the large copy, alternating which goes first, so what else runs on the machine (the database's own background work after the large copy's first sync included) weighs on both alike")
	out.holds = true
	worst, worstPage := 0.0, ""
	table := []string{fmt.Sprintf("| page on %s (one client, median of %d) | %d records | %d records | growth |", dbName, s.CopyViews, records[0], records[1]), "|---|---|---|---|"}
	for i, p := range append(slices.Clone(copyPages), copyLastOf+" → the pager's last link") {
		g := float64(med[1][i]) / float64(med[0][i])
		if g > worst {
			worst, worstPage = g, p
		}
		out.holds = out.holds && g <= 2
		table = append(table, fmt.Sprintf("| `%s` | %s | %s | %.1fx |", p, ms(med[0][i]), ms(med[1][i]), g))
	}
	out.figure = fmt.Sprintf("worst growth %.2fx (%s) from %d to %d records", worst, worstPage, records[0], records[1])
	out.detail = append(out.detail, strings.Join(table, "\n"))
	return out, nil
}

// pairedPageMedians measures copyPages and the last page of copyLastOf
// (through the pager's link) on both envs, interleaved: in each of views
// rounds every page is viewed on both, alternating which first. One
// unmeasured round comes first, as a user's first visit warms templates,
// statements and the page cache. It returns each env's medians.
func pairedPageMedians(envs [2]*copyEnv, views int) ([2][]time.Duration, error) {
	var pages [2][]string
	var times [2][][]time.Duration
	for i, ce := range envs {
		last, err := copyLastPage(ce.user, copyLastOf)
		if err != nil {
			return [2][]time.Duration{}, err
		}
		pages[i] = append(slices.Clone(copyPages), last)
		times[i] = make([][]time.Duration, len(pages[i]))
	}
	for round := range views + 1 {
		for p := range pages[0] {
			for k := range 2 {
				i := (round + p + k) % 2
				t0 := time.Now()
				st, _, err := envs[i].user.Get(pages[i][p])
				if err != nil || st != http.StatusOK {
					return [2][]time.Duration{}, fmt.Errorf("GET %s: %d %v", pages[i][p], st, err)
				}
				if round > 0 {
					times[i][p] = append(times[i][p], time.Since(t0))
				}
			}
		}
	}
	var out [2][]time.Duration
	for i := range out {
		for _, ts := range times[i] {
			out[i] = append(out[i], median(ts))
		}
	}
	return out, nil
}

// ms formats d in milliseconds with two decimals.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// postgresSchema creates a new schema on the server named by
// SELLERDESK_TEST_POSTGRES_URL and returns a URL using it and a function
// dropping it; url is "" when the variable is not set.
func postgresSchema() (dbURL string, drop func(), err error) {
	base := os.Getenv("SELLERDESK_TEST_POSTGRES_URL")
	if base == "" {
		return "", func() {}, nil
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "bench_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return "", nil, fmt.Errorf("connect to SELLERDESK_TEST_POSTGRES_URL: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("SELLERDESK_TEST_POSTGRES_URL is not a URL")
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		_, _ = conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`)
	}, nil
}
