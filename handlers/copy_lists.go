package handlers

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// Lists served from the local copy (issue 16): search, sort and filters in
// the URL, so a link reproduces the view. Until the first full copy of the
// seller exists, lists read the marketplace live, as before.

// copyFilter is the search, sort and filters of a list as the URL gives
// them, validated and kept as their canonical text for links.
type copyFilter struct {
	Q, Sort, Status, Warehouse, Stock, PriceMin, PriceMax, From, To string
}

const maxQueryChars = 100

// parseCopyFilter reads q, sort, status (when the list's own status filter
// does not take it), warehouse, stock, price_min, price_max, from and to.
// Values that do not parse are dropped, as the list query drops a bad page.
func parseCopyFilter(c echo.Context, statusTaken bool) copyFilter {
	var f copyFilter
	if q := strings.TrimSpace(c.QueryParam("q")); q != "" && utf8.ValidString(q) {
		if utf8.RuneCountInString(q) > maxQueryChars {
			q = string([]rune(q)[:maxQueryChars])
		}
		f.Q = q
	}
	if s := c.QueryParam("sort"); s != "" && len(s) <= 20 && strings.TrimLeft(strings.TrimPrefix(s, "-"), "abcdefghijklmnopqrstuvwxyz_") == "" {
		f.Sort = s
	}
	if s := c.QueryParam("status"); !statusTaken && slices.Contains(nomenclatureStatuses, s) {
		f.Status = s
	}
	if w := c.QueryParam("warehouse"); w != "" && len(w) <= 64 && utf8.ValidString(w) {
		f.Warehouse = w
	}
	if n, err := strconv.Atoi(c.QueryParam("stock")); err == nil && n >= 0 && n <= 1_000_000 {
		f.Stock = strconv.Itoa(n)
	}
	for _, p := range []struct {
		name string
		dst  *string
	}{{"price_min", &f.PriceMin}, {"price_max", &f.PriceMax}} {
		if v := strings.TrimSpace(c.QueryParam(p.name)); v != "" {
			if k, ok := parseRoubles(v); ok {
				*p.dst = format.MoneyInput(k)
			}
		}
	}
	for _, p := range []struct {
		name string
		dst  *string
	}{{"from", &f.From}, {"to", &f.To}} {
		if t, err := time.Parse(time.DateOnly, c.QueryParam(p.name)); err == nil {
			*p.dst = t.Format(time.DateOnly)
		}
	}
	return f
}

// parseRoubles reads a non-negative amount in roubles ("1499", "1499.50",
// "1499,5") as kopecks.
func parseRoubles(s string) (int64, bool) {
	s = strings.ReplaceAll(s, ",", ".")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 9 || len(frac) > 2 {
		return 0, false
	}
	r, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || r < 0 {
		return 0, false
	}
	k := r * 100
	if frac != "" {
		f, err := strconv.Atoi(frac)
		if err != nil || f < 0 {
			return 0, false
		}
		if len(frac) == 1 {
			f *= 10
		}
		k += int64(f)
	}
	return k, true
}

func (f copyFilter) setValues(v url.Values) {
	for _, kv := range [][2]string{{"q", f.Q}, {"sort", f.Sort}, {"warehouse", f.Warehouse}, {"stock", f.Stock},
		{"price_min", f.PriceMin}, {"price_max", f.PriceMax}, {"from", f.From}, {"to", f.To}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	if f.Status != "" && v.Get("status") == "" {
		v.Set("status", f.Status)
	}
}

// query is the copy's query for list view q.
func (q listQuery) copyQuery() copystore.Query {
	f := q.copy
	cq := copystore.Query{Q: f.Q, Sort: f.Sort, Status: q.Status, Warehouse: f.Warehouse, Limit: q.Limit, Offset: (q.Page - 1) * q.Limit}
	if cq.Status == "" {
		cq.Status = f.Status
	}
	if f.Stock != "" {
		n, _ := strconv.Atoi(f.Stock)
		cq.StockMax = &n
	}
	cq.PriceMin, _ = parseRoubles(f.PriceMin)
	cq.PriceMax, _ = parseRoubles(f.PriceMax)
	if t, err := time.Parse(time.DateOnly, f.From); err == nil {
		cq.From = t
	}
	if t, err := time.Parse(time.DateOnly, f.To); err == nil {
		cq.To = t.AddDate(0, 0, 1) // the whole "to" day
	}
	return cq
}

// fromCopy reports whether the session's lists are served from the copy:
// the copy is on, a first full copy exists, and it is not revoked. It
// returns the sync state for the freshness line. Serving from the copy
// needs credentials known to work (copyAccess).
func (a *App) fromCopy(c echo.Context) (bool, map[string]copystore.SyncState, error) {
	if a.deps.Catalog == nil {
		return false, nil, nil
	}
	states, err := a.copyStates(c)
	if err != nil {
		return false, nil, err
	}
	if copyComplete(states) {
		if err := a.copyAccess(c); err != nil {
			return false, nil, err
		}
	}
	// catalogUse (sync.go), without asking the manager to find out again
	// what the states just read say.
	k := copyKey(c)
	if err := a.deps.Catalog.Store().Touch(c.Request().Context(), k); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: touch failed", "err", err)
	}
	a.deps.Catalog.UseSeen(k, a.copySource(c), states)
	return copyComplete(states), states, nil
}

