package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// boxSorts are the sort choices of the return boxes toolbar.
var boxSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")},
	{Value: "code", Label: i18n.K("copy.sort_box_code")}, {Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}

// boxesPage is the dispatch point of the return boxes list (boxes.go): a
// page from the copy with the URL's search and sort once a full copy
// exists, else live from the marketplace.
func (a *App) boxesPage(c echo.Context, q listQuery) (*apiclient.ReturnBoxList, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	if !ok {
		ctx := a.pageContext(c)
		unlock, err := a.lockSeller(c, ctx)
		if err != nil {
			return nil, err
		}
		defer unlock()
		return a.account(c).ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{
			SellerID: session(c).Data().SellerID, Page: q.Page, Limit: q.Limit, Status: q.Status,
		})
	}
	if err := a.enterLocal(c); err != nil {
		return nil, err
	}
	cq := q.copyQuery()
	cq.Status = q.Status
	k := copyKey(c)
	cs := a.deps.Catalog.Store()
	total, boxes, badSort, err := copyListPage(c.Request().Context(), k, cq, cs.BoxesPage)
	if badSort {
		q.copy.Sort = ""
		return a.boxesPage(c, q)
	}
	if err != nil {
		return nil, err
	}
	list := &apiclient.ReturnBoxList{Page: q.Page, Limit: q.Limit, Total: total, Pages: max(1, (total+q.Limit-1)/q.Limit), Boxes: make([]apiclient.ReturnBox, 0, len(boxes))}
	for _, b := range boxes {
		rb := apiclient.ReturnBox{Code: b.Code, Status: b.Status, DimensionSymbol: b.Dimension, ItemQuantity: b.ItemQuantity, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt}
		if !b.ShippedAt.IsZero() {
			t := b.ShippedAt
			rb.ShippedAt = &t
		}
		list.Boxes = append(list.Boxes, rb)
	}
	return list, nil
}
