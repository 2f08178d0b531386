package handlers

import (
	"context"
	"slices"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// sellerStatusOptions lists what the seller may choose for a record
// (browse.StatusChoices), labelled in the language of ctx.
func sellerStatusOptions(ctx context.Context, current string) []pages.Option {
	return localStatusOptions(ctx, browse.StatusChoices(current), "")
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