// copyStatesKey holds the copy's sync states read for this request.
const copyStatesKey = "catalog.states"

// copyStates reads the sync states of the session's copy once per
// request: the dispatch (fromCopy) and the toolbar's freshness line both
// need them, and a page must describe the states it was served under.
func (a *App) copyStates(c echo.Context) (map[string]copystore.SyncState, error) {
	if st, ok := c.Get(copyStatesKey).(map[string]copystore.SyncState); ok {
		return st, nil
	}
	states, err := a.deps.Catalog.Store().SyncStates(c.Request().Context(), copyKey(c))
	if err != nil {
		return nil, err
	}
	c.Set(copyStatesKey, states)
	return states, nil
}

// nomenclaturePage is the dispatch point of the nomenclature and prices
// screens (catalog.go): one page of records from the copy with the URL's
// search, sort and filters once a full copy exists, else from the
// marketplace as before. It returns the records, their total and the
// number of pages.
func (a *App) nomenclaturePage(c echo.Context, ctx context.Context, acct func() *apiclient.Account, seller int64, q listQuery) ([]apiclient.Nomenclature, int, int, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, 0, 0, err
	}
	if !ok {
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, 0, 0, err
		}
		defer unlock()
		return fetchCatalogPage(ctx, acct(), seller, q)
	}
	k := copyKey(c)
	cq := q.copyQuery()
	cs := a.deps.Catalog.Store()
	recs := make([]apiclient.Nomenclature, 0, q.Limit)
	total, err := cs.NomenclaturePage(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		recs = append(recs, copyNomenclature(seller, r))
		return nil
	})
	if err == nil {
		return recs, total, max(1, (total+q.Limit-1)/q.Limit), nil
	}
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return nil, 0, 0, copyRevoked()
	case errors.Is(err, copystore.ErrBadSort):
		q.copy.Sort = ""
		return a.nomenclaturePage(c, ctx, acct, seller, q)
	}
	return nil, 0, 0, err
}

// copyNomenclature is a record of the copy as the marketplace lists it. A
// price change accepted through the dashboard and not yet confirmed by a
// read is shown as the marketplace shows a change in flight.
func copyNomenclature(seller int64, r *copystore.Record) apiclient.Nomenclature {
	n := apiclient.Nomenclature{SellerID: seller, WarehouseCode: r.Warehouse, Barcode: r.Barcode, MarketplaceSKU: r.MarketplaceSKU,
		ParentSKU: r.ParentSKU, SellerSKU: r.SellerSKU, Name: r.Name, Brand: r.Brand, Size: r.Size,
		Price: apiclient.Money(r.Price), SalePrice: apiclient.Money(r.SalePrice), Quantity: r.Quantity, Status: r.Status,
		PriceUpdateStatus: r.PriceStatus, UpdatedAt: r.UpdatedAt}
	if r.Pending != nil {
		n.Price, n.SalePrice, n.PriceUpdateStatus = apiclient.Money(r.Pending.Price), apiclient.Money(r.Pending.SalePrice), "PROCESSING"
	}
	return n
}

// nomenclatureSorts are the sort choices of the nomenclature toolbar.
var nomenclatureSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_marketplace_order")}, {Value: "name", Label: i18n.K("copy.sort_name_az")}, {Value: "-name", Label: i18n.K("copy.sort_name_za")},
	{Value: "price", Label: i18n.K("copy.sort_price_asc")}, {Value: "-price", Label: i18n.K("copy.sort_price_desc")},
	{Value: "quantity", Label: i18n.K("copy.sort_stock_asc")}, {Value: "-quantity", Label: i18n.K("copy.sort_stock_desc")},
	{Value: "-updated", Label: i18n.K("copy.sort_recently_updated")}, {Value: "sku", Label: i18n.K("copy.sort_sku")}, {Value: "barcode", Label: i18n.K("copy.sort_barcode")},
	{Value: "warehouse", Label: i18n.K("copy.sort_warehouse")}, {Value: "status", Label: i18n.K("copy.sort_status")},
}

