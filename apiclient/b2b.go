package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// B2BService is the B2B platform API (REST) of one account, in the
// account's environment, with the account's B2B token.
type B2BService struct {
	a *accountState
}

// ListOrdersOptions are the query options of ListOrders. Zero values are
// left out of the query (the server's defaults apply).
type ListOrdersOptions struct {
	// Page is the 1-based page number.
	Page int
	// Limit is the page size (the house sandbox allows 1 to 100).
	Limit int
	// Status filters by order status, e.g. "new" or "confirmed" (the
	// contract profile sends it as status=, the lamoda profile as a
	// filter expression).
	Status string
	// WithoutItems leaves Order.Items nil: the items of each order are
	// skipped, not decoded. A list that shows only ItemQuantity saves most
	// of the decoding work and allocations of a page (BENCHMARKS.md, P7).
	WithoutItems bool
}

// OrderList is one page of orders.
type OrderList struct {
	Page   int
	Limit  int
	Pages  int
	Total  int
	Orders []Order
	// Skipped counts the orders of the answer that could not be read and
	// are left out of Orders; SkipReason says why the first one could not
	// (bounded, never quoting the data).
	Skipped    int
	SkipReason string
	// RequestID is the X-Request-ID the answer was requested with.
	RequestID string
}

// Order is a B2B order (fields per the project's field notes).
type Order struct {
	ID            OrderID     `json:"id"`
	OrderNr       string      `json:"orderNr"`
	Status        string      `json:"status"`
	PaymentMethod string      `json:"paymentMethod"`
	Currency      string      `json:"currency"`
	FullSum       Money       `json:"fullSum"`
	DeliveryPrice Money       `json:"deliveryPrice"`
	CreatedAt     time.Time   `json:"createdAt"`
	UpdatedAt     time.Time   `json:"updatedAt"`
	IsConfirmed   bool        `json:"isConfirmed"`
	ItemQuantity  int         `json:"itemQuantity"`
	Items         []OrderItem `json:"items"`
}

// OrderItem is one item of an order.
type OrderItem struct {
	ID             OrderItemID `json:"id"`
	SKU            string      `json:"sku"`
	MarketplaceSKU string      `json:"marketplaceSku"`
	Description    string      `json:"description"`
	Size           string      `json:"size"`
	Status         string      `json:"status"`
	SalePrice      Money       `json:"salePrice"`
	PaidPrice      Money       `json:"paidPrice"`
}

// orderListWire is the HAL-style list body.
type orderListWire struct {
	Page     int `json:"page"`
	Limit    int `json:"limit"`
	Pages    int `json:"pages"`
	Total    int `json:"total"`
	Embedded struct {
		Orders recordList[Order] `json:"orders"`
	} `json:"_embedded"`
}

// ResendRequest is the body of ResendNotifications.
type ResendRequest struct {
	// OrderNrs lists the orders whose notifications are re-sent.
	OrderNrs []string `json:"orderNrs"`
	// Types limits the notification kinds (e.g. "statusChanged"); empty
	// means all kinds.
	Types []string `json:"types,omitempty"`
}

// ResendResult is the answer of ResendNotifications.
type ResendResult struct {
	Queued        int            `json:"queued"`
	Notifications []Notification `json:"notifications"`
}

// Notification is one queued notification.
type Notification struct {
	ID      string `json:"id"`
	OrderNr string `json:"orderNr"`
	Type    string `json:"type"`
	Status  string `json:"status"`
}

// GiftCertificate is a gift certificate of the B2B platform. The spec shows
// only its error body; the fields here are the house choice the sandbox
// serves, and Raw keeps the whole object for anything else.
type GiftCertificate struct {
	Code      string          `json:"code"`
	Status    string          `json:"status"`
	Nominal   Money           `json:"nominal"`
	Balance   Money           `json:"balance"`
	Currency  string          `json:"currency"`
	ExpiresAt *time.Time      `json:"expiresAt,omitempty"`
	Raw       json.RawMessage `json:"-"`
}

// ListOrders returns one page of orders (GET /api/v1/orders). A nil opts
// means the server's defaults.
func (s *B2BService) ListOrders(ctx context.Context, opts *ListOrdersOptions) (*OrderList, error) {
	q := s.a.c.wire.b2b.ordersQuery(opts)
	// Without items, the items of every order are skipped in place by
	// the decoder rather than decoded and dropped.
	var w orderListWire
	var out any = &w
	if opts != nil && opts.WithoutItems {
		out = decodeWith{v: &w, opts: withoutItemsOptions}
	}
	var reqID string
	err := s.do(ctx, "b2b list orders", http.MethodGet, "/api/v1/orders", q, nil, retryIdempotent, b2bErrorBody, out, &reqID)
	if err != nil {
		return nil, err
	}
	list := &OrderList{Page: w.Page, Limit: w.Limit, Pages: w.Pages, Total: w.Total, Orders: w.Embedded.Orders.items,
		Skipped: w.Embedded.Orders.skipped, SkipReason: w.Embedded.Orders.reason, RequestID: reqID}
	s.a.c.noteSkips(ctx, "b2b list orders", list.Skipped, list.SkipReason, reqID)
	return list, nil
}

