package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// historyPageSize is the number of entries per history page, and
// historyItemsShown the items shown under each (the export has them all).
const (
	historyPageSize   = 50
	historyItemsShown = 10
)

// parseHistoryQuery is the history's filter the URL gives
// (audit.ParseQuery), of the session's seller in its environment.
func parseHistoryQuery(c echo.Context) audit.Query {
	d := session(c).Data()
	return audit.ParseQuery(c.QueryParam, audit.Filter{SellerID: d.SellerID, Environment: d.Environment})
}

// historyValues is the canonical query of page of the history q selects.
func historyValues(q audit.Query, page int) url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"q": q.Text, "kind": q.Kind, "from": q.From, "to": q.To} {
		if s != "" {
			v.Set(k, s)
		}
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v
}

// HistoryList shows the audit trail of the session's seller in its
// environment: every change made through the dashboard, newest first,
// searchable and paged. Nothing on it can be deleted: entries leave only
// by the configured retention.
func (a *App) HistoryList(c echo.Context) error {
	q := parseHistoryQuery(c)
	if err := a.enterLocal(c); err != nil {
		return err
	}
	entries, total, err := a.deps.Audit.List(c.Request().Context(), q.Filter, historyPageSize, (q.Page-1)*historyPageSize, historyItemsShown)
	if err != nil {
		return err
	}
	retention := a.deps.HistoryRetention
	if retention <= 0 {
		retention = audit.DefaultRetention
	}
	ctx := c.Request().Context()
	v := pages.HistoryView{
		Text: q.Text, Kind: q.Kind, From: q.From, To: q.To, Total: total,
		Kinds:      append([]pages.Option{{Value: "", Label: i18n.T(ctx, "history.kind_all")}}, kindOptions(ctx)...),
		ExportHref: paths.WithQuery(at(c, paths.HistoryExportCSV), historyValues(q, 1)),
		Retention:  retentionText(ctx, retention),
		Zone:       format.ZoneLabel(format.LocaleOf(ctx), a.deps.Now()),
		Filtered:   q.Filtered(),
	}
	for _, p := range q.Problems {
		v.Problems = append(v.Problems, i18n.Text(ctx, p))
	}
	npages := (total + historyPageSize - 1) / historyPageSize
	v.Pager = components.NewPager(q.Page, npages, total, func(p int) string { return paths.WithQuery(at(c, paths.History), historyValues(q, p)) })
	for _, e := range entries {
		v.Entries = append(v.Entries, historyEntry(ctx, e))
	}
	return a.render(c, http.StatusOK, pages.HistoryPage(a.chrome(c, i18n.T(ctx, "history.title"), "history"), v), nil)
}

// kindLabel names a kind of change in the language of ctx; a kind without
// a key shows as stored.
func kindLabel(ctx context.Context, kind string) string {
	if key := audit.KindKey(kind); key != "" {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil) // keys checked where written (i18n.K)
	}
	return kind
}

func kindOptions(ctx context.Context) []pages.Option {
	out := make([]pages.Option, len(audit.Kinds))
	for i, k := range audit.Kinds {
		out[i] = pages.Option{Value: k, Label: kindLabel(ctx, k)}
	}
	return out
}

func retentionText(ctx context.Context, d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return i18n.N(ctx, "history.days", int(d/(24*time.Hour)))
	}
	return i18n.N(ctx, "history.hours", int((d+time.Hour-1)/time.Hour))
}

// outcomeLabel names an outcome in the language of ctx, and its badge tone.
func outcomeLabel(ctx context.Context, o string) (string, string) {
	if key, tone := audit.OutcomeKey(o); key != "" {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil), tone // keys checked where written (i18n.K)
	}
	return o, "info"
}

func historyEntry(ctx context.Context, e audit.Entry) pages.HistoryEntry {
	who := e.UserName
	if who == "" {
		who = e.ClientID
	} else if e.ClientID != "" {
		who += " (" + e.ClientID + ")"
	}
	label, tone := outcomeLabel(ctx, e.Outcome)
	env := i18n.Env(ctx, e.Environment)
	h := pages.HistoryEntry{
		ID: strconv.FormatInt(e.ID, 10), When: format.DateTimeIn(format.LocaleOf(ctx), e.At), Who: who,
		Environment: env + " · " + i18n.TD(ctx, "chrome.seller", map[string]any{"ID": strconv.FormatInt(e.SellerID, 10)}),
		Kind:        e.Kind, KindLabel: kindLabel(ctx, e.Kind), Outcome: label, OutcomeTone: tone, Message: format.Message(ctx, e.Message),
		Count: e.ItemCount, More: e.ItemCount - len(e.Items), Dropped: e.Dropped,
	}
	if (e.Kind == audit.KindBulk || e.Kind == audit.KindReadBack) && e.Ref != "" {
		h.Href = paths.In(ctx, paths.Job(e.Ref))
	}
	for _, it := range e.Items {
		l, t := outcomeLabel(ctx, it.Outcome)
		if it.Outcome == "" {
			l = ""
		}
		h.Items = append(h.Items, pages.HistoryItem{Key: shownKey(it.Key), Name: it.Name, Old: format.Message(ctx, it.Old), New: format.Message(ctx, kindsKept(e.Kind, it.New)),
			Outcome: l, OutcomeTone: t, Message: format.Message(ctx, it.Message), ReadBack: format.Message(ctx, it.ReadBack),
			Href: productHref(ctx, e.Kind, it.Key)})
	}
	return h
}

// kindsKept is a resend item's kinds of notification as the history shows
// them: an entry recorded with the marketplace's names as one verbatim text
// ("statusChanged, itemStatusChanged") reads by their labels, as entries
// recorded since do.
func kindsKept(kind string, ms i18n.Msgs) i18n.Msgs {
	if kind != audit.KindResend || len(ms) != 1 || !ms[0].Verbatim {
		return ms
	}
	return i18n.NotificationTypes(strings.Split(ms[0].Text, ", "))
}
