package pages

import (
	"context"
	"io"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// CopySearch is the search and filter form of a list served from the local
// copy. Without JavaScript it is a plain GET form; with htmx the results
// follow the typing (debounced), the URL follows the results, and the
// input keeps its focus (only #copy-results is swapped).
//
// It is written in Go for the reason the table rows are: templ's generated
// code costs two allocations per expression, and the toolbar's labels, sort
// and status options were about 96 allocations of every page from the copy
// (bench/NOTES.md, round 6). copySearchTempl (copy_search_reference.templ)
// is the templ original; TestCopySearchMatchesTempl keeps this byte for
// byte the same, in both languages, with and without filters set.
func CopySearch(t CopyToolbar) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := newRowWriter(ctx, w)
		h.render(SyncStatus(t.Sync))
		search := i18n.T(ctx, "copy.search")
		h.put(`<form class="toolbar copy-search" method="get" action="`)
		h.esc(t.Action)
		h.put(`" role="search" data-testid="copy-search" hx-get="`)
		h.esc(t.Action)
		h.put(`" hx-trigger="input changed delay:300ms from:find input[type=search], change, submit" hx-target="#copy-results" hx-select="#copy-results" hx-swap="outerHTML" hx-push-url="true" hx-headers="{&#34;HX-Boosted&#34;: &#34;true&#34;}"><label>`)
		h.esc(search)
		h.put(` <input type="search" name="q" id="copy-q" value="`)
		h.esc(t.Q)
		h.put(`" maxlength="100" placeholder="`)
		h.esc(t.Placeholder)
		h.put(`" autocomplete="off"></label> <label>`)
		h.esc(i18n.T(ctx, "copy.sort"))
		h.put(` <select name="sort" id="copy-sort">`)
		h.options(t.Sorts, t.Sort)
		h.put(`</select></label> `)
		if len(t.Statuses) > 0 {
			h.put(`<label>`)
			h.esc(i18n.T(ctx, "copy.status"))
			h.put(` <select name="status" id="copy-status">`)
			h.options(t.Statuses, t.Status)
			h.put(`</select></label> `)
		}
		to := ""
		if t.Records || t.Dates {
			to = i18n.T(ctx, "copy.to")
		}
		if t.Records {
			h.put(`<label>`)
			h.esc(i18n.T(ctx, "copy.warehouse"))
			h.put(` <input type="text" name="warehouse" id="copy-warehouse" value="`)
			h.esc(t.Warehouse)
			h.put(`" maxlength="64" size="10"></label> <label>`)
			h.esc(i18n.T(ctx, "copy.stock_at_most"))
			h.put(` <input type="number" name="stock" id="copy-stock" value="`)
			h.esc(t.Stock)
			h.put(`" min="0" class="qty"></label> <label>`)
			h.esc(i18n.T(ctx, "copy.price_from"))
			h.put(` <input type="text" inputmode="decimal" name="price_min" id="copy-price-min" value="`)
			h.esc(t.PriceMin)
			h.put(`" class="money" size="8"></label> <label>`)
			h.esc(to)
			h.put(` <input type="text" inputmode="decimal" name="price_max" id="copy-price-max" value="`)
			h.esc(t.PriceMax)
			h.put(`" class="money" size="8"></label> `)
		}
		if t.Dates {
			h.put(`<label>`)
			h.esc(i18n.T(ctx, "copy.created_from"))
			h.put(` <input type="date" name="from" id="copy-from" value="`)
			h.esc(t.From)
			h.put(`"></label> <label>`)
			h.esc(to)
			h.put(` <input type="date" name="to" id="copy-to" value="`)
			h.esc(t.To)
			h.put(`"></label> `)
		}
		if t.KeepStatus != "" {
			h.put(`<input type="hidden" name="status" value="`)
			h.esc(t.KeepStatus)
			h.put(`"> `)
		}
		if t.Limit != "" {
			h.put(`<input type="hidden" name="limit" value="`)
			h.esc(t.Limit)
			h.put(`"> `)
		}
		h.put(`<button type="submit" class="secondary" id="copy-apply">`)
		h.esc(search)
		h.put(`</button> `)
		if t.ExportCSV != "" && !t.Live {
			h.put(`<span class="small" data-testid="copy-export">`)
			h.esc(i18n.T(ctx, "copy.export_all"))
			h.put(` <a href="`)
			h.esc(t.ExportCSV)
			h.put(`" download>CSV</a> · <a href="`)
			h.esc(t.ExportXLSX)
			h.put(`" download>XLSX</a></span> `)
		}
		if t.Live {
			h.put(`<span class="muted small" data-testid="copy-live">`)
			h.esc(i18n.T(ctx, "copy.live"))
			h.put(`</span>`)
		}
		h.put(`</form>`)
		return h.Err
	})
}

// options writes the options of a select, marking the one whose value is
// selected.
func (h *rowWriter) options(opts []Option, selected string) {
	for _, o := range opts {
		h.put(`<option value="`)
		h.esc(o.Value)
		h.put(`"`)
		if o.Value == selected {
			h.put(` selected`)
		}
		h.put(`>`)
		h.esc(o.Label)
		h.put(`</option>`)
	}
}
