package pages

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
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
		sw, ok := w.(io.StringWriter)
		if !ok {
			sw = stringWriter{w}
		}
		var err error
		put := func(s string) {
			if err == nil {
				_, err = sw.WriteString(s)
			}
		}
		esc := func(s string) { put(templ.EscapeString(s)) }
		render := func(c templ.Component) {
			if err == nil {
				err = c.Render(ctx, w)
			}
		}
		text := func(s string, max int) {
			if short, cut := format.Short(s, max); !cut {
				esc(short)
				return
			}
			render(components.Text(s, max))
		}
		var num [20]byte
		for i, r := range v.Rows {
			idx := string(strconv.AppendInt(num[:0], int64(i), 10))
			put(`<tr class="`)
			esc(r.Result.State)
			put(`" data-testid="price-`)
			esc(r.SKU)
			put(`" data-row="`)
			put(idx)
			put(`"><td>`)
			esc(r.SKU)
			put(` `)
			if r.Size != "" {
				put(`<div class="muted small">size `)
				esc(r.Size)
				put(`</div>`)
			}
			put(`<input type="hidden" name="sku" value="`)
			esc(r.SKU)
			put(`"> <input type="hidden" name="orig_price" value="`)
			esc(r.OrigPrice)
			put(`"> <input type="hidden" name="orig_sale" value="`)
			esc(r.OrigSale)
			put(`"> <input type="hidden" name="orig_start" value="`)
			esc(r.OrigStart)
			put(`"> <input type="hidden" name="orig_end" value="`)
			esc(r.OrigEnd)
			put(`"></td><td>`)
			text(r.Name, 60)
			if r.Brand != "" {
				put(`<div class="muted small">`)
				text(r.Brand, 30)
				put(`</div>`)
			}
			put(`</td><td class="num"><span data-testid="current">`)
			esc(r.Current)
			put(`</span><div class="muted small">sale `)
			esc(r.CurrentSale)
			put(`</div>`)
			if r.UpdateStatus != "" && r.UpdateStatus != "OK" {
				put(`<div>`)
				statusBadge(put, esc, r.UpdateStatus)
				put(`</div>`)
			}
			put(`</td>`)
			priceInputPlain(put, esc, render, idx, "price", "price", r.Price, r.OrigPrice, "New price of ", r.SKU, r.Errors["price"])
			priceInputPlain(put, esc, render, idx, "sale", "sale", r.Sale, r.OrigSale, "New sale price of ", r.SKU, r.Errors["sale"])
			put(`<td class="window">`)
			dateInputPlain(put, esc, render, idx, "start", r.Start, r.OrigStart, "Sale start of ", r.SKU, r.Errors["start"])
			dateInputPlain(put, esc, render, idx, "end", r.End, r.OrigEnd, "Sale end of ", r.SKU, r.Errors["end"])
			put(`</td><td data-testid="result">`)
			switch r.Result.State {
			case "":
			case "accepted":
				put(`<span class="row-ok">✓ `)
				esc(r.Result.Before)
				put(` → `)
				esc(r.Result.After)
				put(`</span>`)
			default:
				render(rowResult(r.Result))
			}
			put(`</td></tr>`)
			if err != nil {
				return err
			}
		}
		return err
	})
}

// priceInputPlain is the priceInput component; label is labelPrefix+sku.
func priceInputPlain(put, esc func(string), render func(templ.Component), idx, name, idPrefix, value, original, labelPrefix, sku, msg string) {
	put(`<td><input class="money" type="text" inputmode="decimal" name="`)
	esc(name)
	put(`" id="`)
	esc(idPrefix)
	put(`-`)
	put(idx)
	put(`" value="`)
	esc(value)
	put(`" data-original="`)
	esc(original)
	put(`" aria-label="`)
	esc(labelPrefix)
	esc(sku)
	put(`"`)
	if msg != "" {
		put(` aria-invalid="true"`)
	}
	put(` aria-describedby="`)
	esc(idPrefix)
	put(`-`)
	put(idx)
	put(`-error" maxlength="32">`)
	if msg != "" {
		render(components.FieldError(idPrefix+"-"+idx+"-error", msg))
	}
	put(`</td>`)
}

// dateInputPlain is the dateInput component; label is labelPrefix+sku.
func dateInputPlain(put, esc func(string), render func(templ.Component), idx, name, value, original, labelPrefix, sku, msg string) {
	put(`<div class="date-field"><input type="date" name="`)
	esc(name)
	put(`" id="`)
	esc(name)
	put(`-`)
	put(idx)
	put(`" value="`)
	esc(value)
	put(`" data-original="`)
	esc(original)
	put(`" aria-label="`)
	esc(labelPrefix)
	esc(sku)
	put(`"`)
	if msg != "" {
		put(` aria-invalid="true"`)
	}
	put(` aria-describedby="`)
	esc(name)
	put(`-`)
	put(idx)
	put(`-error">`)
	if msg != "" {
		render(components.FieldError(name+"-"+idx+"-error", msg))
	}
	put(`</div>`)
}
