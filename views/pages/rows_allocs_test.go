package pages

import (
	"context"
	"io"
	"strconv"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// rowsFixture is a page of n rows as the copy's lists show them: every
// text set, the status choices a record of the marketplace has.
func rowsFixture(n int) ([]NomenclatureRow, []PriceRow) {
	opts := []Option{{"online", "В продаже"}, {"disabled", "Снят с продажи"}, {"rejected", "Отклонён"}, {"in_moderation", "На модерации"}}
	nom := make([]NomenclatureRow, n)
	pr := make([]PriceRow, n)
	for i := range n {
		s := strconv.Itoa(i)
		nom[i] = NomenclatureRow{Key: "MSK-1_46000000" + s, Warehouse: "MSK-1", Barcode: "46000000" + s, SKU: "SKU-" + s,
			Product: "SKU-" + s, Name: "Кроссовки беговые мужские " + s, Brand: "Acme", Size: "42",
			Price: "12 990,00 ₽", SalePrice: "9 990,00 ₽", Quantity: s, OrigQuantity: s, Status: "online", OrigStatus: "online",
			StatusOptions: opts}
		pr[i] = PriceRow{SKU: "SKU-" + s, Name: "Кроссовки беговые мужские " + s, Brand: "Acme", Size: "42",
			Current: "12 990,00 ₽", CurrentSale: "9 990,00 ₽", UpdateStatus: "OK",
			OrigPrice: "12990.00", OrigSale: "9990.00", OrigStart: "2026-11-01", OrigEnd: "2026-12-01",
			Price: "12990.00", Sale: "9990.00", Start: "2026-11-01", End: "2026-12-01"}
	}
	return nom, pr
}

// TestRowsAllocations bounds what rendering a 50-row page of the
// nomenclature and of the prices allocates: the copy's busiest pages,
// rendered on every view. The bounds sit a little above today's figures,
// so a change that brings back allocations per printed value fails here.
func TestRowsAllocations(t *testing.T) {
	nom, pr := rowsFixture(50)
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	for _, c := range []struct {
		name  string
		view  func() error
		bound float64
	}{
		{"nomenclature", func() error {
			return NomenclatureForm(NomenclatureView{Action: "/nomenclature", Rows: nom}).Render(ctx, io.Discard)
		}, 1550},
		{"prices", func() error {
			return PricesForm(PricesView{Action: "/prices", Rows: pr}).Render(ctx, io.Discard)
		}, 2950},
	} {
		if err := c.view(); err != nil {
			t.Fatal(err)
		}
		n := testing.AllocsPerRun(20, func() { _ = c.view() })
		t.Logf("%s, 50 rows: %.0f allocations", c.name, n)
		if n > c.bound {
			t.Errorf("%s, 50 rows: %.0f allocations, want at most %.0f", c.name, n, c.bound)
		}
	}
}
