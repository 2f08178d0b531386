package copystore

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
	t.Parallel()
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
		if err := s.putPage(ctx, k, &st, 1, 1, len(recs), mapAll(recs, recordOf)); err != nil {
			t.Fatal(err)
		}
		if err := s.Accept(ctx, k, []Change{{SKU: "MP-1", Price: new(int64(5000)), SalePrice: 4000}}); err != nil {
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

// TestUnpackRejectsWhatDoesNotSplit runs alone (no t.Parallel): AllocsPerRun
// counts the allocations of the whole process.
func TestUnpackRejectsWhatDoesNotSplit(t *testing.T) {
	row := strings.Join([]string{"1", "WH", "BC", "MP", "P", "S", "Name", "Brand", "M", "online", "DONE", "100", "90", "5", "1700000000000", "", "", "", "", ""}, fieldSep)
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

// TestNomenclaturePage: the page's count and rows are CountNomenclature's
// and Nomenclature's, and a revoked copy answers ErrRevoked.
func TestNomenclaturePage(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(79)
		st, _, err := s.beginPass(ctx, k, KindNomenclature, 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var recs []apiclient.Nomenclature
		for i := range 7 {
			recs = append(recs, apiclient.Nomenclature{WarehouseCode: "WH", Barcode: string(rune('a' + i)), MarketplaceSKU: "MP", Price: apiclient.Money(100 * i), Status: "online"})
		}
		if err := s.putPage(ctx, k, &st, 1, 1, len(recs), mapAll(recs, recordOf)); err != nil {
			t.Fatal(err)
		}
		q := Query{Sort: "-price", Limit: 3, Offset: 1, PriceMin: 100}
		var got []string
		total, err := s.NomenclaturePage(ctx, k, q, func(r *Record) error { got = append(got, r.Barcode); return nil })
		if err != nil || total != 6 || strings.Join(got, ",") != "f,e,d" {
			t.Errorf("total %d, rows %v, %v", total, got, err)
		}
		if err := s.Revoke(ctx, k); err != nil {
			t.Fatal(err)
		}
		if _, err := s.NomenclaturePage(ctx, k, q, func(*Record) error { return nil }); !errors.Is(err, ErrRevoked) {
			t.Errorf("revoked: %v", err)
		}
	})
}

// TestSyncStatesPacked: the packed read of the sync states gives every
// field the column-by-column read gives.
func TestSyncStatesPacked(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		k := testKey(80)
		st, _, err := s.beginPass(ctx, k, KindOrders, 0, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.putPage(ctx, k, &st, 1, 300, 29_999, []Order{}); err != nil {
			t.Fatal(err)
		}
		if err := s.recordWait(ctx, k, KindOrders, time.UnixMilli(1_800_000_000_321)); err != nil {
			t.Fatal(err)
		}
		if err := s.recordError(ctx, k, KindOrders, "reading page 2 failed: «ошибка»"); err != nil {
			t.Fatal(err)
		}
		if err := s.recordWait(ctx, k, KindOrders, time.UnixMilli(1_800_000_000_321)); err != nil {
			t.Fatal(err)
		}
		states, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := scanState(s.r.QueryRowContext(ctx, s.q(`SELECT `+stateCols+` FROM catalog_sync WHERE seller_id = ? AND env = ? AND kind = ?`), k.SellerID, k.Env, KindOrders))
		if err != nil {
			t.Fatal(err)
		}
		got := states[KindOrders]
		if len(states) != 1 || got != want || got.NextPage != 2 || got.Pages != 300 || got.Total != 29_999 || got.Waits != 2 ||
			!got.Running || got.LastError == "" || got.WaitUntil.UnixMilli() != 1_800_000_000_321 || got.StartedAt.IsZero() {
			t.Errorf("packed %+v\nwant   %+v", got, want)
		}
	})
}
