package handlers

import (
	"context"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// record appends a change made in this request to the audit trail, as the
// session's login: client id and display name, seller and environment.
// A failure to record is logged, never shown as a failed change: the
// change itself was made at the marketplace.
func (a *App) record(c echo.Context, e audit.Entry) {
	if a.deps.Audit == nil {
		return
	}
	d := session(c).Data()
	e.ClientID, e.UserName, e.SellerID, e.Environment = d.ClientID, d.DisplayName, d.SellerID, d.Environment
	e.At = a.deps.Now()
	a.recordEntry(c.Request().Context(), e)
}

func (a *App) recordEntry(ctx context.Context, e audit.Entry) {
	var rec audit.Recorder = a.deps.Audit
	if err := rec.Record(ctx, e); err != nil {
		a.logger(ctx).Error("audit: change not recorded", "kind", e.Kind, "seller_id", e.SellerID, "err", err)
	}
}

// reportItems turns a mass update's outcomes into audit items, in the
// order of keys, the dashboard's own words in the language of ctx (the
// person who sent them); texts gives each key's name, old and new value as the
// page shows them. Item errors the page could not match to a row go into
// the entry's message.
func reportItems(ctx context.Context, rep *massupdate.Report, keys []string, texts func(key string) (oldText, newText string)) ([]audit.Item, string) {
	items := make([]audit.Item, 0, len(keys))
	for _, k := range keys {
		o := rep.Outcomes[k]
		it := audit.Item{Key: k, Message: shownJoined(ctx, o.Messages)}
		it.Old, it.New = texts(k)
		switch o.State {
		case massupdate.Accepted:
			it.Outcome = audit.Accepted
		case massupdate.Rejected:
			it.Outcome = audit.Refused
		case massupdate.Unknown:
			it.Outcome, it.Message = audit.Unknown, i18n.T(ctx, "history.item_unknown")
		default:
			it.Outcome, it.Message = audit.Unsent, i18n.T(ctx, "history.item_unsent")
		}
		items = append(items, it)
	}
	msg := format.Message(ctx, rep.Note())
	for k, msgs := range rep.Unmatched {
		msg += " " + k + ": " + shownJoined(ctx, msgs)
	}
	return items, strings.TrimSpace(msg)
}

// shownJoined is messages (the marketplace's as sent, the dashboard's in
// the language of ctx) joined by spaces.
func shownJoined(ctx context.Context, msgs []string) string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = format.Message(ctx, m)
	}
	return strings.Join(out, " ")
}

// recordReport records a mass update sent from a form: one item per row
// sent (keys, in order), with its old and new value and its answer.
func (a *App) recordReport(c echo.Context, kind string, rep *massupdate.Report, keys []string, texts func(key string) (oldText, newText string)) {
	items, note := reportItems(c.Request().Context(), rep, keys, texts)
	a.record(c, audit.Entry{Kind: kind, Items: items, Message: note})
}

// keysOf lists the keys of the items sent.
func keysOf[T any](xs []T, key func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = key(x)
	}
	return out
}
