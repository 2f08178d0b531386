package massupdate

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// fakeCopy keeps the changes the copy was given.
type fakeCopy struct {
	mu        sync.Mutex
	k         copystore.Key
	changes   []copystore.Change
	confirmed []apiclient.Nomenclature
}

func (f *fakeCopy) Accept(_ context.Context, k copystore.Key, changes []copystore.Change) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.k = k
	f.changes = append(f.changes, changes...)
	return nil
}

func (f *fakeCopy) Confirm(_ context.Context, k copystore.Key, _ time.Time, recs []apiclient.Nomenclature) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.k = k
	f.confirmed = append(f.confirmed, recs...)
	return nil
}

// change is the change given for warehouse|barcode, or for a SKU.
func (f *fakeCopy) change(key string) (copystore.Change, bool) {
	for _, c := range f.changes {
		if c.Warehouse+"|"+c.Barcode == key || c.SKU == key {
			return c, true
		}
	}
	return copystore.Change{}, false
}

// unapproved is a record of the catalogue moderation has not approved:
// the marketplace refuses to put it online.
func unapproved(t *testing.T, cat *Catalog) apiclient.Nomenclature {
	t.Helper()
	for _, rec := range cat.ByKey {
		if (rec.Status == "rejected" || rec.Status == "in_moderation") && rec.SellerSKU != "" {
			return rec
		}
	}
	t.Fatal("no record moderation has not approved")
	return apiclient.Nomenclature{}
}

func msgKeys(msgs i18n.Msgs) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Key)
	}
	return out
}

// A row whose stock was written and whose status was refused: refused,
// with each part's fate in its message, its applied part named, and the
// copy given only that part; an accepted row is given whole.
func TestPatchCopyPartlyApplied(t *testing.T) {
	acct, seller, s, cat := lamodaSandbox(t, 0)
	part := unapproved(t, cat)
	whole := records(t, s, seller, cat, 1)[0]
	partQty, wholeQty := part.Quantity+11, whole.Quantity+3
	items := []SKUStock{
		{StoreItem: apiclient.StoreItem{WarehouseCode: part.WarehouseCode, Barcode: part.Barcode, Quantity: &partQty, Status: "online"}, SellerSKU: part.SellerSKU},
		stockChange(whole, wholeQty),
	}
	rep, err := SendFiltered(context.Background(), &Engine{Locker: &fakeLocker{}}, acct, seller, items)
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Outcomes[keyOf(part)]
	if o.State != Rejected || !slices.Equal(o.Applied, []string{PartQuantity}) ||
		!slices.Equal(msgKeys(o.Messages), []string{"mass.part_quantity_applied", "mass.part_status_refused"}) {
		t.Fatalf("partly applied row: %+v; want refused, quantity applied, a message per part", o)
	}
	if w := rep.Outcomes[keyOf(whole)]; w.State != Accepted || len(w.Applied) != 0 {
		t.Fatalf("accepted row: %+v", w)
	}
	now, err := FetchCatalog(context.Background(), acct, seller)
	if err != nil {
		t.Fatal(err)
	}
	if got := now.ByKey[keyOf(part)]; got.Quantity != partQty || got.Status != part.Status {
		t.Fatalf("the marketplace holds %d %s; want the quantity written, the status not", got.Quantity, got.Status)
	}

	fc := &fakeCopy{}
	k := copystore.Key{SellerID: seller, Env: "test"}
	if err := PatchCopy(context.Background(), fc, k, Stock, rep, storeItems(items)); err != nil {
		t.Fatal(err)
	}
	if c, ok := fc.change(keyOf(part)); !ok || c.Quantity == nil || *c.Quantity != partQty || c.Status != "" {
		t.Errorf("the copy is given %+v for the partly applied row; want its quantity alone", c)
	}
	if c, ok := fc.change(keyOf(whole)); !ok || c.Quantity == nil || *c.Quantity != wholeQty {
		t.Errorf("the copy is given %+v for the accepted row", c)
	}
	if fc.k != k {
		t.Errorf("copy %+v, want %+v", fc.k, k)
	}
}

// PatchCopy gives the copy nothing of a row refused, unanswered or not
// sent.
func TestPatchCopyOnlyAccepted(t *testing.T) {
	updates := []apiclient.PriceUpdate{{MarketplaceSKU: "A", Price: 100_00}, {MarketplaceSKU: "B", Price: 200_00},
		{MarketplaceSKU: "C", Price: 300_00}, {MarketplaceSKU: "D", Price: 400_00}}
	rep := &Report{Outcomes: map[string]Outcome{"A": {State: Accepted}, "B": {State: Rejected}, "C": {State: Unknown}, "D": {State: Unsent}}}
	fc := &fakeCopy{}
	if err := PatchCopy(context.Background(), fc, copystore.Key{}, Prices, rep, updates); err != nil {
		t.Fatal(err)
	}
	if len(fc.changes) != 1 || fc.changes[0].SKU != "A" || fc.changes[0].Price == nil || *fc.changes[0].Price != 100_00 {
		t.Errorf("changes %+v; want A's price alone", fc.changes)
	}
}

