package copystore

import (
	"context"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestFirstPagesKeepOnePlanPostgres: PostgreSQL plans the lists' first
// pages (nomenclature, by status, orders, boxes) once and reuses the plan,
// instead of planning them again at every view (which costs more than
// reading the page). Counted in pg_prepared_statements on a reader of one
// connection, so every statement it ran is there.
func TestFirstPagesKeepOnePlanPostgres(t *testing.T) {
	t.Parallel()
	url := sqldbtest.PostgresURL(t)
	b := newBackend(t, url)
	ctx := context.Background()
	k := testKey(6161)
	if err := (&Syncer{Store: b.open(), Lock: b.lock}).Run(ctx, k, catalogue(2000, 0)); err != nil {
		t.Fatal(err)
	}
	s, err := New(setupContext(t), openDB(t, url+"&pool_max_conns=1"))
	if err != nil {
		t.Fatal(err)
	}
	const views = 12
	lists := map[string]func() error{
		"FROM catalog_nomenclature WHERE": func() error { _, err := s.Nomenclature(ctx, k, Query{Limit: 50}); return err },
		"AND status =":                    func() error { _, err := s.Nomenclature(ctx, k, Query{Limit: 50, Status: "online"}); return err },
		"FROM catalog_orders":             func() error { _, err := s.Orders(ctx, k, Query{Limit: 50}); return err },
		"FROM catalog_boxes":              func() error { _, err := s.Boxes(ctx, k, Query{Limit: 50}); return err },
	}
	for range views {
		for name, view := range lists {
			if err := view(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var stmt string
		var generic, custom int
		if err := rows.Scan(&stmt, &generic, &custom); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stmt, "LIMIT") || strings.Contains(stmt, "COUNT(") {
			continue
		}
		for name := range lists {
			if !strings.Contains(stmt, name) || (name == "FROM catalog_nomenclature WHERE" && strings.Contains(stmt, "AND status =")) {
				continue
			}
			seen[name] = true
			// PostgreSQL tries up to five custom plans before it compares
			// the generic one with them.
			if custom > 5 || generic+custom < views {
				t.Errorf("%s: %d custom and %d generic plans over %d views, want at most 5 custom", name, custom, generic, views)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for name := range lists {
		if !seen[name] {
			t.Errorf("no prepared statement of %q", name)
		}
	}
}
