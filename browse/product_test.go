package browse

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestHistoryPoints: the history's accepted price changes of the product
// become points (price and sale read from the recorded new value), merged
// in time order with the observed ones, a repeat left out; refusals,
// other products and other kinds are not points.
func TestHistoryPoints(t *testing.T) {
	t0 := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	price := func(p string, sale string) i18n.Msgs {
		ms := i18n.Msgs{{Text: p}}
		if sale != "" {
			ms = append(ms, i18n.M("mass.sale_of", map[string]any{"Sale": sale}))
		}
		return ms
	}
	entries := []audit.Entry{
		{At: t0.Add(48 * time.Hour), Kind: audit.KindPrice, Items: []audit.Item{
			{Key: "SKU-1", New: price("1500.00", "1200.50"), Outcome: audit.Accepted},
			{Key: "SKU-2", New: price("9.00", ""), Outcome: audit.Accepted},
		}},
		{At: t0.Add(24 * time.Hour), Kind: audit.KindPrice, Items: []audit.Item{{Key: "SKU-1", New: price("1.00", ""), Outcome: audit.Refused}}},
		{At: t0.Add(12 * time.Hour), Kind: audit.KindPrice, Items: []audit.Item{{Key: "SKU-1", New: price("1400.00", ""), Outcome: audit.Accepted}}},
		{At: t0.Add(6 * time.Hour), Kind: audit.KindStock, Items: []audit.Item{{Key: "SKU-1", New: price("5", ""), Outcome: audit.Accepted}}},
	}
	got := HistoryPoints(entries, "SKU-1")
	if len(got) != 2 || got[0].Price != 150000 || got[0].SalePrice != 120050 || got[1].Price != 140000 || got[1].SalePrice != 0 {
		t.Fatalf("history points %+v", got)
	}
	// Without observations, the history's points alone, in time order.
	if merged := MergePoints(nil, got); len(merged) != 2 || merged[0].Price != 140000 || merged[1].Price != 150000 {
		t.Errorf("history alone: %+v", merged)
	}
	// The copy observed from t0+40h on: the history adds what came before
	// (t0+12h); its later change is the copy's, not drawn twice.
	observed := []copystore.PricePoint{
		{At: t0.Add(40 * time.Hour), Price: 140000},
		{At: t0.Add(48*time.Hour + time.Millisecond), Price: 150000, SalePrice: 120050},
	}
	merged := MergePoints(observed, got)
	if len(merged) != 2 || merged[0].Price != 140000 || !merged[0].At.Equal(t0.Add(12*time.Hour)) || merged[1].Price != 150000 {
		t.Errorf("merged %+v", merged)
	}
}

// TestProduct: before a full copy a product is not known missing (the
// records a sync in progress copied may be there already); once copied, its records and observed prices come from
// the copy inside the page gate, and a SKU the copy lacks is missing.
func TestProduct(t *testing.T) {
	r := newRig(t)
	reader := New(r.copy, nil)
	ctx := context.Background()
	first, err := r.seller(reader, nil).Nomenclature(ctx, Query{Page: 1, Limit: 1})
	if err != nil || len(first.Records) == 0 {
		t.Fatalf("live page: %v", err)
	}
	sku := first.Records[0].MarketplaceSKU
	p, err := r.seller(reader, nil).Product(ctx, sku, false)
	if err != nil || p.Complete {
		t.Fatalf("before a copy: %+v, %v", p, err)
	}

	r.synced(t)
	entered := 0
	p, err = r.seller(reader, &entered).Product(ctx, sku, false)
	if err != nil || !p.Complete || len(p.Records) == 0 || entered != 1 {
		t.Fatalf("from the copy: %+v, %v, gate entered %d times", p, err, entered)
	}
	for _, rec := range p.Records {
		if rec.MarketplaceSKU != sku {
			t.Errorf("record of %s in %s's product", rec.MarketplaceSKU, sku)
		}
	}
	if keys := ProductKeys(sku, p.Records); !slices.Contains(keys, sku) || !slices.Contains(keys, p.Records[0].Barcode) {
		t.Errorf("history keys %v", keys)
	}
	p, err = r.seller(reader, nil).Product(ctx, "no-such-sku", false)
	if err != nil || !p.Complete || len(p.Records) != 0 {
		t.Errorf("unknown SKU: %+v, %v", p, err)
	}
}

// TestProductSums: a product's stock summed by warehouse in their order,
// its total, and whether its records' statuses differ.
func TestProductSums(t *testing.T) {
	t.Parallel()
	p := &Product{Records: []copystore.Record{{Warehouse: "W2", Quantity: 3, Status: "online"}, {Warehouse: "W1", Quantity: 4, Status: "online"},
		{Warehouse: "W2", Quantity: 5, Status: "online"}}}
	p.sum()
	if want := []Stock{{"W1", 4}, {"W2", 8}}; !slices.Equal(p.Stock, want) || p.Total != 12 || p.MixedStatus {
		t.Errorf("stock %v, total %d, mixed %v", p.Stock, p.Total, p.MixedStatus)
	}
	p = &Product{Records: []copystore.Record{{Status: "online"}, {Status: "disabled"}}}
	if p.sum(); !p.MixedStatus {
		t.Error("two statuses not mixed")
	}
}