// The executor gives the job's copy each chunk's accepted rows: a price
// job's accepted row, not its refused one, and a filtered stock job's row
// partly applied only in its applied part.
func TestExecutorPatchesCopy(t *testing.T) {
	acct, seller := sandboxAccount(t)
	cat, err := FetchCatalog(context.Background(), acct, seller)
	if err != nil {
		t.Fatal(err)
	}
	var sku string
	var rec apiclient.Nomenclature
	for sku, rec = range cat.BySKU {
		break
	}
	fc := &fakeCopy{}
	x := &Executor{Engine: &Engine{Locker: &fakeLocker{}}, Copy: fc,
		Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return acct, nil }}
	job := bulkjobs.Job{ID: "j1", Kind: "prices", SellerID: seller, Environment: "test"}
	items := []bulkjobs.Item{
		item(t, 1, sku, apiclient.PriceUpdate{MarketplaceSKU: sku, Price: rec.Price + 100}),
		item(t, 2, "NO-SUCH-SKU", apiclient.PriceUpdate{MarketplaceSKU: "NO-SUCH-SKU", Price: 100_00}),
	}
	if _, err := x.Send(context.Background(), job, items, func(time.Time, int) {}); err != nil {
		t.Fatal(err)
	}
	if len(fc.changes) != 1 || fc.changes[0].SKU != sku || *fc.changes[0].Price != int64(rec.Price+100) {
		t.Errorf("price job: the copy is given %+v; want %s alone", fc.changes, sku)
	}
	if fc.k != (copystore.Key{SellerID: seller, Env: "test"}) {
		t.Errorf("the job's copy is %+v", fc.k)
	}
	// The read-back confirms the accepted row: the copy is given every
	// record of its product, as the marketplace shows them now.
	if _, err := x.ReadBack(context.Background(), job, items[:1]); err != nil {
		t.Fatal(err)
	}
	if len(fc.confirmed) == 0 {
		t.Error("the read-back confirmed nothing in the copy")
	}
	for _, r := range fc.confirmed {
		if r.MarketplaceSKU != sku || r.Price != rec.Price+100 {
			t.Errorf("the read-back confirms %s at %d, want %s at %d", r.MarketplaceSKU, r.Price, sku, rec.Price+100)
		}
	}

	lacct, lseller, s, lcat := lamodaSandbox(t, 0)
	part, whole := unapproved(t, lcat), records(t, s, lseller, lcat, 1)[0]
	partQty := part.Quantity + 4
	fc = &fakeCopy{}
	x = &Executor{Engine: &Engine{Locker: &fakeLocker{}}, Copy: fc, FilterWrites: true,
		Accounts: func(context.Context, bulkjobs.Job) (*apiclient.Account, error) { return lacct, nil }}
	job = bulkjobs.Job{ID: "j2", Kind: "stock", SellerID: lseller, Environment: "test"}
	res, err := x.Send(context.Background(), job, []bulkjobs.Item{
		item(t, 1, keyOf(part), SKUStock{StoreItem: apiclient.StoreItem{WarehouseCode: part.WarehouseCode, Barcode: part.Barcode, Quantity: &partQty, Status: "online"}, SellerSKU: part.SellerSKU}),
		item(t, 2, keyOf(whole), stockChange(whole, whole.Quantity+1)),
	}, func(time.Time, int) {})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].State != bulkjobs.ItemRejected || !slices.Equal(msgKeys(res[0].Message), []string{"mass.part_quantity_applied", "mass.part_status_refused"}) {
		t.Errorf("the job's row says %+v; want each part's fate", res[0])
	}
	if c, ok := fc.change(keyOf(part)); !ok || c.Quantity == nil || *c.Quantity != partQty || c.Status != "" {
		t.Errorf("stock job: the copy is given %+v for the partly applied row", c)
	}
	if _, ok := fc.change(keyOf(whole)); !ok {
		t.Errorf("stock job: the accepted row is not given to the copy: %+v", fc.changes)
	}
}

// A row partly applied says each part's fate in both languages.
func TestPartMessagesInBothLanguages(t *testing.T) {
	q := 383
	row := SKUStock{StoreItem: apiclient.StoreItem{Quantity: &q, Status: "online"}}
	msgs := partMessages([]partOutcome{
		{part: PartQuantity, row: row, o: Outcome{State: Accepted}},
		{part: PartStatus, row: row, o: Outcome{State: Rejected, Messages: i18n.Plain("moderation has not approved this product")}},
	})
	if got, want := en(msgs), "Quantity 383 applied. Status refused: moderation has not approved this product"; got != want {
		t.Errorf("en %q, want %q", got, want)
	}
	if got, want := ru(msgs), "Количество 383 записано. Статус не записан: moderation has not approved this product"; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
	msgs = partMessages([]partOutcome{
		{part: PartQuantity, row: row, o: Outcome{State: Rejected, Messages: i18n.Plain("too many")}},
		{part: PartStatus, row: row, o: Outcome{State: Accepted}},
	})
	if got, want := ru(msgs), "Количество не записано: too many Статус «В продаже» записан."; got != want {
		t.Errorf("ru %q, want %q", got, want)
	}
}
