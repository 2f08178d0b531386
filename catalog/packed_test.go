package catalog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestRecordReadsBackPacked: every column of a stored record reads back
// through the packed select list (one value a row), on both databases:
// empty texts, Cyrillic, a negative stock, large prices, a pending change
// and one without.
func TestRecordReadsBackPacked(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(77)
		upd := time.UnixMilli(1_790_000_000_123).UTC()
		recs := []apiclient.Nomenclature{
			{WarehouseCode: "WH-1", Barcode: "4600000000017", MarketplaceSKU: "MP-1", ParentSKU: "P-1", SellerSKU: "S-1",
				Name: "Кроссовки «Бег» ёж", Brand: "", Size: "42", Price: 123456789, SalePrice: 99, Quantity: -3,
				Status: "online", PriceUpdateStatus: "DONE", UpdatedAt: upd},
			{WarehouseCode: "WH-2", Barcode: "4600000000024", MarketplaceSKU: "MP-2", Name: "x\x1fy\x00z", Quantity: 0, Status: "disabled"},
		}
		st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.putPage(ctx, k, &st, 1, 1, len(recs), recs); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkPending(ctx, k, []PriceChange{{SKU: "MP-1", Price: 5000, SalePrice: 4000}}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Nomenclature(ctx, k, Query{Sort: "barcode"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("%d records", len(got))
		}
		a, c := got[0], got[1]
		if a.ID == 0 || a.Warehouse != "WH-1" || a.Barcode != "4600000000017" || a.MarketplaceSKU != "MP-1" || a.ParentSKU != "P-1" ||
			a.SellerSKU != "S-1" || a.Name != "Кроссовки «Бег» ёж" || a.Brand != "" || a.Size != "42" || a.Price != 123456789 ||
			a.SalePrice != 99 || a.Quantity != -3 || a.Status != "online" || a.PriceStatus != "DONE" || !a.UpdatedAt.Equal(upd) {
			t.Errorf("first record %+v", a)
		}
		if a.Pending == nil || a.Pending.Price != 5000 || a.Pending.SalePrice != 4000 || a.Pending.Since.IsZero() {
			t.Errorf("pending %+v", a.Pending)
		}
		// The separator never reaches the copy: control characters are
		// stored as spaces.
		if c.Name != "x y z" || c.Pending != nil || c.ParentSKU != "" || c.Quantity != 0 || c.Status != "disabled" {
			t.Errorf("second record %+v", c)
		}
	})
}

func TestUnpackRejectsWhatDoesNotSplit(t *testing.T) {
	row := strings.Join([]string{"1", "WH", "BC", "MP", "P", "S", "Name", "Brand", "M", "online", "DONE", "100", "90", "5", "1700000000000", "", "", ""}, fieldSep)
	sc := newRecordScanner()
	if err := sc.unpack(row); err != nil || sc.r.Name != "Name" || sc.r.Pending != nil || sc.r.Quantity != 5 {
		t.Fatalf("%v %+v", err, sc.r)
	}
	for _, bad := range []string{row + fieldSep + "x", strings.TrimSuffix(row, fieldSep), strings.Replace(row, "100", "1e2", 1), ""} {
		if err := sc.unpack(bad); !errors.Is(err, errPacked) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = sc.unpack(row) }); n != 0 {
		t.Errorf("unpacking a record allocates %v times", n)
	}
}
