package handlers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// maxImportBytes bounds an uploaded file (the body limit of the group is
// larger, for the multipart envelope).
const maxImportBytes = 6 << 20

// importParseBudget bounds reading one uploaded file; the size limits of
// bulkjobs stop a bomb long before it.
const importParseBudget = 15 * time.Second

// maxConcurrentImports is how many files the whole dashboard parses at
// once (one per core of a small machine).
const maxConcurrentImports = 2

// importGate lets one file per seller, and a few in all, be parsed at a
// time: parsing is the costly part of an import, and a seller's second
// upload while the first is read is a double click, not more work.
type importGate struct {
	mu      sync.Mutex
	sellers map[int64]bool
	running int
	max     int
	// held, when set, runs while an import holds its place (tests hold
	// one there to see what a second upload gets).
	held func()
}

func newImportGate(max int) *importGate {
	return &importGate{sellers: map[int64]bool{}, max: max}
}

// enter takes a place for seller's import. When none is free it returns
// how many seconds to wait before trying again, and a no-op release.
func (g *importGate) enter(seller int64) (release func(), wait int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sellers[seller] || g.running >= g.max {
		return func() {}, 5
	}
	g.sellers[seller] = true
	g.running++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			delete(g.sellers, seller)
			g.running--
			g.mu.Unlock()
		})
	}, 0
}

// ---- export ----

// exportView writes the page on screen of /prices or /nomenclature
// (exactly its page and limit) as CSV or XLSX.
func (a *App) exportView(c echo.Context, view, ext string) error {
	q := catalogQuery(c)
	if view == "prices" {
		q = pricesQuery(c)
	}
	sess := session(c)
	recs, _, _, err := fetchCatalogPage(a.pageContext(c), a.account(c), sess.Data().SellerID, q)
	if err != nil {
		return err
	}
	var sheet bulkjobs.Sheet
	switch view {
	case "prices":
		sheet = bulkjobs.Sheet{Name: "Prices", Numeric: map[int]bool{4: true, 5: true},
			Header: []string{"Marketplace SKU", "Name", "Brand", "Size", "Price", "Sale price", "Sale start", "Sale end", "Price update status", "Warehouses"}}
		index := map[string]int{}
		for _, n := range recs {
			if i, ok := index[n.MarketplaceSKU]; ok {
				sheet.Rows[i][9] += ", " + n.WarehouseCode
				continue
			}
			index[n.MarketplaceSKU] = len(sheet.Rows)
			sale := ""
			if n.SalePrice > 0 {
				sale = format.MoneyInput(int64(n.SalePrice))
			}
			sheet.Rows = append(sheet.Rows, []string{n.MarketplaceSKU, n.Name, n.Brand, n.Size, format.MoneyInput(int64(n.Price)), sale, "", "",
				n.PriceUpdateStatus, n.WarehouseCode})
		}
	default:
		sheet = bulkjobs.Sheet{Name: "Nomenclature", Numeric: map[int]bool{8: true, 9: true, 10: true},
			Header: []string{"Warehouse", "Barcode", "Marketplace SKU", "Seller SKU", "Name", "Brand", "Size", "Status", "Quantity", "Price", "Sale price"}}
		for _, n := range recs {
			sale := ""
			if n.SalePrice > 0 {
				sale = format.MoneyInput(int64(n.SalePrice))
			}
			sheet.Rows = append(sheet.Rows, []string{n.WarehouseCode, n.Barcode, n.MarketplaceSKU, n.SellerSKU, n.Name, n.Brand, n.Size, n.Status,
				strconv.Itoa(n.Quantity), format.MoneyInput(int64(n.Price)), sale})
		}
	}
	name := bulkjobs.FileName(ext, view, "seller-"+strconv.FormatInt(sess.Data().SellerID, 10), sess.Data().Environment,
		"page-"+strconv.Itoa(q.Page), "limit-"+strconv.Itoa(q.Limit))
	return a.sendSheet(c, sheet, ext, name)
}

