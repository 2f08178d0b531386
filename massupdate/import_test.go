package massupdate

import (
	"reflect"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// TestPreviewProfiles: Preview reads a file as each wire profile reads
// it (the four ways of Profile.Items), names the records it needs with
// their cards where prices are keyed by card, names each row's product,
// and marks a card's promotions on a price preview only.
func TestPreviewProfiles(t *testing.T) {
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	cat := NewCatalog()
	for _, n := range []apiclient.Nomenclature{
		{MarketplaceSKU: "MP1", ParentSKU: "C1", SellerSKU: "S1", WarehouseCode: "W", Barcode: "111", Price: 1000_00, Quantity: 3, Status: "active", Name: "Boots"},
		{MarketplaceSKU: "MP2", ParentSKU: "C1", SellerSKU: "S2", WarehouseCode: "", Barcode: "222", Price: 1000_00, Quantity: 1, Status: "active", Name: "Boots"},
	} {
		cat.Add(n)
	}
	prices := &bulkjobs.Table{Header: []string{"sku", "price"}, Rows: [][]string{{"MP1", "800"}, {"MP2", "800"}}, Lines: []int{2, 3}}
	stock := &bulkjobs.Table{Header: []string{"warehouse", "barcode", "quantity"}, Rows: [][]string{{"W", "111", "5"}}, Lines: []int{2}}
	stockNoWarehouse := &bulkjobs.Table{Header: []string{"barcode", "quantity"}, Rows: [][]string{{"222", "5"}}, Lines: []int{2}}
	promos := map[string][]copystore.CardPromotion{"C1": {{PromotionID: 1, Name: "Autumn", ActiveFrom: now.Add(-time.Hour), Floor: 900_00}}}
	for _, tc := range []struct {
		name    string
		profile Profile
		kind    string
		table   *bulkjobs.Table
		direct  func(Previewer, *bulkjobs.Table, bulkjobs.Mapping) []bulkjobs.Item
		cards   bool // the records asked for with their cards
		marked  bool // promotions marked
	}{
		{"prices", Profile{}, "prices", prices, Previewer.PriceItems, false, true},
		{"prices by card", Profile{PricesByCard: true, FilterWrites: true}, "prices", prices, Previewer.CardPriceItems, true, true},
		{"stock", Profile{PricesByCard: true}, "stock", stock, Previewer.StockItems, false, false},
		{"stock by filter", Profile{FilterWrites: true, PricesByCard: true}, "stock", stockNoWarehouse, Previewer.FilterStockItems, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, probs := bulkjobs.MapColumns(tc.table.Header, tc.profile.Columns(tc.kind))
			if len(probs) > 0 {
				t.Fatalf("columns: %v", probs)
			}
			var asked Want
			var promosAsked []string
			got, err := Preview(PreviewInput{Profile: tc.profile, Kind: tc.kind, Table: tc.table, Mapping: m, Guard: 50, Now: now,
				Current: func(w Want) (*Catalog, error) { asked = w; return cat, nil },
				Promotions: func(parents []string) map[string][]copystore.CardPromotion {
					promosAsked = parents
					return promos
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			p := Previewer{Guard: 50, Catalog: cat}
			want := tc.direct(p, tc.table, m)
			p.Named(want)
			if tc.marked {
				p.MarkPromotions(want, promos, now)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("preview\n%+v\nwant\n%+v", got, want)
			}
			if asked.Cards != tc.cards {
				t.Errorf("asked with cards %v, want %v", asked.Cards, tc.cards)
			}
			if tc.marked != (len(promosAsked) > 0) {
				t.Errorf("promotions asked for %v; want them asked: %v", promosAsked, tc.marked)
			}
			if tc.marked && len(marksOf(got[0])) == 0 {
				t.Errorf("no promotion marked on %+v", got[0])
			}
		})
	}
}

// TestProfileKind: a file's kind as chosen, else a stock file when the
// header has a barcode and the stock columns of the profile, else a
// price file.
func TestProfileKind(t *testing.T) {
	for _, tc := range []struct {
		p      Profile
		kind   string
		header []string
		want   string
	}{
		{Profile{}, "prices", []string{"warehouse", "barcode", "quantity"}, "prices"},
		{Profile{}, "", []string{"warehouse", "barcode", "quantity"}, "stock"},
		{Profile{}, "", []string{"barcode", "quantity"}, "prices"},
		{Profile{FilterWrites: true}, "", []string{"barcode", "quantity"}, "stock"},
		{Profile{}, "bogus", []string{"sku", "price"}, "prices"},
	} {
		if got := tc.p.Kind(tc.kind, tc.header); got != tc.want {
			t.Errorf("%+v %q %v: %q, want %q", tc.p, tc.kind, tc.header, got, tc.want)
		}
	}
}
