package handlers

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/xuri/excelize/v2"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// The export of the whole filtered catalogue from the local copy: every
// record the URL's search and filters select, in its sort, read page by
// page (catalog.Store.ExportNomenclature: no database connection is held
// while the client takes a page) and written to the response (CSV) or
// through excelize's StreamWriter (XLSX), never the whole catalogue in
// memory. Whole-catalogue exports are few at once (exportGate): each walks
// the whole copy, and an XLSX one zips it, a core's work.

// Whole-catalogue export limits.
const (
	// maxConcurrentExports is how many whole-catalogue exports, CSV and
	// XLSX alike, the process runs at once: one per core of a small
	// machine, and the bulk read pool's size (sqldb.BulkReaders), so an
	// export never waits for a connection another one holds.
	maxConcurrentExports = 2
	// exportRetryAfter is the Retry-After, in seconds, of an export
	// refused for want of a place.
	exportRetryAfter = 5
)

// exportGate lets one whole-catalogue export per copy (seller and
// environment) and maxConcurrentExports in all run at a time. A second
// export of the same copy is a double click or a colleague's identical
// file; more than a few at once is CPU, memory and the bulk pool's
// connections taken from everyone.
type exportGate struct {
	mu      sync.Mutex
	running map[copystore.Key]bool
	max     int
}

func newExportGate(max int) *exportGate {
	return &exportGate{running: map[copystore.Key]bool{}, max: max}
}

// enter takes a place for an export of k; ok is false when none is free.
// release gives the place back; calling it again does nothing.
func (g *exportGate) enter(k copystore.Key) (release func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[k] || len(g.running) >= g.max {
		return func() {}, false
	}
	g.running[k] = true
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			delete(g.running, k)
			g.mu.Unlock()
		})
	}, true
}

// exportBusy answers an export refused for want of a place: 429 with
// Retry-After, as a page (which tries again by itself) or a flash
// fragment.
func (a *App) exportBusy(c echo.Context) error {
	ctx := c.Request().Context()
	a.writeError(c, pages.ErrorView{Status: http.StatusTooManyRequests, RequestID: requestIDOf(ctx), RetryIn: exportRetryAfter,
		Title: i18n.T(ctx, "export.copy.busy_title"), Message: i18n.T(ctx, "export.copy.busy")})
	return nil
}

// copyExportColumns are the catalogue keys of the export's header. The
// Russian names of the warehouse, barcode, quantity and status columns are
// ones the stock import reads (bulkjobs.StockColumns), so an export can be
// edited and imported back in either language.
var copyExportColumns = []string{i18n.K("export.copy.warehouse"), i18n.K("export.copy.barcode"), i18n.K("export.copy.mp_sku"),
	i18n.K("export.copy.seller_sku"), i18n.K("export.copy.name"), i18n.K("export.copy.brand"), i18n.K("export.copy.size"),
	i18n.K("export.copy.status"), i18n.K("export.copy.quantity"), i18n.K("export.copy.price"), i18n.K("export.copy.sale_price"),
	i18n.K("export.copy.price_status")}

// copyExportHeader is the export's header in the language of ctx.
func copyExportHeader(ctx context.Context) []string {
	l := i18n.LangOf(ctx)
	out := make([]string, len(copyExportColumns))
	for i, k := range copyExportColumns {
		out[i] = i18n.In(l, k, nil, nil)
	}
	return out
}

// copyExportRow is the export row of a record; numeric columns are 8 to 10.
func copyExportRow(r *copystore.Record, row []string) []string {
	price, sale, status := r.Price, r.SalePrice, r.PriceStatus
	if r.Pending != nil {
		price, sale, status = r.Pending.Price, r.Pending.SalePrice, "PROCESSING"
	}
	saleText := ""
	if sale > 0 {
		saleText = format.MoneyInput(sale)
	}
	return append(row[:0], r.Warehouse, r.Barcode, r.MarketplaceSKU, r.SellerSKU, r.Name, r.Brand, r.Size, r.Status,
		strconv.Itoa(r.Quantity), format.MoneyInput(price), saleText, status)
}

