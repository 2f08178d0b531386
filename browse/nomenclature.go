package browse

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// UpstreamLimit is the largest page asked of the marketplace at once; a
// larger page of the screens is read as several.
const UpstreamLimit = 100

// Record is one record of the seller's nomenclature (a product at a
// warehouse) as the nomenclature and prices screens show it, read from
// the copy or live. Amounts are in kopecks.
type Record struct {
	WarehouseCode, Barcode, MarketplaceSKU string
	// ParentSKU is the product card the record is a size of (the lamoda
	// profile; empty in the contract profile).
	ParentSKU, SellerSKU, Name, Brand, Size string
	Price, SalePrice                        int64
	Quantity                                int
	// Status is the record's status; PriceUpdateStatus the state of its
	// last price change ("OK", "PROCESSING", "ERROR").
	Status, PriceUpdateStatus string
	UpdatedAt                 time.Time
	// QuantityPending and StatusPending mark, in a record read from the
	// copy, a quantity or a status the marketplace accepted through the
	// dashboard that no read has confirmed yet.
	QuantityPending, StatusPending bool
}

// OnSale reports whether the product sells below its price
// (massupdate.OnSale: a sale price equal to the price is no sale).
func (r Record) OnSale() bool { return massupdate.OnSale(r.Price, r.SalePrice) }

// Product is the product the record belongs to: its SKU, or with byCard
// (the lamoda profile) its card.
func (r Record) Product(byCard bool) string {
	if byCard {
		return r.ParentSKU
	}
	return r.MarketplaceSKU
}

// wire is the record as the marketplace lists it, for the mass-update
// engine, which works on the marketplace's records.
func (r Record) wire(seller int64) apiclient.Nomenclature {
	return apiclient.Nomenclature{SellerID: seller, WarehouseCode: r.WarehouseCode, Barcode: r.Barcode, MarketplaceSKU: r.MarketplaceSKU,
		ParentSKU: r.ParentSKU, SellerSKU: r.SellerSKU, Name: r.Name, Brand: r.Brand, Size: r.Size,
		Price: apiclient.Money(r.Price), SalePrice: apiclient.Money(r.SalePrice), Quantity: r.Quantity, Status: r.Status,
		PriceUpdateStatus: r.PriceUpdateStatus, UpdatedAt: r.UpdatedAt, QuantityPending: r.QuantityPending, StatusPending: r.StatusPending}
}

// Wire are recs as the marketplace lists them, for the mass-update use
// cases that work on the marketplace's records (massupdate.GroupCards).
func Wire(recs []Record) []apiclient.Nomenclature {
	out := make([]apiclient.Nomenclature, len(recs))
	for i, r := range recs {
		out[i] = r.wire(0)
	}
	return out
}

// wireRecord is a record the marketplace listed.
func wireRecord(n *apiclient.Nomenclature) Record {
	return Record{WarehouseCode: n.WarehouseCode, Barcode: n.Barcode, MarketplaceSKU: n.MarketplaceSKU, ParentSKU: n.ParentSKU,
		SellerSKU: n.SellerSKU, Name: n.Name, Brand: n.Brand, Size: n.Size, Price: int64(n.Price), SalePrice: int64(n.SalePrice),
		Quantity: n.Quantity, Status: n.Status, PriceUpdateStatus: n.PriceUpdateStatus, UpdatedAt: n.UpdatedAt,
		QuantityPending: n.QuantityPending, StatusPending: n.StatusPending}
}

// NomenclaturePage is one page of the nomenclature (and prices) screens.
type NomenclaturePage struct {
	Records      []Record
	Total, Pages int
	// Page is the page read: the last one when the cursor read from the
	// end, else the query's.
	Page int
	// Ends are the keyset positions at the page's ends, for the pager's
	// links; nil when its links go by page number.
	Ends *Ends
}

// Nomenclature is the page of the seller's records q describes: from the
// copy, with its search, sort and filters, once a full copy exists, placed
// by q.Cursor when it fits the sort (else by page number); else live, a
// marketplace page (or several, for a page larger than UpstreamLimit)
// under the seller's lock.
func (s *Seller) Nomenclature(ctx context.Context, q Query) (*NomenclaturePage, error) {
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		lctx := s.acc.Live()
		unlock, err := s.lock(lctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		recs, total, npages, err := LivePage(lctx, s.acc.Account, s.key.SellerID, q.Page, q.Limit)
		if err != nil {
			return nil, err
		}
		return &NomenclaturePage{Records: recs, Total: total, Pages: npages, Page: q.Page}, nil
	}
	if ctx, err = s.enter(ctx); err != nil {
		return nil, err
	}
	var cur *copystore.Cursor
	if q.Cursor != "" {
		if p, err := copystore.ParseCursor(q.Cursor); err == nil && p.Sort == q.Copy.Sort {
			cur = &p
		}
	}
	return s.copyNomenclature(ctx, q, cur)
}

