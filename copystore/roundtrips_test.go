package copystore

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// statementCounter counts the statements sent to the server (each a round
// trip; a batch counts once).
type statementCounter struct{ n atomic.Int64 }

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *statementCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (c *statementCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// pageRoundTrips are the most statements the copy's part of one page may
// send on PostgreSQL, a page as browse reads it: its checks (ReadChecks:
// the sync states, the access check, the version and the kept counts),
// then the page; the overview is its checks alone.
var pageRoundTrips = map[string]int64{"nomenclature": 2, "search": 2, "orders": 2, "boxes": 2, "overview": 1}

// TestPageRoundTripsPostgres counts the statements the copy's reads of one
// page send on PostgreSQL, once the count cache holds the page's count,
// and fails if they grow beyond pageRoundTrips.
func TestPageRoundTripsPostgres(t *testing.T) {
	t.Parallel()
	url := sqldbtest.PostgresURL(t)
	ctx := context.Background()
	tr := &statementCounter{}
	db, err := sqldb.OpenPostgresTraced(ctx, url, tr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	k := testKey(7301)
	if err := (&Syncer{Store: s, Lock: db}).Run(ctx, k, catalogue(300, 0)); err != nil {
		t.Fatal(err)
	}
	pages := map[string]func(ctx context.Context) error{
		"nomenclature": func(ctx context.Context) error {
			_, err := s.NomenclaturePage(ctx, k, Query{Limit: 50}, func(*Record) error { return nil })
			return err
		},
		"search": func(ctx context.Context) error {
			_, err := s.NomenclaturePage(ctx, k, Query{Q: "кросс", Limit: 50}, func(*Record) error { return nil })
			return err
		},
		"orders": func(ctx context.Context) error {
			_, _, err := s.OrdersPage(ctx, k, Query{Limit: 50})
			return err
		},
		"overview": func(ctx context.Context) error {
			_, err := s.Overview(ctx, k)
			return err
		},
		"boxes": func(ctx context.Context) error {
			_, _, err := s.BoxesPage(ctx, k, Query{Limit: 50})
			return err
		},
	}
	for name, read := range pages {
		page := func() int64 {
			before := tr.n.Load()
			ctx, err := s.pageContext(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			if err := read(ctx); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return tr.n.Load() - before
		}
		page() // prepares the statements and fills the count cache
		if n := page(); n > pageRoundTrips[name] {
			t.Errorf("%s: one page sent %d statements, want at most %d", name, n, pageRoundTrips[name])
		} else {
			t.Logf("%s: %d statements", name, n)
		}
	}
}

// pageContext reads what browse reads before a page (its checks).
func (s *Store) pageContext(ctx context.Context, k Key) (context.Context, error) {
	c, err := s.ReadChecks(ctx, k)
	return WithChecks(ctx, c), err
}
