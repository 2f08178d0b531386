package copystore

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// TestSearchPrefixIndexMigrates: on SQLite the step that gives the
// full-text index its prefix indexes rebuilds it from a copy made before
// it, and every search finds after it what it found before, for prefixes
// of every length the index keeps and beyond.
func TestSearchPrefixIndexMigrates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: productsInTests})
	url := filepath.Join(t.TempDir(), "catalog.db")
	db := openDB(t, url)
	before := slices.IndexFunc(migrations.SQLite, func(step string) bool { return strings.Contains(step, "prefix='1 2 3") })
	if before < 0 {
		t.Fatal("no step gives the full-text index its prefixes")
	}
	old, err := newStore(ctx, db, sqldb.Steps{SQLite: migrations.SQLite[:before], Postgres: migrations.Postgres[:before]})
	if err != nil {
		t.Fatal(err)
	}
	// The store of today writes and reads the columns and the table
	// later steps add: they are there while it fills and reads the old
	// copy, and gone again before those steps run.
	later := []string{"quantity_pending_at", "status_pending_at"}
	for _, c := range later {
		if _, err := db.Writer().ExecContext(ctx, `ALTER TABLE catalog_nomenclature ADD COLUMN `+c+` BIGINT`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Writer().ExecContext(ctx, migrationPricePoints("INTEGER PRIMARY KEY")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Writer().ExecContext(ctx, migrationPurgeColumn); err != nil {
		t.Fatal(err)
	}
	k := testKey(1001)
	if err := (&Syncer{Store: old, Lock: db, PageLimit: 100}).Run(ctx, k, m.source(1001)); err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, p := range m.sb.Products(1001)[:5] {
		for _, w := range words(p.Name) {
			r := []rune(w)
			for _, n := range []int{1, 2, 3, len(r)} {
				if n <= len(r) {
					queries = append(queries, string(r[:n]))
				}
			}
		}
	}
	queries = append(queries, "КРОС", strings.ToUpper(queries[0]), "нет-такого-слова")
	found := func(s *Store) map[string]string {
		out := map[string]string{}
		for _, q := range queries {
			var ids []string
			n, err := s.NomenclaturePage(ctx, k, Query{Q: q, Limit: MaxLimit}, func(r *Record) error {
				ids = append(ids, r.Barcode+"@"+r.Warehouse)
				return nil
			})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			out[q] = strings.Join(ids, ",") + "|" + strconv.Itoa(n)
		}
		return out
	}
	want := found(old)
	for _, c := range later {
		if _, err := db.Writer().ExecContext(ctx, `ALTER TABLE catalog_nomenclature DROP COLUMN `+c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Writer().ExecContext(ctx, `DROP TABLE catalog_price_points`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Writer().ExecContext(ctx, `ALTER TABLE catalog_copies DROP COLUMN purge`); err != nil {
		t.Fatal(err)
	}

	s, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var ddl string
	if err := db.Reader().QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = 'catalog_nomenclature_fts'`).Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ddl, "prefix='1 2 3 4 5 6 7 8 9 10'") {
		t.Fatalf("full-text table without its prefix indexes: %s", ddl)
	}
	got := found(s)
	hits := 0
	for _, q := range queries {
		if got[q] != want[q] {
			t.Errorf("%q after the rebuild: %.120s, before it: %.120s", q, got[q], want[q])
		}
		if !strings.HasPrefix(got[q], "|") {
			hits++
		} else if q != "нет-такого-слова" {
			t.Errorf("%q found nothing", q)
		}
	}
	if hits != len(queries)-1 {
		t.Fatalf("%d of %d searches found something", hits, len(queries))
	}
	// Writes after the rebuild keep the index: a renamed record is found
	// by its new name's prefix and no longer by its old one.
	if _, err := s.w.ExecContext(ctx, `UPDATE catalog_nomenclature SET name = 'Зонтик', search = 'зонтик' WHERE id = (SELECT MIN(id) FROM catalog_nomenclature)`); err != nil {
		t.Fatal(err)
	}
	n, err := s.CountNomenclature(ctx, k, Query{Q: "зонт"})
	if err != nil || n != 1 {
		t.Fatalf("the renamed record: %d found, %v", n, err)
	}
}
