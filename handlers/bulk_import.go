package handlers

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
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
	ctx := c.Request().Context()
	recs, _, _, err := fetchCatalogPage(a.pageContext(c), a.account(c), sess.Data().SellerID, q)
	if err != nil {
		return err
	}
	var sheet sheets.Sheet
	switch view {
	case "prices":
		sheet = sheets.Sheet{Name: i18n.T(ctx, "import.sheet_prices"),
			Columns: sheets.Columns(i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_name"), i18n.T(ctx, "import.col_brand"), i18n.T(ctx, "import.col_size"),
				i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"), i18n.T(ctx, "import.col_sale_start"), i18n.T(ctx, "import.col_sale_end"),
				i18n.T(ctx, "import.col_price_status"), i18n.T(ctx, "import.col_warehouses"))}
		sheet.Columns[4].Kind, sheet.Columns[5].Kind = sheets.Money, sheets.Money
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
		sheet = sheets.Sheet{Name: i18n.T(ctx, "import.sheet_nomenclature"),
			Columns: sheets.Columns(i18n.T(ctx, "import.col_warehouse"), i18n.T(ctx, "import.col_barcode"), i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_seller_sku"),
				i18n.T(ctx, "import.col_name"), i18n.T(ctx, "import.col_brand"), i18n.T(ctx, "import.col_size"), i18n.T(ctx, "import.col_status"),
				i18n.T(ctx, "import.col_quantity"), i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"))}
		sheet.Columns[8].Kind, sheet.Columns[9].Kind, sheet.Columns[10].Kind = sheets.Number, sheets.Money, sheets.Money
		for _, n := range recs {
			sale := ""
			if n.SalePrice > 0 {
				sale = format.MoneyInput(int64(n.SalePrice))
			}
			sheet.Rows = append(sheet.Rows, []string{n.WarehouseCode, n.Barcode, n.MarketplaceSKU, n.SellerSKU, n.Name, n.Brand, n.Size, n.Status,
				strconv.Itoa(n.Quantity), format.MoneyInput(int64(n.Price)), sale})
		}
	}
	name := sheets.FileName(ext, view, "seller-"+strconv.FormatInt(sess.Data().SellerID, 10), sess.Data().Environment,
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
func (a *App) sendSheet(c echo.Context, sheet sheets.Sheet, ext, name string) error {
	var buf bytes.Buffer
	f := sheets.FormatOf(ext)
	if err := sheets.Write(&buf, f, sheet); err != nil {
		return err
	}
	if err := a.saveSession(c); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, f.ContentType(), buf.Bytes())
}

// ---- import ----

// BulkImportForm shows the upload form.
func (a *App) BulkImportForm(c echo.Context) error {
	f := pages.ImportForm{Kind: c.QueryParam("kind"), GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusOK, pages.ImportPage(a.chrome(c, i18n.T(c.Request().Context(), "import.title"), "bulk"), f), nil)
}

func (a *App) importFailed(c echo.Context, kind, msg string) error {
	f := pages.ImportForm{Kind: kind, Error: msg, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20}
	return a.render(c, http.StatusUnprocessableEntity, pages.ImportPage(a.chrome(c, i18n.T(c.Request().Context(), "import.title"), "bulk"), f), nil)
}

// BulkImportUpload reads an uploaded file, checks every row against the
// current catalogue and stores the preview as a job not yet submitted.
func (a *App) BulkImportUpload(c echo.Context) error {
	kind := c.FormValue("kind")
	ctx := c.Request().Context()
	fh, err := c.FormFile("file")
	if err != nil {
		return a.importFailed(c, kind, i18n.T(ctx, "import.choose_file"))
	}
	if fh.Size > maxImportBytes {
		return a.importFailed(c, kind, i18n.TD(ctx, "import.too_large", map[string]any{"MB": maxImportBytes >> 20}))
	}
	f, err := fh.Open()
	if err != nil {
		return a.importFailed(c, kind, i18n.T(ctx, "import.unreadable"))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	f.Close()
	if err != nil || len(data) > maxImportBytes {
		return a.importFailed(c, kind, i18n.T(ctx, "import.unreadable"))
	}
	release, wait := a.imports.enter(session(c).Data().SellerID)
	if wait > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		f := pages.ImportForm{Kind: kind, GuardPercent: a.deps.Jobs.GuardPercent(), MaxMB: maxImportBytes >> 20,
			Error: i18n.T(ctx, "import.busy")}
		return a.render(c, http.StatusTooManyRequests, pages.ImportPage(a.chrome(c, i18n.T(ctx, "import.title"), "bulk"), f), nil)
	}
	if a.imports.held != nil {
		a.imports.held()
	}
	pctx, cancel := context.WithTimeout(c.Request().Context(), importParseBudget)
	table, err := bulkjobs.ReadTableContext(pctx, data)
	cancel()
	release()
	if err != nil {
		return a.importFailed(c, kind, i18n.TD(ctx, "import.unreadable_why", map[string]any{"Why": bulkjobs.Words(i18n.LangOf(ctx), err)}))
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
			msgs[i] = p.In(i18n.LangOf(ctx))
		}
		return a.importFailed(c, kind, i18n.TD(ctx, "import.bad_header", map[string]any{"Why": strings.Join(msgs, "; ")}))
	}
	sess := session(c)
	d := sess.Data()
	catalog, err := a.previewCatalog(c, a.wantRows(kind, table, m))
	if err != nil {
		return err
	}
	p := massupdate.Previewer{Guard: a.deps.Jobs.GuardPercent(), Catalog: catalog}
	var items []bulkjobs.Item
	switch { // issue 15: the lamoda profile's cards and stock (massupdate/preview_cards.go)
	case kind == "stock" && a.deps.API.FilterWrites():
		items = p.FilterStockItems(table, m)
	case kind == "stock":
		items = p.StockItems(table, m)
	case a.deps.API.PricesByCard():
		items = p.CardPriceItems(table, m)
	default:
		items = p.PriceItems(table, m)
	}
	p.Named(items) // issue 17 item 8: the product's name beside its key
	job := &bulkjobs.Job{
		ID: newJobID(), Kind: kind, State: bulkjobs.StatePreview,
		ClientID: d.ClientID, DisplayName: d.DisplayName, Environment: d.Environment, SellerID: d.SellerID,
		FileName: format.Clean(fh.Filename), GuardPercent: p.Guard, ChunkSize: a.deps.Engine.Size(), CreatedAt: a.deps.Now(),
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

// ---- the catalogue a preview reads ----

// previewCatalog reads the current values of the records want names, for
// a preview and for a submit's check that they did not change since: from
// the local copy once a full copy of the seller exists, without a
// marketplace call; else live, page by page under the seller's lock (one
// request of the seller in flight) and only until every record is found.
func (a *App) previewCatalog(c echo.Context, want massupdate.Want) (*massupdate.Catalog, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	seller := session(c).Data().SellerID
	if !ok {
		return a.deps.Engine.FetchWanted(a.pageContext(c), a.account(c), seller, want)
	}
	cat, err := a.copyCatalog(c.Request().Context(), copyKey(c), seller, want)
	if errors.Is(err, copystore.ErrRevoked) {
		return nil, copyRevoked()
	}
	return cat, err
}

// wantRows names the records a file's rows concern; in the lamoda profile
// a price file's cards with all their sizes.
func (a *App) wantRows(kind string, t *bulkjobs.Table, m bulkjobs.Mapping) massupdate.Want {
	w := massupdate.WantRows(kind, t, m)
	w.Cards = kind != "stock" && a.deps.API.PricesByCard()
	return w
}

// copyCatalog reads the records want names from the copy k.
func (a *App) copyCatalog(ctx context.Context, k copystore.Key, seller int64, want massupdate.Want) (*massupdate.Catalog, error) {
	cs := a.deps.Catalog.Store()
	cat := massupdate.NewCatalog()
	add := func(r *copystore.Record) error {
		cat.Add(copyNomenclature(seller, r))
		return nil
	}
	l := copystore.Lookup{SKUs: slices.Collect(maps.Keys(want.SKUs))}
	for key := range want.Keys {
		// A key is warehouse|barcode; a warehouse code with a "|" of its
		// own is looked up at every split.
		for i := range len(key) {
			if key[i] == '|' {
				l.Stock = append(l.Stock, copystore.StockKey{Warehouse: key[:i], Barcode: key[i+1:]})
			}
		}
	}
	if err := cs.LookupNomenclature(ctx, k, l, add); err != nil || !want.Cards {
		return cat, err
	}
	cards := map[string]bool{}
	for sku := range want.SKUs {
		if n, ok := cat.BySKU[sku]; ok && n.ParentSKU != "" {
			cards[n.ParentSKU] = true
		}
	}
	if len(cards) == 0 {
		return cat, nil
	}
	return cat, cs.LookupNomenclature(ctx, k, copystore.Lookup{Cards: slices.Collect(maps.Keys(cards))}, add)
}

// queueable keeps the rows a submit may queue: those it checks against
// the catalogue.
func queueable(items []bulkjobs.Item) []bulkjobs.Item {
	out := make([]bulkjobs.Item, 0, len(items))
	for _, it := range items {
		if it.Flag == bulkjobs.FlagOK || it.Flag == bulkjobs.FlagGuard {
			out = append(out, it)
		}
	}
	return out
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
		session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_already"))
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(c.Request().Context(), "jobs.form_unreadable"))
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
	cat, err := a.previewCatalog(c, massupdate.WantItems(job.Kind, queueable(items)))
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
		if massupdate.Doomed(job.Kind, *it) && !confirmed[it.Seq] {
			// Issue 17 item 7: the marketplace's known rule refuses it;
			// "confirm all" does not cover it, only its own checkbox.
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_doomed", map[string]any{"Limit": strconv.Itoa(massupdate.MarketDropLimit)}))
			continue
		}
		if it.Flag == bulkjobs.FlagGuard && !confirmAll && !confirmed[it.Seq] {
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_guard", map[string]any{"Guard": strconv.Itoa(job.GuardPercent)}))
			continue
		}
		if now, changed := massupdate.CurrentChanged(job.Kind, *it, cat); changed {
			it.State = bulkjobs.ItemHeld
			it.Message = i18n.Of(i18n.M("jobs.held", map[string]any{"Was": it.OldText, "Now": now}))
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
		job.State, job.FinishedAt, job.StopReason = bulkjobs.StateDone, job.SubmittedAt, i18n.Of(i18n.M("jobs.nothing_sent", nil))
	}
	if err := store.Save(ctx, &job, items); err != nil {
		return errSessionStore(err)
	}
	a.deps.Jobs.Kick(job.ID)
	a.logger(ctx).Info("bulk job submitted", "job", job.ID, "kind", job.Kind, "queued", queued, "chunks", job.Chunks)
	return a.redirect(c, "/bulk/jobs/"+job.ID)
}

// errJobNotFound is a job that is not there or not the seller's.
func errJobNotFound(c echo.Context) error {
	return echo.NewHTTPError(http.StatusNotFound, i18n.T(c.Request().Context(), "jobs.not_found"))
}

// ownJob loads the job named in the URL if it belongs to the logged-in
// seller; anyone else's job is "not found".
func (a *App) ownJob(c echo.Context) (bulkjobs.Job, error) {
	j, err := a.deps.Jobs.Store().Job(c.Request().Context(), c.Param("id"))
	if errors.Is(err, bulkjobs.ErrNotFound) {
		return bulkjobs.Job{}, errJobNotFound(c)
	}
	if err != nil {
		return bulkjobs.Job{}, errSessionStore(err)
	}
	// A job belongs to one seller in one environment: a test-environment
	// login must not see or drive a production job of the same seller.
	if d := session(c).Data(); j.SellerID != d.SellerID || j.Environment != d.Environment {
		return bulkjobs.Job{}, errJobNotFound(c)
	}
	return j, nil
}
