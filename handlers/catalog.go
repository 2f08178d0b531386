// What the prices (prices.go) and nomenclature (nomenclature.go) screens
// share: their queries, laying the user's values and outcomes over a page
// read by browse (overlay), and the drafts they restore.

package handlers

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// catalogLimits are the page sizes of the nomenclature and prices screens.
// Sizes above browse.UpstreamLimit are read as several marketplace pages.
var catalogLimits = []int{20, 50, 100, 200, 500, 1000}

func catalogQuery(c echo.Context) listQuery { return parseListQuery(c, catalogLimits, 50, nil) }

// pricesQuery reads the prices view. Its pages count marketplace records
// (one per product and warehouse), shown once per product, so the default
// is larger than the nomenclature's.
func pricesQuery(c echo.Context) listQuery { return parseListQuery(c, catalogLimits, 100, nil) }

// restoreDraft takes back the unsent edits of a form that a detour through
// the login page saved (see credentialsRejected), keyed by row.
func restoreDraft[T any](ctx context.Context, sess *sessions.Session, form string, bind func(url.Values) ([]T, error), key func(T) string) map[string]T {
	d := sess.PopDraft(form)
	if d == nil {
		return nil
	}
	rows, err := bind(d)
	if err != nil || len(rows) == 0 {
		return nil
	}
	out := make(map[string]T, len(rows))
	for _, r := range rows {
		out[key(r)] = r
	}
	sess.AddFlash("info", i18n.T(ctx, "sync.draft_restored"))
	return out
}

// rowKey makes a warehouse|barcode key safe for element ids and test ids.
func rowKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, k)
}

// formState is a mass-update form over a page: the rows the user edited,
// as typed, by key; the field problems of the invalid ones; and, once
// sent, the report of what became of each.
type formState[In any] struct {
	inputs  map[string]In
	invalid map[string]map[string]i18n.Msgs
	report  *massupdate.Report
	// held are the rows beyond the price guard: not sent until confirmed.
	held map[string]massupdate.Held
}

// matchLate resolves an item error the marketplace keyed in the other shape
// (by SKU for a stock row, by warehouse|barcode for a price row) against a
// record of the page: the row under key is rejected.
func (st formState[In]) matchLate(key, otherKey string) {
	if st.report == nil || len(st.report.Unmatched) == 0 {
		return
	}
	if msgs, ok := st.report.Unmatched[otherKey]; ok {
		st.report.Reject(key, msgs)
	}
}

// rowOverlay says how one screen's rows take the user's values.
type rowOverlay[In, Row any] struct {
	// offPage is the row shown for an edit the fresh page no longer lists.
	offPage func(key string, in In) Row
	// dropAccepted leaves out an accepted edit the page does not list: it
	// is counted in the summary, not repeated.
	dropAccepted bool
	// typed lays the typed values, and the baseline they were typed over,
	// on the row.
	typed func(row *Row, in In)
	// accepted is an accepted row's result; it also moves the row's
	// baseline to what was sent, so submitting again does not resend it.
	accepted func(row *Row, in In) pages.RowResult
	// applied, when set, moves the baseline of the parts of a row not
	// accepted whole that the marketplace applied (Outcome.Applied) to
	// what was sent, so submitting again sends only the rest.
	applied func(row *Row, in In, parts []string)
	// cells are the row's field problems and result.
	cells func(row *Row) (errs *map[string]i18n.Msgs, res *pages.RowResult)
	// held, when set, is the result of a row beyond the price guard, not
	// sent (h.Confirmed false), or the confirmation kept on a row that
	// was sent confirmed and is not accepted.
	held func(row *Row, in In, h massupdate.Held, res pages.RowResult) pages.RowResult
}

// overlay lays a form's typed values and each row's outcome over the rows
// of a fetched page (index: row key to position), adding the edited rows
// the page no longer lists, in key order. It returns the rows.
func overlay[In, Row any](rows []Row, index map[string]int, st formState[In], o rowOverlay[In, Row]) []Row {
	if len(st.inputs) == 0 {
		return rows
	}
	keys := slices.Sorted(maps.Keys(st.inputs))
	for _, k := range keys {
		if _, ok := index[k]; ok {
			continue
		}
		if _, bad := st.invalid[k]; o.dropAccepted && !bad && st.report != nil && st.report.Outcomes[k].State == massupdate.Accepted {
			continue
		}
		index[k] = len(rows)
		rows = append(rows, o.offPage(k, st.inputs[k]))
	}
	for _, k := range keys {
		i, ok := index[k]
		if !ok {
			continue // accepted, off the page: counted in the summary
		}
		in, row := st.inputs[k], &rows[i]
		o.typed(row, in)
		errs, res := o.cells(row)
		if fe, ok := st.invalid[k]; ok {
			*errs, *res = fe, pages.RowResult{State: "invalid"}
			continue
		}
		h, guarded := st.held[k]
		if guarded && !h.Confirmed && o.held != nil {
			*res = o.held(row, in, h, pages.RowResult{})
			continue
		}
		if st.report == nil {
			continue
		}
		out := st.report.Outcomes[k]
		if len(out.Applied) > 0 && out.State != massupdate.Accepted && o.applied != nil {
			o.applied(row, in, out.Applied)
		}
		switch out.State {
		case massupdate.Accepted:
			*res = o.accepted(row, in)
		case massupdate.Rejected:
			*res = pages.RowResult{State: "rejected", Messages: out.Messages}
		case massupdate.Unsent, massupdate.Unknown:
			*res = pages.RowResult{State: pages.RowState(out.State)}
		}
		if guarded && o.held != nil && res.State != pages.RowState(massupdate.Accepted) {
			*res = o.held(row, in, h, *res)
		}
	}
	return rows
}
