package apiclient

import (
	"net/url"
	"strconv"
)

// The contract profile's seller REST API: the field notes' return boxes.

// contractREST is the contract profile's REST wire layer.
type contractREST struct{}

// returnBoxesQuery: seller_id, page, limit, status.
func (contractREST) returnBoxesQuery(opts *ListReturnBoxesOptions) url.Values {
	return returnBoxesQuery("seller_id", opts)
}

// returnBoxesQuery builds the return-box list query; the profiles differ
// only in the name of the seller parameter.
func returnBoxesQuery(sellerKey string, opts *ListReturnBoxesOptions) url.Values {
	q := url.Values{}
	if opts == nil {
		return q
	}
	if opts.SellerID != 0 {
		q.Set(sellerKey, strconv.FormatInt(opts.SellerID, 10))
	}
	if opts.Page != 0 {
		q.Set("page", strconv.Itoa(opts.Page))
	}
	if opts.Limit != 0 {
		q.Set("limit", strconv.Itoa(opts.Limit))
	}
	if opts.Status != "" {
		q.Set("status", opts.Status)
	}
	return q
}

// returnBoxListWire is {data: [box], pagination: {page, limit, pages, total}}.
type returnBoxListWire struct {
	Data       recordList[ReturnBox] `json:"data"`
	Pagination struct {
		Page  int `json:"page"`
		Limit int `json:"limit"`
		Pages int `json:"pages"`
		Total int `json:"total"`
	} `json:"pagination"`
}

func (w *returnBoxListWire) list() *ReturnBoxList {
	return &ReturnBoxList{Page: w.Pagination.Page, Limit: w.Pagination.Limit, Pages: w.Pagination.Pages,
		Total: w.Pagination.Total, Boxes: w.Data.items, Skipped: w.Data.skipped, SkipReason: w.Data.reason}
}

func (contractREST) returnBoxesAnswer() returnBoxAnswer { return &returnBoxListWire{} }
