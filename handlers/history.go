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

// historyQuery is the history's filter as the URL carries it.
type historyQuery struct {
	text, kind, from, to string
	page                 int
	filter               audit.Filter
	problems             []string
}

func parseHistoryQuery(c echo.Context) historyQuery {
	d := session(c).Data()
	q := historyQuery{page: 1, filter: audit.Filter{SellerID: d.SellerID, Environment: d.Environment}}
	if p, err := strconv.Atoi(c.QueryParam("page")); err == nil && p >= 1 && p <= 1_000_000 {
		q.page = p
	}
	q.text = audit.Bound(c.QueryParam("q"), audit.MaxSearchText)
	q.filter.Text = q.text
	for _, k := range audit.Kinds {
		if c.QueryParam("kind") == k {
			q.kind, q.filter.Kind = k, k
		}
	}
	day := func(name string) (time.Time, string) {
		v := strings.TrimSpace(c.QueryParam(name))
		if v == "" {
			return time.Time{}, ""
		}
		t, err := time.Parse("2006-01-02", v)
		if err != nil {
			q.problems = append(q.problems, i18n.TD(c.Request().Context(), "history.bad_date", map[string]any{"Value": strconv.Quote(audit.Bound(v, 20))}))
			return time.Time{}, ""
		}
		return t, v
	}
	var from, to time.Time
	from, q.from = day("from")
	to, q.to = day("to")
	q.filter.From = from
	if !to.IsZero() {
		q.filter.To = to.AddDate(0, 0, 1) // the whole last day
	}
	return q
}

func (q historyQuery) values(page int) url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"q": q.text, "kind": q.kind, "from": q.from, "to": q.to} {
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
	entries, total, err := a.deps.Audit.List(c.Request().Context(), q.filter, historyPageSize, (q.page-1)*historyPageSize, historyItemsShown)
	if err != nil {
		return err
	}
	retention := a.deps.HistoryRetention
	if retention <= 0 {
		retention = audit.DefaultRetention
	}
	ctx := c.Request().Context()
	v := pages.HistoryView{
		Text: q.text, Kind: q.kind, From: q.from, To: q.to, Total: total, Problems: q.problems,
		Kinds:      append([]pages.Option{{Value: "", Label: i18n.T(ctx, "history.kind_all")}}, kindOptions(ctx)...),
		ExportHref: paths.WithQuery(at(c, paths.HistoryExportCSV), q.values(1)),
		Retention:  retentionText(ctx, retention),
		Zone:       format.ZoneLabel(format.LocaleOf(ctx), a.deps.Now()),
		Filtered:   q.text != "" || q.kind != "" || q.from != "" || q.to != "",
	}
	npages := (total + historyPageSize - 1) / historyPageSize
	v.Pager = components.NewPager(q.page, npages, total, func(p int) string { return paths.WithQuery(at(c, paths.History), q.values(p)) })
	for _, e := range entries {
		v.Entries = append(v.Entries, historyEntry(ctx, e))
	}
	return a.render(c, http.StatusOK, pages.HistoryPage(a.chrome(c, i18n.T(ctx, "history.title"), "history"), v), nil)
}

// kindKeys are the catalogue keys of the kinds of change.
var kindKeys = map[string]string{
	audit.KindPrice:    i18n.K("history.kind.price"),
	audit.KindStock:    i18n.K("history.kind.stock"),
	audit.KindResend:   i18n.K("history.kind.resend"),
	audit.KindBulk:     i18n.K("history.kind.bulk"),
	audit.KindReadBack: i18n.K("history.kind.read_back"),
}

// kindLabel names a kind of change in the language of ctx; a kind without
// a key shows as stored.
func kindLabel(ctx context.Context, kind string) string {
	if key, ok := kindKeys[kind]; ok {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
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

// outcomeKeys are the catalogue keys of the outcomes, with their badge tone.
var outcomeKeys = map[string][2]string{
	audit.Accepted: {i18n.K("history.outcome.accepted"), "ok"},
	audit.Refused:  {i18n.K("history.outcome.refused"), "bad"},
	audit.Partial:  {i18n.K("history.outcome.partial"), "warn"},
	audit.Unknown:  {i18n.K("history.outcome.unknown"), "warn"},
	audit.Unsent:   {i18n.K("history.outcome.unsent"), "warn"},
	audit.Queued:   {i18n.K("history.outcome.queued"), "ok"},
	audit.Busy:     {i18n.K("history.outcome.busy"), "warn"},
}

// outcomeLabel names an outcome in the language of ctx, and its badge tone.
func outcomeLabel(ctx context.Context, o string) (string, string) {
	if k, ok := outcomeKeys[o]; ok {
		return i18n.In(i18n.LangOf(ctx), k[0], nil, nil), k[1]
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
