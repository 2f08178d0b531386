package handlers

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// The sort choices of each list's toolbar (browse).
var (
	nomenclatureSorts = browse.NomenclatureSorts
	priceSorts        = browse.PriceSorts
	orderSorts        = browse.OrderSorts
	boxSorts          = browse.BoxSorts
)

// sortHead is the head of a column of a list from the copy: a link to
// the first page sorted by col, descending when the list is sorted by it
// ascending, with the current direction for aria-sort.
func (q listQuery) sortHead(path, col string) pages.SortHead {
	h := pages.SortHead{}
	next := q
	next.Page = 1
	next.copy.Sort = col
	switch q.copy.Sort {
	case col:
		next.copy.Sort, h.Dir = "-"+col, "ascending"
	case "-" + col:
		h.Dir = "descending"
	}
	h.Href = next.link(path)
	return h
}

// copyToolbar is the search and filter form of a list, with the copy's
// freshness line; Live while the first full copy is not complete.
func (a *App) copyToolbar(c echo.Context, path string, q listQuery, sorts []browse.Sort) (*pages.CopyToolbar, error) {
	ctx := c.Request().Context()
	states, err := a.seller(c).States(ctx)
	if err != nil {
		return nil, err
	}
	l := i18n.LangOf(ctx)
	sv := a.syncView(ctx, states, false)
	tb := &pages.CopyToolbar{Action: at(c, path), Sync: sv, Live: !browse.Complete(states), Q: q.copy.Q, Sort: q.copy.Sort, Sorts: a.localSorts(l, sorts),
		Warehouse: q.copy.Warehouse, Stock: q.copy.Stock, PriceMin: q.copy.PriceMin, PriceMax: q.copy.PriceMax,
		From: q.copy.From, To: q.copy.To, KeepStatus: q.Status}
	switch path {
	case paths.Nomenclature, paths.Prices: // both list nomenclature records
		tb.Records, tb.Placeholder = true, i18n.T(ctx, "copy.placeholder_records")
		tb.Status, tb.Statuses = q.copy.Status, a.copyStatusOptions(ctx, l)
		// The whole filtered list, prices included, from either screen.
		all := q
		all.Page, all.Limit = 1, all.def
		tb.ExportCSV, tb.ExportXLSX = all.link(at(c, paths.ExportAll("csv"))), all.link(at(c, paths.ExportAll("xlsx")))
	case paths.Orders:
		tb.Dates, tb.Placeholder = true, i18n.T(ctx, "copy.placeholder_orders")
	default:
		tb.Placeholder = i18n.T(ctx, "copy.placeholder_boxes")
	}
	if q.Limit != q.def {
		tb.Limit = strconv.Itoa(q.Limit)
	}
	return tb, nil
}

// toolbarOptionsKey names a toolbar choice list of App.toolbarOptions.
type toolbarOptionsKey struct {
	lang i18n.Lang
	list *browse.Sort // the first choice of browse's list; nil: the status choices
}

// localSorts is sorts (one of browse's lists) labelled in l.
func (a *App) localSorts(l i18n.Lang, sorts []browse.Sort) []pages.Option {
	if len(sorts) == 0 {
		return nil
	}
	return a.toolbarOptions.get(toolbarOptionsKey{l, &sorts[0]}, func() []pages.Option {
		local := make([]pages.Option, len(sorts))
		for i, o := range sorts {
			local[i] = pages.Option{Value: o.Value, Label: i18n.In(l, o.Label, nil, nil)} // keys checked where written (i18n.K)
		}
		return local
	})
}

// copyStatusOptions is the nomenclature toolbar's status choices in l.
func (a *App) copyStatusOptions(ctx context.Context, l i18n.Lang) []pages.Option {
	return a.toolbarOptions.get(toolbarOptionsKey{l, nil}, func() []pages.Option {
		return localStatusOptions(ctx, nomenclatureStatuses, i18n.T(ctx, "copy.any_status"))
	})
}
