package handlers

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
)

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
	label := statusLabels(ctx)
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
				label(n.PriceUpdateStatus), n.WarehouseCode})
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
			sheet.Rows = append(sheet.Rows, []string{n.WarehouseCode, n.Barcode, n.MarketplaceSKU, n.SellerSKU, n.Name, n.Brand, n.Size, label(n.Status),
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