// exportQuery is the query of the export links of a /prices or
// /nomenclature page: exactly its page and limit; "" without a job store
// (no export routes).
func (a *App) exportQuery(q listQuery) string {
	if a.deps.Jobs == nil {
		return ""
	}
	return "?page=" + strconv.Itoa(q.Page) + "&limit=" + strconv.Itoa(q.Limit)
}

// sendSheet answers with a sheet as a download.
func (a *App) sendSheet(c echo.Context, sheet bulkjobs.Sheet, ext, name string) error {
	var buf bytes.Buffer
	var err error
	ctype := "text/csv; charset=utf-8"
	if ext == "xlsx" {
		ctype = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		err = bulkjobs.WriteXLSX(&buf, sheet)
	} else {
		err = bulkjobs.WriteCSV(&buf, sheet)
	}
	if err != nil {
		return err
	}
	if err := a.saveSession(c); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, ctype, buf.Bytes())
}

// ---- import ----

// BulkImportForm shows the upload form.
func (a *App) BulkImportForm(c echo.Context) error {
	f := pages.ImportForm{Kind: c.QueryParam("kind"), GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusOK, pages.ImportPage(a.chrome(c, "Bulk import", "bulk"), f), nil)
}

func (a *App) importFailed(c echo.Context, kind, msg string) error {
	f := pages.ImportForm{Kind: kind, Error: msg, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusUnprocessableEntity, pages.ImportPage(a.chrome(c, "Bulk import", "bulk"), f), nil)
}

// BulkImportUpload reads an uploaded file, checks every row against the
// current catalogue and stores the preview as a job not yet submitted.
func (a *App) BulkImportUpload(c echo.Context) error {
	kind := c.FormValue("kind")
	fh, err := c.FormFile("file")
	if err != nil {
		return a.importFailed(c, kind, "Choose a CSV or XLSX file to upload.")
	}
	if fh.Size > maxImportBytes {
		return a.importFailed(c, kind, fmt.Sprintf("The file is larger than %d MB; split it into smaller files.", maxImportBytes>>20))
	}
	f, err := fh.Open()
	if err != nil {
		return a.importFailed(c, kind, "The file could not be read.")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	f.Close()
	if err != nil || len(data) > maxImportBytes {
		return a.importFailed(c, kind, "The file could not be read.")
	}
	release, wait := a.imports.enter(session(c).Data().SellerID)
	if wait > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		f := pages.ImportForm{Kind: kind, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20,
			Error: "Another file is being read right now. Wait a few seconds and upload it again."}
		return a.render(c, http.StatusTooManyRequests, pages.ImportPage(a.chrome(c, "Bulk import", "bulk"), f), nil)
	}
	if a.imports.held != nil {
		a.imports.held()
	}
	pctx, cancel := context.WithTimeout(c.Request().Context(), importParseBudget)
	table, err := bulkjobs.ReadTableContext(pctx, data)
	cancel()
	release()
	if err != nil {
		return a.importFailed(c, kind, "The file could not be read: "+err.Error()+".")
	}
	if kind != "prices" && kind != "stock" {
		kind = detectKind(table.Header)
	}
	cols := bulkjobs.PriceColumns
	if kind == "stock" {
		cols = bulkjobs.StockColumns
	}
	m, probs := bulkjobs.MapColumns(table.Header, cols)
	if len(probs) > 0 {
		msgs := make([]string, len(probs))
		for i, p := range probs {
			msgs[i] = p.Error()
		}
		return a.importFailed(c, kind, "The header row is not usable: "+strings.Join(msgs, "; ")+".")
	}
	sess := session(c)
	d := sess.Data()
	catalog, err := a.fetchCatalog(a.pageContext(c), a.account(c), d.SellerID)
	if err != nil {
		return err
	}
	p := previewer{guard: a.deps.Jobs.GuardPercent(), catalog: catalog}
	var items []bulkjobs.Item
	switch { // issue 15: the lamoda profile's cards and stock (bulk_cards.go)
	case kind == "stock" && a.stockUnavailable() != "":
		items = refuseStockItems(p.stockItems(table, m), a.stockUnavailable())
	case kind == "stock":
		items = p.stockItems(table, m)
	case a.deps.API.PricesByCard():
		items = p.cardPriceItems(table, m)
	default:
		items = p.priceItems(table, m)
	}
	job := &bulkjobs.Job{
		ID: newJobID(), Kind: kind, State: bulkjobs.StatePreview,
		ClientID: d.ClientID, DisplayName: d.DisplayName, Environment: d.Environment, SellerID: d.SellerID,
		FileName: format.Clean(fh.Filename), GuardPercent: p.guard, ChunkSize: a.deps.ChunkSize, CreatedAt: a.deps.Now(),
	}
	if len(job.FileName) > 200 {
		job.FileName = job.FileName[:200]
	}
	if err := a.deps.Jobs.Store().CreateJob(c.Request().Context(), job, items); err != nil {
		return errSessionStore(err)
	}
	a.logger(c.Request().Context()).Info("bulk import previewed", "job", job.ID, "kind", kind, "rows", len(items))
	return a.redirect(c, "/bulk/jobs/"+job.ID)
}

