package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// HistoryExportCSV downloads every entry the filter selects, one line per
// item, streamed as it is read (a large history is never held whole).
func (a *App) HistoryExportCSV(c echo.Context) error {
	q := parseHistoryQuery(c)
	if err := a.saveSession(c); err != nil {
		return err
	}
	name := sheets.DatedFileName("csv", a.today(c), "history", "seller-"+strconv.FormatInt(q.Filter.SellerID, 10), sheets.DayRange(q.From, q.To))
	h := c.Response().Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(http.StatusOK)
	ctx := c.Request().Context()
	w := audit.NewCSVWriterIn(c.Response(), audit.CSVText{
		Header: []string{i18n.T(ctx, "export.history.entry"), i18n.T(ctx, "export.history.when"), i18n.T(ctx, "export.history.client_id"),
			i18n.T(ctx, "export.history.name"), i18n.T(ctx, "export.history.seller"), i18n.T(ctx, "export.history.environment"),
			i18n.T(ctx, "export.history.kind"), i18n.T(ctx, "export.history.reference"), i18n.T(ctx, "export.history.outcome"),
			i18n.T(ctx, "export.history.message"), i18n.T(ctx, "export.history.item"), i18n.T(ctx, "export.history.product"),
			i18n.T(ctx, "export.history.old"), i18n.T(ctx, "export.history.new"), i18n.T(ctx, "export.history.item_outcome"),
			i18n.T(ctx, "export.history.item_message"), i18n.T(ctx, "export.history.read_back")},
		Kind:       func(k string) string { return kindLabel(ctx, k) },
		Text:       func(ms i18n.Msgs) string { return format.Message(ctx, ms) },
		Env:        func(env string) string { return i18n.Env(ctx, env) },
		Outcome:    func(o string) string { l, _ := outcomeLabel(ctx, o); return l },
		Incomplete: i18n.T(ctx, "export.history.incomplete"),
	})
	write := func(e audit.Entry, it audit.Item) error {
		it.New = kindsKept(e.Kind, it.New)
		return w.Write(e, it)
	}
	if err := a.deps.Audit.Each(c.Request().Context(), q.Filter, write); err != nil {
		// The header is sent: the export ends with a line saying it is
		// incomplete, and the log says why.
		a.logger(c.Request().Context()).Error("history export cut short", "err", err)
		return w.Incomplete()
	}
	return w.Flush()
}
