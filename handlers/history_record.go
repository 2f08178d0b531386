package handlers

import (
	"context"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// record appends a change made in this request to the audit trail, as the
// session's login: client id and display name, seller and environment.
// A failure to record is logged, never shown as a failed change: the
// change itself was made at the marketplace.
func (a *App) record(c echo.Context, e audit.Entry) {
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

// recordReport records a mass update sent from a form: one item per row
// sent (keys, in order), with its old and new value and its answer.
func (a *App) recordReport(c echo.Context, kind string, rep *massupdate.Report, keys []string, texts func(key string) (oldText, newText i18n.Msgs)) {
	items, note := rep.AuditItems(keys, texts)
	a.record(c, audit.Entry{Kind: kind, Items: items, Message: note})
}

// historyAlong starts the history entry of a change of kind made in this
// request, as the session's login (see record), to be written along its
// send (massupdate.HistoryAlong); texts gives a row's old and new value by
// key.
func (a *App) historyAlong(c echo.Context, kind string, texts func(key string) (oldText, newText i18n.Msgs)) *massupdate.HistoryAlong {
	d := session(c).Data()
	ctx := c.Request().Context()
	return &massupdate.HistoryAlong{Ctx: ctx, Store: a.deps.Audit, Texts: texts, Now: a.deps.Now,
		Entry: audit.Entry{Kind: kind, ClientID: d.ClientID, UserName: d.DisplayName, SellerID: d.SellerID, Environment: d.Environment},
		Stuck: func(err error) {
			a.logger(ctx).Warn("audit: history not written along the send; the rest is recorded once sent", "kind", kind, "seller_id", d.SellerID, "err", err)
		}}
}

// finishHistory records the rest of hist's entry once its send is done
// (massupdate.HistoryAlong.Finish). A failure is logged, never shown as a
// failed change: the change itself was made at the marketplace.
func (a *App) finishHistory(ctx context.Context, hist *massupdate.HistoryAlong, rep *massupdate.Report, keys []string) {
	if err := hist.Finish(rep, keys); err != nil {
		a.logger(ctx).Error("audit: change not recorded", "kind", hist.Entry.Kind, "seller_id", hist.Entry.SellerID, "err", err)
	}
}
