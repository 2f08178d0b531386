package apiclient

import (
	"net/url"
)

// The lamoda profile's seller REST return boxes. The marketplace's clients
// name the seller "sellerId"; the answer is read in the REST shape
// ({data, pagination}) or in the shape of the gateway's JSON-RPC twin,
// v1.return-boxes.list ({page, limit, pages, total, boxes}), whichever
// comes (docs/CONTRACTS.md: low confidence).

// lamodaREST is the lamoda profile's REST wire layer.
type lamodaREST struct{}

// returnBoxesQuery: sellerId, page, limit, status.
func (lamodaREST) returnBoxesQuery(opts *ListReturnBoxesOptions) url.Values {
	return returnBoxesQuery("sellerId", opts)
}

// lamodaBoxList is the union of both answer shapes.
type lamodaBoxList struct {
	returnBoxListWire
	Page  int                   `json:"page"`
	Limit int                   `json:"limit"`
	Pages int                   `json:"pages"`
	Total int                   `json:"total"`
	Boxes recordList[ReturnBox] `json:"boxes"`
}

func (w *lamodaBoxList) list() *ReturnBoxList {
	if w.Boxes.items == nil && w.Boxes.skipped == 0 {
		return w.returnBoxListWire.list()
	}
	return &ReturnBoxList{Page: w.Page, Limit: w.Limit, Pages: w.Pages, Total: w.Total,
		Boxes: w.Boxes.items, Skipped: w.Boxes.skipped, SkipReason: w.Boxes.reason}
}

func (lamodaREST) returnBoxesAnswer() returnBoxAnswer { return &lamodaBoxList{} }
