package copystore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestAcceptStatementsStayCompiled holds Accept's prepared statements
// compiled once on SQLite, whatever the sizes and values of the batches
// that follow: a form's chunks accept 500 rows less the few the
// marketplace refused, so the rows of the batch's table bound and left
// NULL change from one chunk to the next, and a statement SQLite has to
// compile again at each run costs more than running it. SQLite consults
// a connection's authorizer only while it compiles, so a count of its
// calls on the writer's connection is a count of compilations.
func TestAcceptStatementsStayCompiled(t *testing.T) {
	ctx := context.Background()
	be := newBackend(t, t.TempDir()+"/catalog.db")
	s := be.open()
	k := testKey(1)
	if err := (&Syncer{Store: s, Lock: be.lock, PageLimit: 1000}).Run(ctx, k, cardCatalogue(3000)); err != nil {
		t.Fatal(err)
	}
	var compiled atomic.Int64
	countCompilations(t, s, func(_ sqlite.AuthorizerActionCode, table, _ string) {
		if table == "catalog_nomenclature" || table == "catalog_price_points" {
			compiled.Add(1)
		}
	})

	round := int64(0)
	accept := func(n int, sale int64) {
		t.Helper()
		round++
		changes := make([]Change, n)
		for i := range changes {
			p := 5000 + round*1000 + int64(i)
			changes[i] = Change{SKU: fmt.Sprintf("SKU%05d", i*6), Price: &p, SalePrice: sale}
		}
		if err := s.Accept(ctx, k, changes); err != nil {
			t.Fatal(err)
		}
	}
	// Registering an authorizer expires the connection's statements: the
	// first batch compiles them again, which shows the count is live on
	// the connection Accept writes on.
	accept(500, 0)
	if compiled.Load() == 0 {
		t.Fatal("the authorizer saw no compilation of the first batch: it is not on the writer's connection")
	}
	compiled.Store(0)
	for _, b := range []struct {
		n    int
		sale int64
	}{{498, 0}, {500, 0}, {497, 4500}, {500, 0}, {499, 1}, {500, 0}, {300, 0}} {
		accept(b.n, b.sale)
	}
	if n := compiled.Load(); n != 0 {
		t.Errorf("Accept's statements were compiled again while running (%d authorizer calls): they should be compiled once", n)
	}
}

// TestObserveStatementStaysCompiled: a pass's read of the changed prices
// (observeStatement), prepared once a transaction for pages of the same
// size, is compiled once however the pages' sale prices change from one
// page to the next (a sale at a place of one page, none at the same
// place of the next), as Accept's statements are.
func TestObserveStatementStaysCompiled(t *testing.T) {
	ctx := context.Background()
	be := newBackend(t, t.TempDir()+"/catalog.db")
	s := be.open()
	// Not seller 1: SQLite plans a comparison with 0 or 1 apart, and
	// compiles a statement again once its first run binds either where
	// the compilation saw none.
	k := Key{SellerID: 1001, Env: "test"}
	const pages, size = 4, 100
	data := make([][]apiclient.Nomenclature, pages)
	for p := range data {
		for i := range size {
			n := p*size + i
			sale := apiclient.Money(0)
			if (i+p)%2 == 0 {
				sale = apiclient.Money(90000 + n)
			}
			data[p] = append(data[p], apiclient.Nomenclature{WarehouseCode: "WH", Barcode: fmt.Sprintf("46%011d", n),
				MarketplaceSKU: fmt.Sprintf("ART-%05d", n), Name: "Кроссовки", Price: apiclient.Money(100000 + n), SalePrice: sale,
				Status: "online", UpdatedAt: time.Now().Add(-time.Hour)})
		}
	}
	pass := func() {
		t.Helper()
		st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var batch []page
		for p := range data {
			batch = append(batch, page{num: p + 1, data: mapAll(data[p], recordOf), pages: pages, total: pages * size, n: size})
		}
		if err := s.putPages(ctx, k, &st, batch); err != nil {
			t.Fatal(err)
		}
		if err := s.finishPass(ctx, k, st); err != nil {
			t.Fatal(err)
		}
	}
	pass()
	// The read alone looks at a point's time: each compilation of it asks
	// the authorizer once for catalog_price_points.observed_at.
	var compiled atomic.Int64
	countCompilations(t, s, func(action sqlite.AuthorizerActionCode, table, column string) {
		if action == sqlite.AuthRead && table == "catalog_price_points" && column == "observed_at" {
			compiled.Add(1)
		}
	})
	for p := range data {
		for i := range data[p] {
			data[p][i].Price += 100 // every price changed: each page's read finds its records
			if data[p][i].SalePrice == 0 {
				data[p][i].SalePrice = data[p][i].Price - 50
			} else {
				data[p][i].SalePrice = 0
			}
		}
	}
	pass()
	if n := compiled.Load(); n != 1 {
		t.Errorf("the read of the changed prices was compiled %d times for %d pages of one transaction, want once", n, pages)
	}
}

// countCompilations calls seen with every table and column a
// statement compiled on the writer's connection of s uses: SQLite asks a
// connection's authorizer while it compiles a statement (preparing it, or
// again when the statement expired), never while it runs one.
func countCompilations(t *testing.T, s *Store, seen func(action sqlite.AuthorizerActionCode, table, column string)) {
	t.Helper()
	conn, err := s.w.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.Raw(func(dc any) error {
		return dc.(sqlite.AuthorizerRegisterer).RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, table, column, _, _ string) sqlite.AuthorizerReturnCode {
			seen(action, table, column)
			return sqlite.AuthorizerOK
		})
	}); err != nil {
		t.Fatal(err)
	}
}
