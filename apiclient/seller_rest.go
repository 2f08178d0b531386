package apiclient

import (
	"context"
	"net/http"
	"time"
)

// ReturnBoxesService is the seller REST API's return boxes
// (GET {seller}/api/v2/fbs/return-boxes), called with the seller token.
type ReturnBoxesService struct {
	a *accountState
}

// ListReturnBoxesOptions are the query options of List.
type ListReturnBoxesOptions struct {
	// SellerID names the seller; it must be the token's seller (else 403).
	// The contract profile sends it as seller_id, the lamoda profile as
	// sellerId.
	SellerID int64
	// Page is the 1-based page number; 0 lets the server choose.
	Page int
	// Limit is the page size; 0 lets the server choose.
	Limit int
	// Status filters by box status, e.g. "in_progress" or "shipped".
	Status string
}

// ReturnBoxList is one page of return boxes.
type ReturnBoxList struct {
	Page  int
	Limit int
	Pages int
	Total int
	Boxes []ReturnBox
	// Skipped counts the boxes of the answer that could not be read and
	// are left out of Boxes; SkipReason says why the first one could not
	// (bounded, never quoting the data).
	Skipped    int
	SkipReason string
	// RequestID is the X-Request-ID the answer was requested with.
	RequestID string
}

// ReturnBox is a box of returned goods.
type ReturnBox struct {
	Code string `json:"code"`
	// Status is one of "in_progress", "accepted", "loading", "shipped".
	Status string `json:"status"`
	// DimensionSymbol is "S", "M" or "L".
	DimensionSymbol string     `json:"dimension_symbol"`
	ItemQuantity    int        `json:"item_quantity"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
	ShippedAt       *time.Time `json:"shipped_at,omitempty"`
}

// List returns one page of return boxes. 429 and 503 answers are retried
// with the backoff schedule (it is a read).
func (s *ReturnBoxesService) List(ctx context.Context, opts *ListReturnBoxesOptions) (*ReturnBoxList, error) {
	q := s.a.c.wire.rest.returnBoxesQuery(opts)
	st := s.a
	w := st.c.wire.rest.returnBoxesAnswer()
	var reqID string
	err := st.authed(ctx, st.seller, func(cs *callState, token string) error {
		req := &request{op: "seller rest list return boxes", method: http.MethodGet,
			url: joinURL(st.sellerBase(), "/api/v2/fbs/return-boxes", q), token: token, secrets: st.secrets(token)}
		resp, err := st.c.send(ctx, cs, retryIdempotent, req, restErrorBody)
		if err != nil {
			return err
		}
		if resp.status < 200 || resp.status > 299 {
			return restErrorBody(resp)
		}
		reqID = resp.requestID
		return resp.decode(w)
	})
	if err != nil {
		return nil, err
	}
	list := w.list()
	list.RequestID = reqID
	st.c.noteSkips(ctx, "seller rest list return boxes", list.Skipped, list.SkipReason, reqID)
	return list, nil
}

// restErrorBody decodes a seller REST error answer.
func restErrorBody(r *response) error {
	if p := r.jsonProblem(); p != nil {
		return p
	}
	var w struct {
		Error *struct {
			Code    string            `json:"code"`
			Message string            `json:"message"`
			Details []RESTErrorDetail `json:"details"`
		} `json:"error"`
	}
	if err := unmarshal(r.body, &w); err != nil {
		return r.unexpected(jsonErrorReason(err))
	}
	if w.Error == nil {
		return r.unexpected("error body without error object")
	}
	return &RESTError{Status: r.status, Code: w.Error.Code, Message: w.Error.Message, Details: w.Error.Details, RequestID: r.requestID}
}
