package handlers

import (
	"context"
	"slices"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// sellerStatuses are the statuses a seller sets; moderation sets the others.
var sellerStatuses = []string{"online", "disabled"}

// sellerStatusOptions lists what the seller may choose for a record, plus
// its current status so an untouched select submits it unchanged.
func sellerStatusOptions(ctx context.Context, current string) []pages.Option {
	// Only the changes the marketplace allows
	allowed := slices.DeleteFunc(slices.Clone(sellerStatuses), func(s string) bool { return len(massupdate.StatusRefused(current, s)) > 0 })
	opts := localStatusOptions(ctx, allowed, "")
	if current != "" && !slices.Contains(sellerStatuses, current) {
		opts = append([]pages.Option{{Value: current, Label: i18n.Status(ctx, current)}}, opts...)
	}
	return opts
}

// statusOptionsMemo builds sellerStatusOptions once per status of a page
// (a page's records share a handful of statuses); the rows only read them.
type statusOptionsMemo struct {
	ctx  context.Context
	a    *App
	seen [4]struct {
		status string
		opts   []pages.Option
	}
	n int
}

func (m *statusOptionsMemo) get(status string) []pages.Option {
	for i := range m.n {
		if m.seen[i].status == status {
			return m.seen[i].opts
		}
	}
	opts := m.a.sellerStatusOptionsIn(m.ctx, status)
	if m.n < len(m.seen) {
		m.seen[m.n].status, m.seen[m.n].opts = status, opts
		m.n++
	}
	return opts
}

// sellerOptionsKey names a list of App.sellerOptions: the status choices
// of a record in a language.
type sellerOptionsKey struct {
	lang   i18n.Lang
	status string
}

// sellerStatusOptionsIn is sellerStatusOptions, built once per language
// for a status the marketplace defines (App.sellerOptions); any other
// status a record carries is not kept, so what is held stays bounded.
func (a *App) sellerStatusOptionsIn(ctx context.Context, status string) []pages.Option {
	if !slices.Contains(massupdate.Statuses, status) {
		return sellerStatusOptions(ctx, status)
	}
	return a.sellerOptions.get(sellerOptionsKey{i18n.LangOf(ctx), status}, func() []pages.Option {
		return sellerStatusOptions(ctx, status)
	})
}