func detectKind(header []string) string {
	if m, probs := bulkjobs.MapColumns(header, bulkjobs.StockColumns); len(probs) == 0 && m.Has("barcode") {
		return "stock"
	}
	return "prices"
}

func newJobID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// catalog is the seller's whole catalogue, as read at one moment.
type catalog struct {
	bySKU map[string]apiclient.Nomenclature // first record of each product
	byKey map[string]apiclient.Nomenclature // warehouse|barcode
}

// fetchCatalog reads every nomenclature record of the seller.
func (a *App) fetchCatalog(ctx context.Context, acct *apiclient.Account, seller int64) (*catalog, error) {
	cat := &catalog{bySKU: map[string]apiclient.Nomenclature{}, byKey: map[string]apiclient.Nomenclature{}}
	for n, err := range acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: upstreamPageLimit}) {
		if err != nil {
			return nil, err
		}
		if _, ok := cat.bySKU[n.MarketplaceSKU]; !ok {
			cat.bySKU[n.MarketplaceSKU] = n
		}
		cat.byKey[n.WarehouseCode+"|"+n.Barcode] = n
	}
	return cat, nil
}

// priceNow is a product's price as the preview saw it (kopecks).
type priceNow struct {
	Price int64 `json:"price"`
	Sale  int64 `json:"sale"` // 0: no sale price
}

// stockNow is a record's stock as the preview saw it.
type stockNow struct {
	Quantity int    `json:"quantity"`
	Status   string `json:"status"`
}

func currentPrice(n apiclient.Nomenclature) priceNow {
	p := priceNow{Price: int64(n.Price)}
	if n.SalePrice > 0 && n.SalePrice != n.Price {
		p.Sale = int64(n.SalePrice)
	}
	return p
}

func (p priceNow) text() string {
	if p.Sale > 0 {
		return format.Money(p.Price) + " (sale " + format.Money(p.Sale) + ")"
	}
	return format.Money(p.Price)
}

