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
