package audit

import (
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Query is the history's filter as a URL gives it: the texts kept for
// the form, the Filter they make and the values not understood.
type Query struct {
	Text, Kind, From, To string
	// Page is the page asked for, from 1.
	Page   int
	Filter Filter
	// Problems name each value that does not parse, which is left out.
	Problems []i18n.Msgs
}

// ParseQuery reads the history's page, q (bounded), kind and the days
// from and to (inclusive; "2006-01-02") through get (a URL's query
// parameter by name), for the history of f's seller in f's environment.
func ParseQuery(get func(name string) string, f Filter) Query {
	q := Query{Page: 1, Filter: f}
	if p, err := strconv.Atoi(get("page")); err == nil && p >= 1 && p <= 1_000_000 {
		q.Page = p
	}
	q.Text = Bound(get("q"), MaxSearchText)
	q.Filter.Text = q.Text
	for _, k := range Kinds {
		if get("kind") == k {
			q.Kind, q.Filter.Kind = k, k
		}
	}
	day := func(name string) (time.Time, string) {
		v := strings.TrimSpace(get(name))
		if v == "" {
			return time.Time{}, ""
		}
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			q.Problems = append(q.Problems, i18n.Of(i18n.M("history.bad_date", map[string]any{"Value": strconv.Quote(Bound(v, 20))})))
			return time.Time{}, ""
		}
		return t, v
	}
	q.Filter.From, q.From = day("from")
	var to time.Time
	if to, q.To = day("to"); !to.IsZero() {
		q.Filter.To = to.AddDate(0, 0, 1) // the whole last day
	}
	return q
}

// Filtered reports whether q narrows the history.
func (q Query) Filtered() bool { return q.Text != "" || q.Kind != "" || q.From != "" || q.To != "" }

// kindKeys are the catalogue keys of the kinds of change.
var kindKeys = map[string]string{
	KindPrice:    i18n.K("history.kind.price"),
	KindStock:    i18n.K("history.kind.stock"),
	KindResend:   i18n.K("history.kind.resend"),
	KindBulk:     i18n.K("history.kind.bulk"),
	KindReadBack: i18n.K("history.kind.read_back"),
}

// KindKey is the catalogue key naming a kind of change; "" for a kind
// without one, shown as stored.
func KindKey(kind string) string { return kindKeys[kind] }

// outcomeKeys are the catalogue keys of the outcomes, with their badge
// tone.
var outcomeKeys = map[string][2]string{
	Accepted: {i18n.K("history.outcome.accepted"), "ok"},
	Refused:  {i18n.K("history.outcome.refused"), "bad"},
	Partial:  {i18n.K("history.outcome.partial"), "warn"},
	Unknown:  {i18n.K("history.outcome.unknown"), "warn"},
	Unsent:   {i18n.K("history.outcome.unsent"), "warn"},
	Queued:   {i18n.K("history.outcome.queued"), "ok"},
	Busy:     {i18n.K("history.outcome.busy"), "warn"},
}

// OutcomeKey is the catalogue key naming an outcome and its badge tone
// ("ok", "warn", "bad"); "" and "info" for an outcome without one.
func OutcomeKey(o string) (key, tone string) {
	if k, ok := outcomeKeys[o]; ok {
		return k[0], k[1]
	}
	return "", "info"
}