// ResendNotifications asks the marketplace to re-deliver the notifications
// of the given orders (POST /api/v1/notifications/resend). It is never
// retried automatically: a 429 (earlier notifications still processing)
// returns a *RateLimitError at once, unwrapping to the *B2BError with the
// server's message; a failure after sending returns an error matching
// ErrOutcomeUnknown.
func (s *B2BService) ResendNotifications(ctx context.Context, req *ResendRequest) (*ResendResult, error) {
	if req == nil || len(req.OrderNrs) == 0 {
		return nil, &B2BError{Status: 400, Description: "at least one order number is required",
			Errors: []FieldError{{Field: "orderNrs", Message: "at least one order number is required"}}}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var out ResendResult
	err = s.do(ctx, "b2b resend notifications", http.MethodPost, "/api/v1/notifications/resend", nil, body, retryNever, b2bErrorBody, &out, nil)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GiftCertificate looks up a gift certificate by code
// (GET /api/v1/gift-certificates/{code}). Failures carry a
// *GiftCertificateError with the code table of spec §7.1.
func (s *B2BService) GiftCertificate(ctx context.Context, code string) (*GiftCertificate, error) {
	if code == "" {
		return nil, &GiftCertificateError{Status: 400, Code: GiftCodeInvalidParams, Message: "gift certificate code is required"}
	}
	var raw json.RawMessage
	err := s.do(ctx, "b2b gift certificate", http.MethodGet, "/api/v1/gift-certificates/"+url.PathEscape(code), nil, nil, retryIdempotent, giftErrorBody, &raw, nil)
	if err != nil {
		return nil, err
	}
	var gc GiftCertificate
	if err := unmarshal(raw, &gc); err != nil {
		return nil, &UnexpectedResponseError{Op: "b2b gift certificate", Reason: jsonErrorReason(err)}
	}
	gc.Raw = raw
	return &gc, nil
}

// do performs one authenticated B2B call and decodes a 2xx body into out;
// reqID, when not nil, receives the X-Request-ID of the answer decoded.
func (s *B2BService) do(ctx context.Context, op, method, path string, q url.Values, body []byte, pol retryPolicy, errBody func(*response) error, out any, reqID *string) error {
	st := s.a
	base, err := st.c.b2bBase(st.creds.Environment)
	if err != nil {
		return err
	}
	return st.authed(ctx, st.b2b, func(cs *callState, token string) error {
		req := &request{op: op, method: method, url: joinURL(base, path, q), body: body, token: token,
			write: method != http.MethodGet, secrets: st.secrets(token)}
		resp, err := st.c.send(ctx, cs, pol, req, errBody)
		if err != nil {
			return err
		}
		if resp.status < 200 || resp.status > 299 {
			return writeOutcome(req, resp, errBody(resp))
		}
		if reqID != nil {
			*reqID = resp.requestID
		}
		return writeOutcome(req, resp, resp.decode(out))
	})
}

// writeOutcome marks failures of writes whose outcome is unknown: gateway
// errors (502, 504), and answers that cannot be read although the status
// says the request was handled (2xx) or failed somewhere on the server
// (5xx). A readable 4xx means the request was refused and is left as is.
func writeOutcome(req *request, resp *response, err error) error {
	if err == nil || !req.write {
		return err
	}
	var ue *UnexpectedResponseError
	if resp.status == http.StatusBadGateway || resp.status == http.StatusGatewayTimeout ||
		(errors.As(err, &ue) && (resp.status < 300 || resp.status >= 500)) {
		return &outcomeUnknownError{op: req.op, err: err}
	}
	return err
}

// b2bErrorWire is the union of the B2B and gift-certificate error bodies.
type b2bErrorWire struct {
	Code        *int              `json:"code"`
	Description string            `json:"description"`
	Message     string            `json:"message"`
	Errors      []json.RawMessage `json:"errors"`
}

// b2bErrorBody decodes a B2B error answer: the B2B shape, or the
// gift-certificate shape when errors is a list of strings.
func b2bErrorBody(r *response) error {
	return decodeB2BError(r, false)
}

// giftErrorBody decodes the error answer of a gift-certificate operation.
func giftErrorBody(r *response) error {
	return decodeB2BError(r, true)
}

func decodeB2BError(r *response, gift bool) error {
	if p := r.jsonProblem(); p != nil {
		return p
	}
	var w b2bErrorWire
	if err := unmarshal(r.body, &w); err != nil {
		return r.unexpected(jsonErrorReason(err))
	}
	if w.Code == nil && w.Description == "" && w.Message == "" && w.Errors == nil {
		return r.unexpected("error body without code, description or message")
	}
	code := 0
	if w.Code != nil {
		code = *w.Code
	}
	var strs []string
	var fields []FieldError
	for _, e := range w.Errors {
		e = bytes.TrimSpace(e)
		if len(e) > 0 && e[0] == '"' {
			var s string
			if json.Unmarshal(e, &s) == nil {
				strs = append(strs, s)
			}
			continue
		}
		var fe FieldError
		if json.Unmarshal(e, &fe) == nil {
			fields = append(fields, fe)
		}
	}
	if gift || len(strs) > 0 {
		return &GiftCertificateError{Status: r.status, Code: code, Message: w.Message, Description: w.Description, Errors: strs, RequestID: r.requestID}
	}
	return &B2BError{Status: r.status, Code: code, Description: w.Description, Message: w.Message, Errors: fields, RequestID: r.requestID}
}