func (s stockNow) text() string {
	return strconv.Itoa(s.Quantity) + " pcs, " + format.StatusLabel(s.Status)
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// previewer turns file rows into checked job rows.
type previewer struct {
	guard   int
	catalog *catalog
}

// beyondGuard reports whether a change from old to new exceeds the guard.
func (p previewer) beyondGuard(old, new int64) bool {
	if old <= 0 || p.guard <= 0 {
		return false
	}
	return math.Abs(float64(new-old))*100 > float64(p.guard)*float64(old)
}

func problemText(errs map[string]string, order ...string) string {
	var parts []string
	for _, k := range order {
		if m := errs[k]; m != "" {
			parts = append(parts, k+": "+m)
		}
	}
	return strings.Join(parts, " ")
}

func (p previewer) priceItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	for i, row := range t.Rows {
		typed := map[string]string{
			"sku":   strings.TrimSpace(m.Cell(row, "sku")),
			"price": bulkjobs.NormalizeDecimal(m.Cell(row, "price")),
			"sale":  bulkjobs.NormalizeDecimal(m.Cell(row, "sale")),
			"start": bulkjobs.NormalizeDate(m.Cell(row, "start")),
			"end":   bulkjobs.NormalizeDate(m.Cell(row, "end")),
		}
		it := bulkjobs.Item{Seq: i + 1, Line: t.Lines[i], Key: typed["sku"], Chunk: -1, Typed: mustJSON(typed), Flag: bulkjobs.FlagInvalid}
		it.NewText = newPriceText(typed)
		items = append(items, p.checkPrice(it, typed, seen))
		if typed["sku"] != "" {
			if _, dup := seen[typed["sku"]]; !dup {
				seen[typed["sku"]] = t.Lines[i]
			}
		}
	}
	return items
}

func newPriceText(typed map[string]string) string {
	s := typed["price"]
	if typed["sale"] != "" {
		s = strings.TrimSpace(s + " (sale " + typed["sale"] + ")")
	}
	if typed["start"] != "" || typed["end"] != "" {
		s += " " + typed["start"] + "…" + typed["end"]
	}
	if s == "" {
		return "—"
	}
	return s
}

func (p previewer) checkPrice(it bulkjobs.Item, typed map[string]string, seen map[string]int) bulkjobs.Item {
	sku := typed["sku"]
	switch {
	case sku == "":
		it.Message = "No marketplace SKU in this row."
		return it
	case seen[sku] > 0:
		it.Message = fmt.Sprintf("This SKU appears again (first in row %d); only the first row counts.", seen[sku])
		return it
	}
	rec, ok := p.catalog.bySKU[sku]
	if !ok {
		it.Message = "Unknown SKU: it is not in this seller's catalogue."
		return it
	}
	cur := currentPrice(rec)
	it.Current, it.OldText = mustJSON(cur), cur.text()
	if typed["price"] == "" && typed["sale"] == "" && typed["start"] == "" && typed["end"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "No new value in this row."
		return it
	}
	// Blank cells keep the current value.
	in := priceInput{SKU: sku, Price: typed["price"], Sale: typed["sale"], Start: typed["start"], End: typed["end"]}
	if in.Price == "" {
		in.Price = format.MoneyInput(cur.Price)
	}
	if in.Sale == "" && cur.Sale > 0 {
		// A blank sale cell keeps the running sale, unless the new price
		// is below it: a price under the sale price ends the sale (it
		// would be refused otherwise, and no cell could say "no sale").
		if newPrice, err := apiclient.ParseMoney(in.Price); err != nil || int64(newPrice) >= cur.Sale {
			in.Sale = format.MoneyInput(cur.Sale)
		}
	}
	upd, errs := in.validate()
	if errs != nil {
		it.Message = problemText(errs, "price", "sale", "start", "end")
		return it
	}
	newSale := int64(0)
	if upd.SalePrice != nil {
		newSale = int64(*upd.SalePrice)
	}
	it.Payload = mustJSON(upd)
	if int64(upd.Price) == cur.Price && newSale == cur.Sale && in.Start == "" && in.End == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "Same as the current price: skipped."
		return it
	}
	it.HasNum = true
	if int64(upd.Price) != cur.Price || newSale == 0 {
		it.OldNum, it.NewNum = cur.Price, int64(upd.Price)
	} else {
		old := cur.Sale
		if old == 0 {
			old = cur.Price
		}
		it.OldNum, it.NewNum = old, newSale
	}
	it.Flag = bulkjobs.FlagOK
	if p.beyondGuard(it.OldNum, it.NewNum) {
		it.Flag = bulkjobs.FlagGuard
		it.Message = fmt.Sprintf("A change beyond ±%d %%: confirm it to send it.", p.guard)
	}
	return it
}

