package massupdate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// marksOf are the keys of the promotion marks of a row's message, in
// order.
func marksOf(it bulkjobs.Item) []string {
	var keys []string
	for _, m := range it.Message {
		if IsPromotionMark(m) {
			keys = append(keys, m.Key)
		}
	}
	return keys
}

// TestPreviewMarksPromotions: in a price file by card, the row carrying a
// card in a running or upcoming promotion is marked with the promotion's
// name and its floor, and, where its new price is below the floor, with
// what the price check and "send anyway" will do; the rows riding along
// with their card are not marked again, a card in no promotion (or in one
// that has ended) not at all, and a price at the floor is not below it.
func TestPreviewMarksPromotions(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	cat := NewCatalog()
	for _, n := range []apiclient.Nomenclature{
		{MarketplaceSKU: "MP1", ParentSKU: "C1", Price: 1000_00},
		{MarketplaceSKU: "MP2", ParentSKU: "C1", Price: 1000_00},
		{MarketplaceSKU: "MP3", ParentSKU: "C2", Price: 500_00},
		{MarketplaceSKU: "MP4", ParentSKU: "C3", Price: 300_00},
		{MarketplaceSKU: "MP5", ParentSKU: "C4", Price: 700_00},
		{MarketplaceSKU: "MP6", ParentSKU: "C5", Price: 600_00},
		{MarketplaceSKU: "MP7", ParentSKU: "C6", Price: 800_00},
	} {
		cat.Add(n)
	}
	promos := map[string][]copystore.CardPromotion{
		"C1": {{PromotionID: 1, Name: "Осень 2026", ActiveFrom: now.Add(-time.Hour), ActiveTo: now.Add(time.Hour), Floor: 900_00}},
		"C2": {{PromotionID: 2, Name: "Зима", ActiveFrom: now.Add(time.Hour)}},
		"C4": {{PromotionID: 3, Name: "Прошла", ActiveFrom: now.Add(-2 * time.Hour), ActiveTo: now.Add(-time.Hour), Floor: 900_00}},
		"C5": {{PromotionID: 1, Name: "Осень 2026", ActiveFrom: now.Add(-time.Hour), Floor: 600_00}},
		"C6": {{PromotionID: 1, Name: "Осень 2026", ActiveFrom: now.Add(-time.Hour), Floor: 900_00}},
	}
	tab := &bulkjobs.Table{Header: []string{"sku", "price"}, Rows: [][]string{
		{"MP1", "800.00"}, // below the floor of C1's running promotion
		{"MP2", "800.00"}, // rides along with MP1's card
		{"MP3", "450.00"}, // C2: an upcoming promotion without a floor
		{"MP4", "250.00"}, // C3: in no promotion
		{"MP5", "650.00"}, // C4: its promotion has ended
		{"MP6", "600.00"}, // C5: at the floor
		{"MP7", "800.00"}, // C6: unchanged, in a promotion
	}, Lines: []int{2, 3, 4, 5, 6, 7, 8}}
	m, probs := bulkjobs.MapColumns(tab.Header, bulkjobs.PriceColumns)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p := Previewer{Catalog: cat}
	items := p.CardPriceItems(tab, m)
	if got, want := p.CardsOf(items), []string{"C1", "C2", "C3", "C4", "C5", "C6"}; !slices.Equal(got, want) {
		t.Errorf("cards to read %v, want %v", got, want)
	}
	p.MarkPromotions(items, promos, now)
	want := map[int][]string{
		2: {"mass.promo_running", "mass.promo_floor", "mass.promo_below"},
		3: nil,
		4: {"mass.promo_upcoming"},
		5: nil,
		6: nil,
		7: {"mass.promo_running", "mass.promo_floor"},
		8: {"mass.promo_running", "mass.promo_floor"},
	}
	for _, it := range items {
		if got := marksOf(it); !slices.Equal(got, want[it.Line]) {
			t.Errorf("row %d (%s, %q): marks %v, want %v", it.Line, it.Flag, it.Message.In(i18n.EN, nil), got, want[it.Line])
		}
	}
	first := items[0]
	if first.Flag != bulkjobs.FlagOK {
		t.Errorf("the marks changed the row's flag: %s", first.Flag)
	}
	if got := first.Message.In(i18n.RU, nil); !strings.Contains(got, "«Осень 2026»") || !strings.Contains(got, "900.00") {
		t.Errorf("row 2 reads %q: want the promotion's name and floor", got)
	}
	// Stored and read back, the marks are still marks.
	var back i18n.Msgs
	v, _ := first.Message.Value()
	if err := back.Scan(v); err != nil {
		t.Fatal(err)
	}
	if got := marksOf(bulkjobs.Item{Message: back}); len(got) != 3 {
		t.Errorf("marks read back %v", got)
	}
}
