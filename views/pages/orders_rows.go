package pages

import (
	"context"
	"io"
	"strconv"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/format"
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
		for _, r := range v.Rows {
			put(`<tr data-testid="order-`)
			esc(r.OrderNr)
			put(`"><td><input type="checkbox" name="orderNr" value="`)
			esc(r.OrderNr)
			put(`" form="`)
			esc(v.Bulk.FormID)
			put(`" aria-label="Select `)
			esc(r.OrderNr)
			put(`"></td><td><a href="`)
			esc(string(templ.SafeURL(r.Href)))
			put(`">`)
			esc(r.OrderNr)
			put(`</a></td><td>`)
			statusBadge(put, esc, r.Status)
			put(`</td><td>`)
			esc(r.Created)
			put(`</td><td class="num">`)
			put(strconv.Itoa(r.Items))
			put(`</td><td class="num">`)
			esc(r.Sum)
			put(`</td><td>`)
			esc(r.Payment)
			put(`</td><td>`)
			if r.Resend.Message != "" {
				if err == nil {
					err = ResendForm(r.Resend).Render(ctx, w)
				}
			} else {
				resendFormPlain(put, esc, r.Resend)
			}
			put(`</td></tr>`)
			if err != nil {
				return err
			}
		}
		return err
	})
}

// statusBadge is components.Status written directly: templ's class
// processor (a map and a slice per badge) and fmt.Sprint per expression were
// about ten allocations a row. templ joins the classes "badge" and the tone
// with a space even when the tone is empty, and so does this.
func statusBadge(put, esc func(string), status string) {
	put(`<span class="badge `)
	esc(string(format.StatusTone(status)))
	put(`" data-status="`)
	esc(status)
	put(`">`)
	esc(format.StatusLabel(status))
	put(`</span>`)
}

// resendFormPlain is ResendForm without a message, as orderRows needs it.
func resendFormPlain(put, esc func(string), r Resend) {
	put(`<form class="resend" id="`)
	esc(r.FormID)
	put(`" method="post" action="/orders/resend" hx-post="/orders/resend" hx-swap="outerHTML" data-testid="`)
	esc(r.FormID)
	put(`"><input type="hidden" name="form_id" value="`)
	esc(r.FormID)
	put(`"> <input type="hidden" name="return" value="`)
	esc(r.Return)
	put(`"> `)
	for _, nr := range r.OrderNrs {
		put(`<input type="hidden" name="orderNr" value="`)
		esc(nr)
		put(`"> `)
	}
	put(`<button type="submit" class="secondary" data-wait`)
	if r.RetryIn > 0 {
		put(` disabled`)
	}
	put(`>`)
	esc(r.Label)
	put(`</button> </form>`)
}

type stringWriter struct{ io.Writer }

func (s stringWriter) WriteString(str string) (int, error) { return s.Write([]byte(str)) }