func (p previewer) stockItems(t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	items := make([]bulkjobs.Item, 0, len(t.Rows))
	seen := map[string]int{}
	for i, row := range t.Rows {
		typed := map[string]string{
			"warehouse": strings.TrimSpace(m.Cell(row, "warehouse")),
			"barcode":   strings.TrimSpace(m.Cell(row, "barcode")),
			"quantity":  bulkjobs.NormalizeDecimal(m.Cell(row, "quantity")),
			"status":    strings.ToLower(strings.TrimSpace(m.Cell(row, "status"))),
		}
		key := typed["warehouse"] + "|" + typed["barcode"]
		it := bulkjobs.Item{Seq: i + 1, Line: t.Lines[i], Key: key, Chunk: -1, Typed: mustJSON(typed), Flag: bulkjobs.FlagInvalid}
		it.NewText = strings.Trim(typed["quantity"]+" pcs, "+typed["status"], " ,")
		if typed["quantity"] == "" {
			it.NewText = typed["status"]
		}
		items = append(items, p.checkStock(it, typed, seen))
		if _, dup := seen[key]; !dup && typed["warehouse"] != "" && typed["barcode"] != "" {
			seen[key] = t.Lines[i]
		}
	}
	return items
}

func (p previewer) checkStock(it bulkjobs.Item, typed map[string]string, seen map[string]int) bulkjobs.Item {
	switch {
	case typed["warehouse"] == "" || typed["barcode"] == "":
		it.Message = "This row needs both a warehouse and a barcode."
		return it
	case seen[it.Key] > 0:
		it.Message = fmt.Sprintf("This warehouse and barcode appear again (first in row %d); only the first row counts.", seen[it.Key])
		return it
	}
	rec, ok := p.catalog.byKey[it.Key]
	if !ok {
		it.Message = "Unknown record: this barcode is not stocked at this warehouse for this seller."
		return it
	}
	cur := stockNow{Quantity: rec.Quantity, Status: rec.Status}
	it.Current, it.OldText = mustJSON(cur), cur.text()
	if typed["quantity"] == "" && typed["status"] == "" {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "No new value in this row."
		return it
	}
	in := stockInput{Warehouse: typed["warehouse"], Barcode: typed["barcode"], OrigQty: strconv.Itoa(cur.Quantity), OrigStatus: cur.Status,
		Qty: typed["quantity"], Status: typed["status"]}
	if in.Qty == "" {
		in.Qty = in.OrigQty
	}
	if in.Status == "" {
		in.Status = in.OrigStatus
	}
	if !in.changed() {
		it.Flag, it.Message = bulkjobs.FlagUnchanged, "Same as the current stock: skipped."
		return it
	}
	item, errs := in.validate()
	if errs != nil {
		it.Message = problemText(errs, "quantity", "status")
		return it
	}
	it.Payload = mustJSON(item)
	it.NewText = stockNow{Quantity: cur.Quantity, Status: in.Status}.text()
	it.Flag = bulkjobs.FlagOK
	if item.Quantity != nil {
		it.NewText = stockNow{Quantity: *item.Quantity, Status: in.Status}.text()
		it.HasNum, it.OldNum, it.NewNum = true, int64(cur.Quantity), int64(*item.Quantity)
		if p.beyondGuard(it.OldNum, it.NewNum) {
			it.Flag = bulkjobs.FlagGuard
			it.Message = fmt.Sprintf("A change beyond ±%d %%: confirm it to send it.", p.guard)
		}
	}
	return it
}

// ---- submit ----

