package handlers

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// exportAllParam (paths.ExportWhole) asks a page export for every record of the filtered
// catalogue instead of the page on screen: the import page's "start from
// your current data" links, whose files are meant to be edited and
// imported back whole.
const exportAllParam = "all"

// maxExportPages bounds a live read of the whole catalogue whatever page
// count the marketplace gives: ten marketplace records for each row an
// import reads.
const maxExportPages = 10 * bulkjobs.MaxImportRows / browse.UpstreamLimit

// errExportFull stops a whole-catalogue read once the sheet has more rows
// than an import reads.
var errExportFull = errors.New("export: more rows than an import reads")

// exportView writes the page on screen of /prices or /nomenclature as CSV
// or XLSX: its search, sort and filters, page and limit, from the local
// copy or live as the page itself is read (nomenclaturePage). With
// all=1 it writes every record of the filtered catalogue, up to the rows
// an import reads (bulkjobs.MaxImportRows). Sale cells follow
// massupdate's rule (sale.go), so a file imported unchanged sends nothing.
func (a *App) exportView(c echo.Context, view, ext string) error {
	q := catalogQuery(c)
	if view == "prices" {
		q = pricesQuery(c)
	}
	all := c.QueryParam(exportAllParam) == "1"
	seller := session(c).Data().SellerID
	ctx := c.Request().Context()
	sheet := exportSheet(c, view)
	label := statusLabels(ctx)
	index := map[string]int{} // prices: a product's row
	add := func(n apiclient.Nomenclature) error {
		if view == "prices" {
			if i, ok := index[n.MarketplaceSKU]; ok {
				sheet.Rows[i][9] += ", " + n.WarehouseCode
				return nil
			}
			index[n.MarketplaceSKU] = len(sheet.Rows)
		}
		if all && len(sheet.Rows) >= bulkjobs.MaxImportRows {
			return errExportFull
		}
		sheet.Rows = append(sheet.Rows, exportRow(view, n, label))
		return nil
	}
	var err error
	if all {
		err = a.eachRecord(c, q, add)
	} else {
		var p *browse.NomenclaturePage
		if p, err = a.nomenclaturePage(c, &q); err == nil {
			for _, n := range p.Records {
				_ = add(n)
			}
		}
	}
	switch {
	case errors.Is(err, errExportFull):
		return echo.NewHTTPError(http.StatusUnprocessableEntity,
			i18n.TD(ctx, "export.too_many_rows", map[string]any{"Rows": format.ThousandsIn(i18n.LangOf(ctx), bulkjobs.MaxImportRows)}))
	case err != nil:
		return err
	}
	parts := []string{view, "seller-" + strconv.FormatInt(seller, 10), session(c).Data().Environment}
	if all {
		parts = append(parts, "all")
	} else {
		parts = append(parts, "page-"+strconv.Itoa(q.Page), "limit-"+strconv.Itoa(q.Limit))
	}
	return a.sendSheet(c, sheet, ext, sheets.DatedFileName(ext, a.today(c), parts...))
}

// exportSheet is the empty sheet of a page export, its header in the
// request's language.
func exportSheet(c echo.Context, view string) sheets.Sheet {
	ctx := c.Request().Context()
	if view == "prices" {
		s := sheets.Sheet{Name: i18n.T(ctx, "import.sheet_prices"),
			Columns: sheets.Columns(i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_name"), i18n.T(ctx, "import.col_brand"), i18n.T(ctx, "import.col_size"),
				i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"), i18n.T(ctx, "import.col_sale_start"), i18n.T(ctx, "import.col_sale_end"),
				i18n.T(ctx, "import.col_price_status"), i18n.T(ctx, "import.col_warehouses"))}
		s.Columns[4].Kind, s.Columns[5].Kind = sheets.Money, sheets.Money
		return s
	}
	s := sheets.Sheet{Name: i18n.T(ctx, "import.sheet_nomenclature"),
		Columns: sheets.Columns(i18n.T(ctx, "import.col_warehouse"), i18n.T(ctx, "import.col_barcode"), i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_seller_sku"),
			i18n.T(ctx, "import.col_name"), i18n.T(ctx, "import.col_brand"), i18n.T(ctx, "import.col_size"), i18n.T(ctx, "import.col_status"),
			i18n.T(ctx, "import.col_quantity"), i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"))}
	s.Columns[8].Kind, s.Columns[9].Kind, s.Columns[10].Kind = sheets.Number, sheets.Money, sheets.Money
	return s
}

// exportRow is a record's row in exportSheet's columns.
func exportRow(view string, n apiclient.Nomenclature, label func(string) string) []string {
	if view == "prices" {
		return []string{n.MarketplaceSKU, n.Name, n.Brand, n.Size, format.MoneyInput(int64(n.Price)), saleCell(int64(n.Price), int64(n.SalePrice)), "", "",
			label(n.PriceUpdateStatus), n.WarehouseCode}
	}
	return []string{n.WarehouseCode, n.Barcode, n.MarketplaceSKU, n.SellerSKU, n.Name, n.Brand, n.Size, label(n.Status),
		strconv.Itoa(n.Quantity), format.MoneyInput(int64(n.Price)), saleCell(int64(n.Price), int64(n.SalePrice))}
}

// saleCell is the sale cell of a product in every file the dashboard
// writes: its sale price while it is on sale, else empty
// (massupdate.OnSale).
func saleCell(price, sale int64) string {
	if !massupdate.OnSale(price, sale) {
		return ""
	}
	return format.MoneyInput(sale)
}

// eachRecord calls fn with every record of the filtered catalogue q
// selects, in its sort, until fn returns an error, read as the page on
// screen is (browse.Seller.EachRecord); a live read past the bound of
// pages is a full export.
func (a *App) eachRecord(c echo.Context, q listQuery, fn func(apiclient.Nomenclature) error) error {
	err := a.seller(c).EachRecord(c.Request().Context(), q.reads(), maxExportPages, fn)
	if errors.Is(err, browse.ErrTooManyPages) {
		return errExportFull
	}
	return err
}

// exportQuery is the query of the export links of a /prices or
// /nomenclature page: its search, sort and filters, page and limit.
func (a *App) exportQuery(q listQuery) string {
	v := q.values()
	v.Del("cursor") // the page number places the page alone
	v.Set("page", strconv.Itoa(q.Page))
	v.Set("limit", strconv.Itoa(q.Limit))
	return "?" + v.Encode()
}

// sendSheet answers with a sheet as a download.
func (a *App) sendSheet(c echo.Context, sheet sheets.Sheet, ext, name string) error {
	var buf bytes.Buffer
	f := sheets.FormatOf(ext)
	if err := sheets.Write(&buf, f, sheet); err != nil {
		return err
	}
	a.leaveLocal(c) // read and written: the copy's gate is not held while the client downloads
	if err := a.saveSession(c); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, f.ContentType(), buf.Bytes())
}
