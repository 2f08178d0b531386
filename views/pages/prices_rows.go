package pages

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// priceRows renders the rows of the prices table, byte for byte what the
// templ loop (priceRowsTempl in rows_reference.templ) produces; the test
// TestPriceRowsMatchTempl keeps it so. It is Go for the same reason as
// orderRows: a submit's answer repeats every submitted row with its outcome,
// and for a 10,000-row update templ's fmt.Sprint per expression and the
// nested components were most of the dashboard's own time (BENCHMARKS.md,
// P4). Rare parts (a cut name, a field error, a marketplace rejection, a
// status badge) still go through their templ components.
func priceRows(v PricesView) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		h := newRowWriter(ctx, w)
		// The locale's words, looked up once per render, not per row.
		size, sale := i18n.T(ctx, "prices.size"), i18n.T(ctx, "prices.sale")
		priceOf, saleOf := i18n.T(ctx, "prices.new_price_of"), i18n.T(ctx, "prices.new_sale_of")
		startOf, endOf := i18n.T(ctx, "prices.start_of"), i18n.T(ctx, "prices.end_of")
		var num [20]byte
		for i, r := range v.Rows {
			idx := string(strconv.AppendInt(num[:0], int64(i), 10))
			h.put(`<tr class="`)
			h.esc(r.Result.State)
			h.put(`" data-testid="price-`)
			h.esc(r.SKU)
			h.put(`" data-row="`)
			h.put(idx)
			h.put(`"><td>`)
			h.esc(r.SKU)
			h.put(` `)
			if r.Size != "" {
				h.put(`<div class="muted small">`)
				h.esc(size)
				h.put(` `)
				h.esc(r.Size)
				h.put(`</div>`)
			}
			h.put(`<input type="hidden" name="sku" value="`)
			h.esc(r.SKU)
			h.put(`"> <input type="hidden" name="orig_price" value="`)
			h.esc(r.OrigPrice)
			h.put(`"> <input type="hidden" name="orig_sale" value="`)
			h.esc(r.OrigSale)
			h.put(`"> <input type="hidden" name="orig_start" value="`)
			h.esc(r.OrigStart)
			h.put(`"> <input type="hidden" name="orig_end" value="`)
			h.esc(r.OrigEnd)
			h.put(`"></td><td>`)
			h.text(r.Name, 60)
			if r.Brand != "" {
				h.put(`<div class="muted small">`)
				h.text(r.Brand, 30)
				h.put(`</div>`)
			}
			h.put(`</td><td class="num"><span data-testid="current">`)
			h.esc(r.Current)
			h.put(`</span><div class="muted small">`)
			h.esc(sale)
			h.put(` `)
			h.esc(r.CurrentSale)
			h.put(`</div>`)
			if r.UpdateStatus != "" && r.UpdateStatus != "OK" {
				h.put(`<div>`)
				h.statusBadge(r.UpdateStatus)
				h.put(`</div>`)
			}
			h.put(`</td>`)
			h.priceInput(idx, "price", "price", r.Price, r.OrigPrice, priceOf, r.SKU, r.Errors["price"])
			h.priceInput(idx, "sale", "sale", r.Sale, r.OrigSale, saleOf, r.SKU, r.Errors["sale"])
			h.put(`<td class="window">`)
			h.dateInput(idx, "start", r.Start, r.OrigStart, startOf, r.SKU, r.Errors["start"])
			h.dateInput(idx, "end", r.End, r.OrigEnd, endOf, r.SKU, r.Errors["end"])
			h.put(`</td><td data-testid="result">`)
			switch r.Result.State {
			case "":
			case "accepted":
				h.put(`<span class="row-ok">✓ `)
				h.esc(r.Result.Before)
				h.put(` → `)
				h.esc(r.Result.After)
				h.put(`</span>`)
			default:
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

// priceInput is the priceInput component; label is labelPrefix+sku.
func (h *rowWriter) priceInput(idx, name, idPrefix, value, original, labelPrefix, sku, msg string) {
	h.put(`<td><input class="money" type="text" inputmode="decimal" name="`)
	h.inputAttrs(idx, name, idPrefix, value, original, labelPrefix, sku, msg)
	h.put(`-error" maxlength="32">`)
	h.fieldError(idPrefix, idx, msg)
	h.put(`</td>`)
}

// dateInput is the dateInput component; label is labelPrefix+sku.
func (h *rowWriter) dateInput(idx, name, value, original, labelPrefix, sku, msg string) {
	h.put(`<div class="date-field"><input type="date" name="`)
	h.inputAttrs(idx, name, name, value, original, labelPrefix, sku, msg)
	h.put(`-error">`)
	h.fieldError(name, idx, msg)
	h.put(`</div>`)
}

// inputAttrs writes the attributes both inputs share, from the name's value
// to the start of aria-describedby's id suffix.
func (h *rowWriter) inputAttrs(idx, name, idPrefix, value, original, labelPrefix, sku, msg string) {
	h.esc(name)
	h.put(`" id="`)
	h.esc(idPrefix)
	h.put(`-`)
	h.put(idx)
	h.put(`" value="`)
	h.esc(value)
	h.put(`" data-original="`)
	h.esc(original)
	h.put(`" aria-label="`)
	h.esc(labelPrefix)
	h.esc(sku)
	h.put(`"`)
	if msg != "" {
		h.put(` aria-invalid="true"`)
	}
	h.put(` aria-describedby="`)
	h.esc(idPrefix)
	h.put(`-`)
	h.put(idx)
}

func (h *rowWriter) fieldError(idPrefix, idx, msg string) {
	if msg != "" {
		h.render(components.FieldError(idPrefix+"-"+idx+"-error", msg))
	}
}