// BulkJobSubmit turns a preview into a running job: rows whose current
// value changed since the preview are held back, guarded rows are sent
// only when confirmed here (the page's checkboxes are a convenience, this
// is the check), and the rest are queued in chunks for the runner.
func (a *App) BulkJobSubmit(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.State != bulkjobs.StatePreview {
		session(c).AddFlash("info", "This job was already submitted.")
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	confirmAll := form.Get("confirm_all") != ""
	confirmed := map[int]bool{}
	for _, v := range form["confirm"] {
		if n, err := strconv.Atoi(v); err == nil {
			confirmed[n] = true
		}
	}
	ctx := c.Request().Context()
	store := a.deps.Jobs.Store()
	items, err := store.Items(ctx, job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	sess := session(c)
	cat, err := a.fetchCatalog(a.pageContext(c), a.account(c), sess.Data().SellerID)
	if err != nil {
		return err
	}
	queued := 0
	for i := range items {
		it := &items[i]
		switch it.Flag {
		case bulkjobs.FlagOK, bulkjobs.FlagGuard:
		default:
			it.State = bulkjobs.ItemSkipped
			continue
		}
		if it.Flag == bulkjobs.FlagGuard && !confirmAll && !confirmed[it.Seq] {
			it.State, it.Message = bulkjobs.ItemSkipped, fmt.Sprintf("Not sent: a change beyond ±%d %% that was not confirmed.", job.GuardPercent)
			continue
		}
		if now, changed := currentChanged(job.Kind, *it, cat); changed {
			it.State = bulkjobs.ItemHeld
			it.Message = "Changed since preview: it was " + it.OldText + " at preview and is now " + now + ". Not sent; import it again to review."
			continue
		}
		it.State, it.Chunk = bulkjobs.ItemQueued, queued/job.ChunkSize
		queued++
	}
	d := sess.Data()
	job.SessionRef = sess.ID()
	job.ClientID, job.DisplayName = d.ClientID, d.DisplayName
	job.Chunks = (queued + job.ChunkSize - 1) / job.ChunkSize
	job.SubmittedAt = a.deps.Now()
	job.State = bulkjobs.StateQueued
	if queued == 0 {
		job.State, job.FinishedAt, job.StopReason = bulkjobs.StateDone, job.SubmittedAt, "Nothing was sent: no row was ready to send."
	}
	if err := store.Save(ctx, &job, items); err != nil {
		return errSessionStore(err)
	}
	a.deps.Jobs.Kick(job.ID)
	a.logger(ctx).Info("bulk job submitted", "job", job.ID, "kind", job.Kind, "queued", queued, "chunks", job.Chunks)
	return a.redirect(c, "/bulk/jobs/"+job.ID)
}

// currentChanged compares a row's current value at preview with the
// catalogue now.
func currentChanged(kind string, it bulkjobs.Item, cat *catalog) (string, bool) {
	if kind == "stock" {
		var was stockNow
		_ = json.Unmarshal([]byte(it.Current), &was)
		rec, ok := cat.byKey[it.Key]
		if !ok {
			return "gone from the catalogue", true
		}
		now := stockNow{Quantity: rec.Quantity, Status: rec.Status}
		return now.text(), now != was
	}
	var was priceNow
	_ = json.Unmarshal([]byte(it.Current), &was)
	rec, ok := cat.bySKU[it.Key]
	if !ok {
		return "gone from the catalogue", true
	}
	now := currentPrice(rec)
	return now.text(), now != was
}

var errJobNotFound = echo.NewHTTPError(http.StatusNotFound, "There is no such job.")

// ownJob loads the job named in the URL if it belongs to the logged-in
// seller; anyone else's job is "not found".
func (a *App) ownJob(c echo.Context) (bulkjobs.Job, error) {
	j, err := a.deps.Jobs.Store().Job(c.Request().Context(), c.Param("id"))
	if errors.Is(err, bulkjobs.ErrNotFound) {
		return bulkjobs.Job{}, errJobNotFound
	}
	if err != nil {
		return bulkjobs.Job{}, errSessionStore(err)
	}
	// A job belongs to one seller in one environment: a test-environment
	// login must not see or drive a production job of the same seller.
	if d := session(c).Data(); j.SellerID != d.SellerID || j.Environment != d.Environment {
		return bulkjobs.Job{}, errJobNotFound
	}
	return j, nil
}