// copyNomenclature reads the page of q from the copy, placed by cur when
// not nil (a cursor the store refuses falls back to the page number; a
// sort it does not know reads in the list order, the links going by page
// number).
func (s *Seller) copyNomenclature(ctx context.Context, q Query, cur *copystore.Cursor) (*NomenclaturePage, error) {
	cq := q.Copy
	cq.Limit, cq.Offset, cq.Cursor = q.Limit, (q.Page-1)*q.Limit, cur
	recs := make([]Record, 0, q.Limit)
	var first, last copystore.Record
	total, err := s.r.copy.Store().NomenclaturePage(ctx, s.key, cq, func(r *copystore.Record) error {
		if len(recs) == 0 {
			first = *r
		}
		last = *r
		recs = append(recs, Listed(r))
		return nil
	})
	switch {
	case err == nil:
		p := &NomenclaturePage{Records: recs, Total: total, Pages: pages(total, q.Limit), Page: q.Page}
		if cur != nil && cur.End {
			p.Page = p.Pages
		}
		p.Ends = newEnds(q.Copy.Sort, len(recs), &first, &last)
		return p, nil
	case errors.Is(err, copystore.ErrBadCursor):
		return s.copyNomenclature(ctx, q, nil)
	case errors.Is(err, copystore.ErrBadSort):
		qq := q
		qq.Copy.Sort = ""
		p, err := s.copyNomenclature(ctx, qq, nil)
		if p != nil {
			p.Ends = nil
		}
		return p, err
	}
	return nil, err
}

// LivePage reads one screen page of seller's nomenclature from the
// marketplace, sequentially, as marketplace pages of at most
// UpstreamLimit records: the records, their total and the screen's
// number of pages. The caller holds the seller's lock.
func LivePage(ctx context.Context, acct *apiclient.Account, seller int64, page, limit int) ([]Record, int, int, error) {
	if limit <= UpstreamLimit {
		list, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: page, Limit: limit})
		if err != nil {
			return nil, 0, 0, err
		}
		return wireRecords(nil, list.Nomenclatures), list.Total, list.Pages, nil
	}
	per := limit / UpstreamLimit
	first := (page-1)*per + 1
	var recs []Record
	total := 0
	for p := first; p < first+per; p++ {
		list, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: p, Limit: UpstreamLimit})
		if err != nil {
			return nil, 0, 0, err
		}
		recs = wireRecords(recs, list.Nomenclatures)
		total = list.Total
		if p >= list.Pages {
			break
		}
	}
	return recs, total, (total + limit - 1) / limit, nil
}

// wireRecords appends the records the marketplace listed to recs.
func wireRecords(recs []Record, list []apiclient.Nomenclature) []Record {
	recs = slices.Grow(recs, len(list))
	for i := range list {
		recs = append(recs, wireRecord(&list[i]))
	}
	return recs
}

// Listed is a record of the copy as the screens list it, live or not. A
// price change accepted through the dashboard and not yet confirmed by a
// read is shown as the marketplace shows a change in flight; a quantity
// or a status so accepted is the record's, marked pending.
func Listed(r *copystore.Record) Record {
	n := Record{WarehouseCode: r.Warehouse, Barcode: r.Barcode, MarketplaceSKU: r.MarketplaceSKU,
		ParentSKU: r.ParentSKU, SellerSKU: r.SellerSKU, Name: r.Name, Brand: r.Brand, Size: r.Size,
		Price: r.Price, SalePrice: r.SalePrice, Quantity: r.Quantity, Status: r.Status,
		PriceUpdateStatus: r.PriceStatus, UpdatedAt: r.UpdatedAt, QuantityPending: r.QuantityPending, StatusPending: r.StatusPending}
	if r.Pending != nil {
		n.Price, n.SalePrice, n.PriceUpdateStatus = r.Pending.Price, r.Pending.SalePrice, "PROCESSING"
	}
	return n
}

