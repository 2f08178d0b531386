package copystore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"modernc.org/sqlite"
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
	conn, err := s.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.Raw(func(dc any) error {
		return dc.(sqlite.AuthorizerRegisterer).RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, table, _, _, _ string) sqlite.AuthorizerReturnCode {
			if table == "catalog_nomenclature" || table == "catalog_price_points" {
				compiled.Add(1)
			}
			return sqlite.AuthorizerOK
		})
	}); err != nil {
		t.Fatal(err)
	}
	conn.Close()

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