// NomenclatureExportAll streams every record of the filtered catalogue as
// CSV or XLSX (ext). It needs a full copy: before one exists it says so.
func (a *App) NomenclatureExportAll(c echo.Context, ext string) error {
	if a.deps.Catalog == nil {
		return echo.ErrNotFound
	}
	k := copyKey(c)
	release, ok := a.exports.enter(k)
	if !ok {
		return a.exportBusy(c)
	}
	defer release() // done, failed or the client gone
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return err
	}
	if !ok {
		return echo.NewHTTPError(http.StatusConflict, i18n.T(c.Request().Context(), "export.copy.not_ready"))
	}
	q := catalogQuery(c)
	cq := q.copyQuery()
	cs := a.deps.Catalog.Store()
	// Fail before the headers go out: a bad sort or a revoked copy.
	if _, err := cs.CountNomenclature(c.Request().Context(), k, cq); err != nil {
		if errors.Is(err, copystore.ErrRevoked) {
			return copyRevoked()
		}
		return err
	}
	if _, err := cs.Nomenclature(c.Request().Context(), k, copystore.Query{Sort: cq.Sort, Limit: 1}); errors.Is(err, copystore.ErrBadSort) {
		cq.Sort = ""
	}
	if err := a.saveSession(c); err != nil {
		return err
	}
	d := session(c).Data()
	name := bulkjobs.FileName(ext, "nomenclature", "seller-"+strconv.FormatInt(d.SellerID, 10), d.Environment, "all")
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	if ext == "xlsx" {
		h.Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	} else {
		h.Set("Content-Type", "text/csv; charset=utf-8")
	}
	c.Response().WriteHeader(http.StatusOK)
	if ext == "xlsx" {
		err = a.streamXLSX(c, k, cq)
	} else {
		err = a.streamCSV(c, k, cq)
	}
	if err != nil {
		// The status is out: the download ends short, and the log says why.
		a.logger(c.Request().Context()).Warn("catalogue export stopped", "err", err)
	}
	return nil
}

func (a *App) streamCSV(c echo.Context, k copystore.Key, cq copystore.Query) error {
	bw := bufio.NewWriterSize(c.Response(), 32<<10)
	bw.WriteString("\ufeff") // Excel opens Cyrillic text correctly
	writeLine := func(fields []string) {
		for i, f := range fields {
			if i > 0 {
				bw.WriteByte(',')
			}
			if f == "" {
				continue
			}
			if i < 8 || i == 11 {
				f = bulkjobs.ExportText(f) // cleaned, bounded, formulas defused
			}
			// Every field quoted: a spreadsheet splitting on ';' still
			// sees one cell.
			bw.WriteByte('"')
			bw.WriteString(strings.ReplaceAll(f, `"`, `""`))
			bw.WriteByte('"')
		}
		bw.WriteString("\r\n")
	}
	header := copyExportHeader(c.Request().Context())
	writeLine(header)
	row := make([]string, 0, len(header))
	err := a.deps.Catalog.Store().ExportNomenclature(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		row = copyExportRow(r, row)
		writeLine(row)
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

func (a *App) streamXLSX(c echo.Context, k copystore.Key, cq copystore.Query) error {
	f := excelize.NewFile()
	defer f.Close()
	sheet := i18n.T(c.Request().Context(), "export.copy.sheet")
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	header := copyExportHeader(c.Request().Context())
	cells := make([]any, len(header))
	for i, h := range header {
		cells[i] = h
	}
	if err := sw.SetRow("A1", cells); err != nil {
		return err
	}
	n := 1
	row := make([]string, 0, len(header))
	err = a.deps.Catalog.Store().ExportNomenclature(c.Request().Context(), k, cq, func(r *copystore.Record) error {
		row = copyExportRow(r, row)
		for i, v := range row {
			cells[i] = bulkjobs.ExportText(v)
			if i >= 8 && i <= 10 && v != "" {
				var num float64
				if _, err := fmt.Sscan(v, &num); err == nil {
					cells[i] = num
				}
			}
		}
		n++
		cell, _ := excelize.CoordinatesToCellName(1, n)
		return sw.SetRow(cell, cells)
	})
	if err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(c.Response())
}