// Ends are the keyset positions at the ends of a page read from the
// copy: after its last record and before its first, in its sort.
type Ends struct {
	sort        string
	first, last copystore.Cursor
}

// newEnds are the ends of a page of n records sorted by sort, first and
// last its first and last records; nil for an empty page.
func newEnds(sort string, n int, first, last *copystore.Record) *Ends {
	if n == 0 {
		return nil
	}
	e := &Ends{sort: sort}
	var err error
	if e.first, err = copystore.CursorAt(sort, first); err != nil {
		return nil
	}
	if e.last, err = copystore.CursorAt(sort, last); err != nil {
		return nil
	}
	e.first.Before = true
	return e
}

// CursorTo is the cursor text of the pager link from page from to page p
// of pages (limit records each), or "" where the link goes by page
// number: the first page, pages not next to from, a position too long
// for a link. The next page and the one after start after from's last
// record, the previous page and the one before end before its first,
// and the last page is read from the end. A nil Ends has none.
func (e *Ends) CursorTo(from, p, pages, limit int) string {
	if e == nil || p <= 1 || p == from {
		return ""
	}
	var c copystore.Cursor
	switch {
	case p == pages:
		c = copystore.Cursor{Sort: e.sort, Before: true, End: true}
	case p == from+1 || p == from+2:
		c = e.last
		c.Skip = (p - from - 1) * limit
	case p == from-1 || p == from-2:
		c = e.first
		c.Skip = (from - p - 1) * limit
	default:
		return ""
	}
	text, _ := c.Text()
	return text
}

// ErrTooManyPages ends EachRecord's live walk past its bound of pages.
var ErrTooManyPages = errors.New("browse: the live list has more pages than asked for")

// EachRecord calls fn with every record of the seller's catalogue q
// selects (its Page, Limit and Cursor aside), in its sort, until fn
// returns an error: from the copy once a full copy exists (a sort it
// does not know reads in the list order, as the page on screen), else
// live, page by page, each page under the seller's lock (the
// marketplace's list has no filters, as the live list on screen has
// none), for at most maxPages pages (then ErrTooManyPages).
func (s *Seller) EachRecord(ctx context.Context, q Query, maxPages int, fn func(Record) error) error {
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return err
	}
	if ok {
		if ctx, err = s.enter(ctx); err != nil {
			return err
		}
		cq := q.Copy
		cs := s.r.copy.Store()
		if _, err := cs.Nomenclature(ctx, s.key, copystore.Query{Sort: cq.Sort, Limit: 1}); errors.Is(err, copystore.ErrBadSort) {
			cq.Sort = ""
		}
		return cs.ExportNomenclature(ctx, s.key, cq, func(r *copystore.Record) error { return fn(Listed(r)) })
	}
	lctx := s.acc.Live()
	for page := 1; page <= maxPages; page++ {
		unlock, err := s.lock(lctx)
		if err != nil {
			return err
		}
		recs, _, pages, err := LivePage(lctx, s.acc.Account, s.key.SellerID, page, UpstreamLimit)
		unlock()
		if err != nil {
			return err
		}
		for _, n := range recs {
			if err := fn(n); err != nil {
				return err
			}
		}
		if len(recs) == 0 || page >= pages {
			return nil
		}
	}
	return ErrTooManyPages
}

// Ahead is a page of the nomenclature read ahead of its use (ReadAhead);
// Done says it was read (Err included).
type Ahead struct {
	Page *NomenclaturePage
	Err  error
	Done bool
}

// ReadAhead is the read of the page q describes into into, for a page
// read live: the caller runs it while it holds the seller's lock for a
// write (massupdate.Send runs it beside its last chunk), so the answer
// page costs no turn of its own. Nil for a page from the copy, which is
// read after the write and shows what the marketplace accepted, pending.
func (s *Seller) ReadAhead(ctx context.Context, q Query, into *Ahead) (func(), error) {
	ok, err := s.FromCopy(ctx)
	if err != nil || ok {
		return nil, err
	}
	lctx, acct := s.acc.Live(), s.acc.Account
	return func() {
		recs, total, npages, err := LivePage(lctx, acct, s.key.SellerID, q.Page, q.Limit)
		*into = Ahead{Page: &NomenclaturePage{Records: recs, Total: total, Pages: npages, Page: q.Page}, Err: err, Done: true}
	}, nil
}
