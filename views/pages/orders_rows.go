package pages

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// orderRows renders the rows of the orders table. It is written in Go rather
// than templ because it is the hottest markup of the dashboard: templ's
// generated code passes every { expression } through fmt.Sprint (two
// allocations each, about 18 per row), which made a 50-row page cost some
// 3,900 allocations (BENCHMARKS.md, P7). The markup is byte for byte what
// the templ version produced (TestOrderRowsMatchTempl keeps it so); every
// value goes through templ.EscapeString, as templ does, and a resend control
// that shows a message falls back to the templ ResendForm.
func orderRows(v OrdersView) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		h := newRowWriter(ctx, w)
		for _, r := range v.Rows {
			h.put(`<tr data-testid="order-`)
			h.esc(r.OrderNr)
			h.put(`"><td><input type="checkbox" name="orderNr" value="`)
			h.esc(r.OrderNr)
			h.put(`" form="`)
			h.esc(v.Bulk.FormID)
			h.put(`" aria-label="`)
			h.esc(v.SelectLabel)
			h.esc(r.OrderNr)
			h.put(`"></td><td><a href="`)
			h.esc(string(templ.SafeURL(r.Href)))
			h.put(`">`)
			h.esc(r.OrderNr)
			h.put(`</a></td><td>`)
			h.statusBadge(r.Status)
			h.put(`</td><td>`)
			h.esc(r.Created)
			h.put(`</td><td class="num">`)
			h.put(strconv.Itoa(r.Items))
			h.put(`</td><td class="num">`)
			h.esc(r.Sum)
			h.put(`</td><td>`)
			h.esc(r.Payment)
			h.put(`</td><td>`)
			if r.Resend.Message != "" {
				h.render(ResendForm(r.Resend))
			} else {
				h.resendForm(r.Resend)
			}
			h.put(`</td></tr>`)
			if h.Err != nil {
				return h.Err
			}
		}
		return h.Err
	})
}

// statusBadge is components.Status written directly: templ's class
// processor (a map and a slice per badge) and fmt.Sprint per expression were
// about ten allocations a row. templ joins the classes "badge" and the tone
// with a space even when the tone is empty, and so does this.
func (h *rowWriter) statusBadge(status string) {
	h.put(`<span class="badge `)
	h.esc(string(format.StatusTone(status)))
	h.put(`" data-status="`)
	h.esc(status)
	h.put(`">`)
	h.esc(h.statusLabel(status))
	h.put(`</span>`)
}

// statusLabel is i18n.Status in the language of the page, looked up once
// per status and render: a catalogue lookup costs allocations, and a page
// shows a handful of statuses over its fifty rows.
func (h *rowWriter) statusLabel(status string) string {
	if l, ok := h.statuses[status]; ok {
		return l
	}
	l := i18n.Status(h.ctx, status)
	if h.statuses == nil {
		h.statuses = make(map[string]string, 4)
	}
	h.statuses[status] = l
	return l
}

// resendForm is ResendForm without a message, as orderRows needs it.
func (h *rowWriter) resendForm(r Resend) {
	h.put(`<form class="resend" id="`)
	h.esc(r.FormID)
	h.put(`" method="post" action="/orders/resend" hx-post="/orders/resend" hx-swap="outerHTML" data-testid="`)
	h.esc(r.FormID)
	h.put(`"><input type="hidden" name="form_id" value="`)
	h.esc(r.FormID)
	h.put(`"> <input type="hidden" name="return" value="`)
	h.esc(r.Return)
	h.put(`"> `)
	for _, nr := range r.OrderNrs {
		h.put(`<input type="hidden" name="orderNr" value="`)
		h.esc(nr)
		h.put(`"> `)
	}
	h.put(`<button type="submit" class="secondary" data-wait`)
	if r.RetryIn > 0 {
		h.put(` disabled`)
	}
	h.put(`>`)
	h.esc(r.Label)
	h.put(`</button> </form>`)
}
