package browse

// Exports of the nomenclature and prices screens: a page as it is on
// screen (ExportRows), and the whole filtered catalogue from the copy
// streamed page by page (PrepareExport, Export.Write). Sale cells follow
// massupdate's rule (massupdate.OnSale), so a file imported unchanged
// sends nothing. Column names are catalogue keys; the caller words them.

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sheets"
)

// ErrExportFull stops an export of every record once it has more rows
// than asked for (an import's bound).
var ErrExportFull = errors.New("browse: more rows than an export of every record holds")

// ErrNotReady refuses a whole-catalogue export before a first full copy
// of the seller exists.
var ErrNotReady = errors.New("browse: no full copy to export yet")

// Sheet is a page export's sheet: its name and columns, named by
// catalogue keys.
type Sheet struct {
	Name    string
	Columns []sheets.Column
}

// PricesSheet is the sheet of the prices screen's export: one row a
// product, its warehouses joined.
var PricesSheet = Sheet{Name: i18n.K("import.sheet_prices"), Columns: []sheets.Column{{Name: i18n.K("import.col_sku")},
	{Name: i18n.K("import.col_name")}, {Name: i18n.K("import.col_brand")}, {Name: i18n.K("import.col_size")},
	{Name: i18n.K("import.col_price"), Kind: sheets.Money}, {Name: i18n.K("import.col_sale"), Kind: sheets.Money},
	{Name: i18n.K("import.col_sale_start")}, {Name: i18n.K("import.col_sale_end")}, {Name: i18n.K("import.col_price_status")},
	{Name: i18n.K("import.col_warehouses")}}}

// NomenclatureSheet is the sheet of the nomenclature screen's export:
// one row a record.
var NomenclatureSheet = Sheet{Name: i18n.K("import.sheet_nomenclature"), Columns: []sheets.Column{{Name: i18n.K("import.col_warehouse")},
	{Name: i18n.K("import.col_barcode")}, {Name: i18n.K("import.col_sku")}, {Name: i18n.K("import.col_seller_sku")},
	{Name: i18n.K("import.col_name")}, {Name: i18n.K("import.col_brand")}, {Name: i18n.K("import.col_size")},
	{Name: i18n.K("import.col_status")}, {Name: i18n.K("import.col_quantity"), Kind: sheets.Number},
	{Name: i18n.K("import.col_price"), Kind: sheets.Money}, {Name: i18n.K("import.col_sale"), Kind: sheets.Money}}}

