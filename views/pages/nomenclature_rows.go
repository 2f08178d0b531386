package pages

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// nomenclatureRows renders the rows of the nomenclature table, byte for
// byte what the templ loop (nomenclatureRowsTempl in rows_reference.templ)
// produces; TestNomenclatureRowsMatchTempl keeps it so. It is Go for the
// reason orderRows is: with an input, a select and four hidden fields per
// row, this was the most expensive markup of the mixed-page load, mostly
// templ's fmt.Sprint per expression (BENCHMARKS.md, P6). Rare parts (a cut
// name, a field error, a result) still go through their templ components.
func nomenclatureRows(v NomenclatureView) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		h := newRowWriter(ctx, w)
		// The locale's words, looked up once per render, not per row.
		size, sale := i18n.T(ctx, "nomenclature.size"), i18n.T(ctx, "nomenclature.sale")
		qtyOf, statusOf, at := i18n.T(ctx, "nomenclature.quantity_of"), i18n.T(ctx, "nomenclature.status_of"), i18n.T(ctx, "nomenclature.at")
		var num [20]byte
		for i, r := range v.Rows {
			idx := string(strconv.AppendInt(num[:0], int64(i), 10))
			h.put(`<tr class="`)
			h.esc(r.Result.State)
			h.put(`" data-testid="row-`)
			h.esc(r.Key)
			h.put(`" data-row="`)
			h.put(idx)
			h.put(`"><td>`)
			h.esc(r.Warehouse)
			h.put(` <input type="hidden" name="wh" value="`)
			h.esc(r.Warehouse)
			h.put(`"> <input type="hidden" name="bc" value="`)
			h.esc(r.Barcode)
			h.put(`"> <input type="hidden" name="orig_qty" value="`)
			h.esc(r.OrigQuantity)
			h.put(`"> <input type="hidden" name="orig_status" value="`)
			h.esc(r.OrigStatus)
			h.put(`"></td><td>`)
			h.esc(r.Barcode)
			h.put(`<div class="muted small">`)
			h.esc(r.SKU)
			h.put(`</div></td><td>`)
			h.text(r.Name, 60)
			h.put(`<div class="muted small">`)
			h.text(r.Brand, 30)
			if r.Size != "" {
				h.put(`· `)
				h.esc(size)
				h.put(` `)
				h.esc(r.Size)
			}
			h.put(`</div></td><td class="num">`)
			h.esc(r.Price)
			h.put(`<div class="muted small">`)
			h.esc(sale)
			h.put(` `)
			h.esc(r.SalePrice)
			h.put(`</div></td><td class="num"><input class="qty" type="text" inputmode="numeric" name="qty" value="`)
			h.esc(r.Quantity)
			h.put(`" data-original="`)
			h.esc(r.OrigQuantity)
			h.put(`"`)
			h.stockControlEnd(qtyOf, r.Barcode, at, r.Warehouse, "qty", idx, r.Errors["quantity"])
			h.fieldError("qty", idx, r.Errors["quantity"])
			h.put(`</td><td><select name="status" data-original="`)
			h.esc(r.OrigStatus)
			h.put(`"`)
			h.stockControlEnd(statusOf, r.Barcode, at, r.Warehouse, "status", idx, r.Errors["status"])
			for _, o := range r.StatusOptions {
				h.put(`<option value="`)
				h.esc(o.Value)
				h.put(`"`)
				if o.Value == r.Status {
					h.put(` selected`)
				}
				h.put(`>`)
				h.esc(o.Label)
				h.put(`</option>`)
			}
			h.put(`</select>`)
			h.fieldError("status", idx, r.Errors["status"])
			h.put(`</td><td data-testid="result">`)
			if r.Result.State != "" {
				h.render(rowResult(r.Result))
			}
			h.put(`</td></tr>`)
			if h.Err != nil {
				return h.Err
			}
		}
		return h.Err
	})
}

// stockControlEnd finishes the opening tag of a row's quantity input or
// status select: its label (what, barcode and warehouse), aria-invalid when
// msg is set, and its id.
func (h *rowWriter) stockControlEnd(what, barcode, at, warehouse, idPrefix, idx, msg string) {
	h.put(` aria-label="`)
	h.esc(what)
	h.esc(barcode)
	h.esc(at)
	h.esc(warehouse)
	h.put(`"`)
	if msg != "" {
		h.put(` aria-invalid="true"`)
	}
	h.put(` id="`)
	h.put(idPrefix)
	h.put(`-`)
	h.put(idx)
	h.put(`">`)
}
