package browse

import (
	"context"
	"errors"
	"slices"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// Statuses the marketplace uses (field notes). Unknown values from the
// marketplace are still shown; these drive the filters, the overview's
// counts and their order.
var (
	OrderStatuses = []string{"new", "confirmed", "to_delivery", "delivered", "canceled", "returned"}
	BoxStatuses   = []string{"in_progress", "accepted", "loading", "shipped"}
	// NomenclatureStatuses are a record's statuses.
	NomenclatureStatuses = massupdate.Statuses
)

// Query is one page of a list as the URL describes it.
type Query struct {
	// Page (from 1) and Limit place the page.
	Page, Limit int
	// Status is the list's own status filter, which the marketplace
	// takes too (orders, return boxes).
	Status string
	// Copy is the search, sort and filters a list from the copy takes
	// (its Limit, Offset and, for orders and boxes, Status are the
	// read's own).
	Copy copystore.Query
	// Cursor is a keyset position of the nomenclature (Cursor.Text);
	// one that does not fit the sort is ignored.
	Cursor string
}

// listQuery is q's query of a copy's list that has q.Status as its
// status.
func (q Query) listQuery() copystore.Query {
	cq := q.Copy
	cq.Status = q.Status
	cq.Limit, cq.Offset = q.Limit, (q.Page-1)*q.Limit
	return cq
}

// listPage reads a page of a list of the copy (orders, boxes); a sort
// the list does not have reads in its default order.
func listPage[T any](ctx context.Context, k copystore.Key, cq copystore.Query,
	page func(context.Context, copystore.Key, copystore.Query) (int, []T, error)) (int, []T, error) {
	total, rows, err := page(ctx, k, cq)
	if errors.Is(err, copystore.ErrBadSort) {
		cq.Sort = ""
		total, rows, err = page(ctx, k, cq)
	}
	return total, rows, err
}

// sellerStatuses are the statuses a seller sets; moderation sets the
// others.
var sellerStatuses = []string{"online", "disabled"}

// StatusChoices are the statuses a seller may choose for a record in
// status current: the seller's statuses the marketplace allows from it
// (massupdate.StatusRefused), after current itself when it is not one of
// them, so an untouched choice submits it unchanged.
func StatusChoices(current string) []string {
	out := slices.DeleteFunc(slices.Clone(sellerStatuses), func(s string) bool { return len(massupdate.StatusRefused(current, s)) > 0 })
	if current != "" && !slices.Contains(sellerStatuses, current) {
		out = append([]string{current}, out...)
	}
	return out
}