// ExportRows are the rows of an export of the prices (prices) or the
// nomenclature screen, their statuses by label: the page q describes as
// the screen reads it (Nomenclature), and the number of the page read;
// with all, every record of the filtered catalogue (EachRecord), at most
// maxRows rows (ErrExportFull beyond, and for a live catalogue of more
// than ten marketplace records a row).
func (s *Seller) ExportRows(ctx context.Context, q Query, prices, all bool, maxRows int, label func(string) string) ([][]string, int, error) {
	var rows [][]string
	index := map[string]int{} // prices: a product's row
	add := func(n Record) error {
		if prices {
			if i, ok := index[n.MarketplaceSKU]; ok {
				rows[i][9] += ", " + n.WarehouseCode
				return nil
			}
			index[n.MarketplaceSKU] = len(rows)
		}
		if all && len(rows) >= maxRows {
			return ErrExportFull
		}
		rows = append(rows, exportRow(prices, n, label))
		return nil
	}
	if all {
		err := s.EachRecord(ctx, q, 10*maxRows/UpstreamLimit, add)
		if errors.Is(err, ErrTooManyPages) {
			err = ErrExportFull
		}
		return rows, q.Page, err
	}
	p, err := s.Nomenclature(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	for _, n := range p.Records {
		_ = add(n)
	}
	return rows, p.Page, nil
}

// exportRow is a record's row in PricesSheet's or NomenclatureSheet's
// columns.
func exportRow(prices bool, n Record, label func(string) string) []string {
	if prices {
		return []string{n.MarketplaceSKU, n.Name, n.Brand, n.Size, amount(n.Price), SaleCell(n.Price, n.SalePrice), "", "",
			label(n.PriceUpdateStatus), n.WarehouseCode}
	}
	return []string{n.WarehouseCode, n.Barcode, n.MarketplaceSKU, n.SellerSKU, n.Name, n.Brand, n.Size, label(n.Status),
		strconv.Itoa(n.Quantity), amount(n.Price), SaleCell(n.Price, n.SalePrice)}
}

// amount is an amount in kopecks as a file's cell: "1499.50".
func amount(k int64) string { return apiclient.Money(k).Decimal() }

// SaleCell is the sale cell of a product in every file the dashboard
// writes: its sale price while it is on sale, else empty
// (massupdate.OnSale).
func SaleCell(price, sale int64) string {
	if !massupdate.OnSale(price, sale) {
		return ""
	}
	return amount(sale)
}

// CopyExportColumns are the whole-catalogue export's columns: the
// catalogue key of each header and what the column holds. The Russian
// names of the warehouse, barcode, quantity and status columns are ones
// the stock import reads (bulkjobs.StockColumns), so an export can be
// edited and imported back in either language.
var CopyExportColumns = []sheets.Column{{Name: i18n.K("export.copy.warehouse")}, {Name: i18n.K("export.copy.barcode")},
	{Name: i18n.K("export.copy.mp_sku")}, {Name: i18n.K("export.copy.seller_sku")}, {Name: i18n.K("export.copy.name")},
	{Name: i18n.K("export.copy.brand")}, {Name: i18n.K("export.copy.size")}, {Name: i18n.K("export.copy.status")},
	{Name: i18n.K("export.copy.quantity"), Kind: sheets.Number}, {Name: i18n.K("export.copy.price"), Kind: sheets.Money},
	{Name: i18n.K("export.copy.sale_price"), Kind: sheets.Money}, {Name: i18n.K("export.copy.price_status")}}

// copyExportRow is the export row of a record of the copy, in
// CopyExportColumns' order, its statuses by their labels; a price
// accepted and not yet confirmed is written as the marketplace lists a
// change in flight.
func copyExportRow(r *copystore.Record, row []string, label func(string) string) []string {
	price, sale, status := r.Price, r.SalePrice, r.PriceStatus
	if r.Pending != nil {
		price, sale, status = r.Pending.Price, r.Pending.SalePrice, "PROCESSING"
	}
	return append(row[:0], r.Warehouse, r.Barcode, r.MarketplaceSKU, r.SellerSKU, r.Name, r.Brand, r.Size, label(r.Status),
		strconv.Itoa(r.Quantity), amount(price), SaleCell(price, sale), label(status))
}

// Export is a whole-catalogue export of the copy, checked and ready to
// write.
type Export struct {
	s  *Seller
	cq copystore.Query
}

// PrepareExport checks a whole-catalogue export of the records q's
// filters select (its page aside) before anything is written: a first
// full copy exists (else ErrNotReady), the copy may be read (else
// copystore.ErrRevoked). A sort the copy does not know is written in the
// list order, as the page on screen reads it.
func (s *Seller) PrepareExport(ctx context.Context, q Query) (*Export, error) {
	ok, err := s.FromCopy(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNotReady
	}
	cq, cs := q.Copy, s.r.copy.Store()
	if _, err := cs.CountNomenclature(ctx, s.key, cq); err != nil {
		return nil, err
	}
	if _, err := cs.Nomenclature(ctx, s.key, copystore.Query{Sort: cq.Sort, Limit: 1}); errors.Is(err, copystore.ErrBadSort) {
		cq.Sort = ""
	}
	return &Export{s: s, cq: cq}, nil
}

// Write writes every record to w as f, read from the copy in keyset pages
// with no connection held between them (copystore.Store.ExportNomenclature):
// header names CopyExportColumns, sheet the XLSX sheet, label a status.
func (e *Export) Write(ctx context.Context, w io.Writer, f sheets.Format, sheet string, header []sheets.Column, label func(string) string) error {
	sw, err := sheets.NewWriter(w, f, sheet)
	if err != nil {
		return err
	}
	if err := sw.Header(header); err != nil {
		sw.Close()
		return err
	}
	row := make([]string, 0, len(CopyExportColumns))
	err = e.s.r.copy.Store().ExportNomenclature(ctx, e.s.key, e.cq, func(r *copystore.Record) error {
		row = copyExportRow(r, row, label)
		return sw.Row(row...)
	})
	if cerr := sw.Close(); err == nil {
		err = cerr
	}
	return err
}