// priceSorts are the sort choices of the prices toolbar: every column of
// the price table the copy holds (the SKU, the product's name, the current
// price and sale price and their update status), both ways, and the
// warehouse the records are listed under.
var priceSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_marketplace_order")}, {Value: "sku", Label: i18n.K("copy.sort_sku")}, {Value: "-sku", Label: i18n.K("copy.sort_sku_desc")},
	{Value: "name", Label: i18n.K("copy.sort_name_az")}, {Value: "-name", Label: i18n.K("copy.sort_name_za")},
	{Value: "price", Label: i18n.K("copy.sort_price_asc")}, {Value: "-price", Label: i18n.K("copy.sort_price_desc")},
	{Value: "sale_price", Label: i18n.K("copy.sort_sale_asc")}, {Value: "-sale_price", Label: i18n.K("copy.sort_sale_desc")},
	{Value: "price_status", Label: i18n.K("copy.sort_price_status")}, {Value: "-price_status", Label: i18n.K("copy.sort_price_status_desc")},
	{Value: "warehouse", Label: i18n.K("copy.sort_warehouse")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}

// sortHead is the head of a column of a list from the copy: a link to
// the first page sorted by col, descending when the list is sorted by it
// ascending, with the current direction for aria-sort.
func (q listQuery) sortHead(path, col string) pages.SortHead {
	h := pages.SortHead{}
	next := q
	next.Page = 1
	next.copy.Sort = col
	switch q.copy.Sort {
	case col:
		next.copy.Sort, h.Dir = "-"+col, "ascending"
	case "-" + col:
		h.Dir = "descending"
	}
	h.Href = next.link(path)
	return h
}

// copyToolbar is the search and filter form of a list served from the
// copy, with its freshness line; nil when the list is read live.
func (a *App) copyToolbar(c echo.Context, path string, q listQuery, sorts []pages.Option) (*pages.CopyToolbar, error) {
	if a.deps.Catalog == nil {
		return nil, nil
	}
	states, err := a.copyStates(c)
	if err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	l := i18n.LangOf(ctx)
	sv := a.syncView(ctx, states, false)
	sorts = a.localSorts(l, sorts)
	tb := &pages.CopyToolbar{Action: path, Sync: sv, Live: !copyComplete(states), Q: q.copy.Q, Sort: q.copy.Sort, Sorts: sorts,
		Warehouse: q.copy.Warehouse, Stock: q.copy.Stock, PriceMin: q.copy.PriceMin, PriceMax: q.copy.PriceMax,
		From: q.copy.From, To: q.copy.To, KeepStatus: q.Status}
	switch path {
	case "/nomenclature", "/prices": // both list nomenclature records
		tb.Records, tb.Placeholder = true, i18n.T(ctx, "copy.placeholder_records")
		tb.Status, tb.Statuses = q.copy.Status, a.copyStatusOptions(ctx, l)
		// The whole filtered list, prices included, from either screen.
		all := q
		all.Page, all.Limit = 1, all.def
		tb.ExportCSV, tb.ExportXLSX = all.link("/nomenclature/export-all.csv"), all.link("/nomenclature/export-all.xlsx")
	case "/orders":
		tb.Dates, tb.Placeholder = true, i18n.T(ctx, "copy.placeholder_orders")
	default:
		tb.Placeholder = i18n.T(ctx, "copy.placeholder_boxes")
	}
	if q.Limit != q.def {
		tb.Limit = strconv.Itoa(q.Limit)
	}
	return tb, nil
}

// toolbarOptionsKey names a toolbar choice list of App.toolbarOptions.
type toolbarOptionsKey struct {
	lang i18n.Lang
	list *pages.Option // the first option of the package's list; nil: the status choices
}

// localSorts is sorts (one of the package's lists) labelled in l.
func (a *App) localSorts(l i18n.Lang, sorts []pages.Option) []pages.Option {
	if len(sorts) == 0 {
		return nil
	}
	return a.toolbarOptions.get(toolbarOptionsKey{l, &sorts[0]}, func() []pages.Option {
		local := make([]pages.Option, len(sorts))
		for i, o := range sorts {
			local[i] = pages.Option{Value: o.Value, Label: i18n.In(l, o.Label, nil, nil)} // keys checked where written (i18n.K)
		}
		return local
	})
}

// copyStatusOptions is the nomenclature toolbar's status choices in l.
func (a *App) copyStatusOptions(ctx context.Context, l i18n.Lang) []pages.Option {
	return a.toolbarOptions.get(toolbarOptionsKey{l, nil}, func() []pages.Option {
		return localStatusOptions(ctx, nomenclatureStatuses, i18n.T(ctx, "copy.any_status"))
	})
}

// copyPricesAccepted patches the copy with the price changes the
// marketplace accepted (the dispatch point of the prices forms, prices.go
// and prices_cards.go): every record of each SKU, or of each product card
// in the lamoda profile, shows the new prices at once, marked pending
// until the next read confirms them. item gives the i-th of n items sent:
// its report key (a SKU or a card) and its prices.
func (a *App) copyPricesAccepted(c echo.Context, rep *massupdate.Report, n int, item func(i int) (string, apiclient.PriceUpdate)) {
	if a.deps.Catalog == nil || rep == nil {
		return
	}
	var changes []copystore.PriceChange
	for i := range n {
		key, u := item(i)
		if rep.Outcomes[key].State != massupdate.Accepted {
			continue
		}
		ch := copystore.PriceChange{SKU: key, Price: u.Price.Kopecks()}
		if u.SalePrice != nil {
			ch.SalePrice = u.SalePrice.Kopecks()
		}
		changes = append(changes, ch)
	}
	if len(changes) == 0 {
		return
	}
	if err := a.deps.Catalog.Store().MarkPending(context.WithoutCancel(c.Request().Context()), copyKey(c), changes); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: marking accepted prices failed", "err", err)
	}
}

// orderSorts are the sort choices of the orders toolbar.
var orderSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-sum", Label: i18n.K("copy.sort_sum_desc")},
	{Value: "sum", Label: i18n.K("copy.sort_sum_asc")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")}, {Value: "order", Label: i18n.K("copy.sort_order_number")},
	{Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}

// ordersPage is the dispatch point of the orders list (orders.go): a page
// from the copy with the URL's search, sort and dates once a full copy
// exists, else from the marketplace as before.
func (a *App) ordersPage(c echo.Context, q listQuery) (*apiclient.OrderList, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	if !ok {
		ctx := a.pageContext(c)
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		// The list shows ItemQuantity, never the items: skip decoding them.
		return a.account(c).B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: q.Page, Limit: q.Limit, Status: q.Status, WithoutItems: true})
	}
	k := copyKey(c)
	cq := q.copyQuery()
	cq.Status = q.Status // the nomenclature's statuses are not the orders'
	cs := a.deps.Catalog.Store()
	total, err := cs.CountOrders(c.Request().Context(), k, cq)
	var orders []copystore.Order
	if err == nil {
		orders, err = cs.Orders(c.Request().Context(), k, cq)
	}
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return nil, copyRevoked()
	case errors.Is(err, copystore.ErrBadSort):
		q.copy.Sort = ""
		return a.ordersPage(c, q)
	case err != nil:
		return nil, err
	}
	list := &apiclient.OrderList{Page: q.Page, Limit: q.Limit, Total: total, Pages: max(1, (total+q.Limit-1)/q.Limit), Orders: make([]apiclient.Order, 0, len(orders))}
	for _, o := range orders {
		list.Orders = append(list.Orders, apiclient.Order{OrderNr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod, Currency: o.Currency,
			FullSum: apiclient.Money(o.FullSum), DeliveryPrice: apiclient.Money(o.DeliveryPrice), CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
			IsConfirmed: o.IsConfirmed, ItemQuantity: o.ItemQuantity})
	}
	return list, nil
}

// boxSorts are the sort choices of the return boxes toolbar.
var boxSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")},
	{Value: "code", Label: i18n.K("copy.sort_box_code")}, {Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}

// boxesPage is the dispatch point of the return boxes list (boxes.go): a
// page from the copy with the URL's search and sort once a full copy
// exists, else from the marketplace as before.
func (a *App) boxesPage(c echo.Context, q listQuery) (*apiclient.ReturnBoxList, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	if !ok {
		ctx := a.pageContext(c)
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		return a.account(c).ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{
			SellerID: session(c).Data().SellerID, Page: q.Page, Limit: q.Limit, Status: q.Status,
		})
	}
	cq := q.copyQuery()
	cq.Status = q.Status
	k := copyKey(c)
	cs := a.deps.Catalog.Store()
	total, err := cs.CountBoxes(c.Request().Context(), k, cq)
	var boxes []copystore.Box
	if err == nil {
		boxes, err = cs.Boxes(c.Request().Context(), k, cq)
	}
	switch {
	case errors.Is(err, copystore.ErrRevoked):
		return nil, copyRevoked()
	case errors.Is(err, copystore.ErrBadSort):
		q.copy.Sort = ""
		return a.boxesPage(c, q)
	case err != nil:
		return nil, err
	}
	list := &apiclient.ReturnBoxList{Page: q.Page, Limit: q.Limit, Total: total, Pages: max(1, (total+q.Limit-1)/q.Limit), Boxes: make([]apiclient.ReturnBox, 0, len(boxes))}
	for _, b := range boxes {
		rb := apiclient.ReturnBox{Code: b.Code, Status: b.Status, DimensionSymbol: b.Dimension, ItemQuantity: b.ItemQuantity, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
		if !b.ShippedAt.IsZero() {
			t := b.ShippedAt
			rb.ShippedAt = &t
		}
		list.Boxes = append(list.Boxes, rb)
	}
	return list, nil
}
