package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/uuid"
)

// SellerService is the seller JSON-RPC API of one account, with the
// account's seller token. Calls go to SellerBaseURL+"/jsonrpc".
type SellerService struct {
	a *accountState
}

// ListNomenclaturesRequest are the params of v1.nomenclatures.list.
type ListNomenclaturesRequest struct {
	SellerID int64 `json:"seller_id"`
	// Page is the 1-based page number; 0 lets the server choose.
	Page int `json:"page,omitempty"`
	// Limit is the page size; 0 lets the server choose.
	Limit int `json:"limit,omitempty"`
}

// NomenclatureList is one page of nomenclature records.
type NomenclatureList struct {
	Page          int            `json:"page"`
	Limit         int            `json:"limit"`
	Pages         int            `json:"pages"`
	Total         int            `json:"total"`
	Nomenclatures []Nomenclature `json:"nomenclatures"`
	// Skipped counts the records of the answer that could not be read and
	// are left out of Nomenclatures; SkipReason says why the first one
	// could not (bounded, never quoting the data).
	Skipped    int    `json:"-"`
	SkipReason string `json:"-"`
	// RequestID is the X-Request-ID the answer was requested with.
	RequestID string `json:"-"`
}

// nomenclatureListWire is the result of v1.nomenclatures.list.
type nomenclatureListWire struct {
	Page          int                      `json:"page"`
	Limit         int                      `json:"limit"`
	Pages         int                      `json:"pages"`
	Total         int                      `json:"total"`
	Nomenclatures recordList[Nomenclature] `json:"nomenclatures"`
}

// Nomenclature is one product at one warehouse of a seller.
type Nomenclature struct {
	SellerID       int64  `json:"seller_id"`
	WarehouseCode  string `json:"warehouse_code"`
	Barcode        string `json:"barcode"`
	MarketplaceSKU string `json:"marketplaceSku"`
	SellerSKU      string `json:"sellerSku"`
	Name           string `json:"name"`
	Brand          string `json:"brand"`
	Size           string `json:"size"`
	Price          Money  `json:"price"`
	SalePrice      Money  `json:"salePrice"`
	Quantity       int    `json:"quantity"`
	// Status is one of "online", "in_moderation", "rejected", "disabled".
	Status string `json:"status"`
	// PriceUpdateStatus is one of "OK", "PROCESSING", "ERROR".
	PriceUpdateStatus string    `json:"priceUpdateStatus"`
	UpdatedAt         time.Time `json:"updatedAt"`
}

// StoreRequest are the params of v1.nomenclatures.store (mass update).
type StoreRequest struct {
	SellerID int64       `json:"seller_id"`
	Items    []StoreItem `json:"items"`
}

// StoreItem updates one product at one warehouse.
type StoreItem struct {
	WarehouseCode string `json:"warehouse_code"`
	Barcode       string `json:"barcode"`
	// Quantity is the new stock; nil leaves it unchanged.
	Quantity *int `json:"quantity,omitempty"`
	// Status is the new status; "" leaves it unchanged.
	Status string `json:"status,omitempty"`
}

// SetPricesRequest are the params of v1.nomenclatures.set-prices.
type SetPricesRequest struct {
	Prices []PriceUpdate `json:"prices"`
}

// PriceUpdate sets the prices of one product, keyed by its marketplace SKU.
type PriceUpdate struct {
	MarketplaceSKU string `json:"marketplaceSku"`
	Price          Money  `json:"price"`
	// SalePrice is the optional sale price; nil means none.
	SalePrice *Money `json:"salePrice,omitempty"`
	// SaleStartDate and SaleEndDate bound the sale (YYYY-MM-DD); "" = none.
	SaleStartDate string `json:"saleStartDate,omitempty"`
	SaleEndDate   string `json:"saleEndDate,omitempty"`
}

// UpdateResult is the result of a mass update (store or set-prices).
// Item-level failures are data, not errors: the rest of the request was
// applied.
type UpdateResult struct {
	Updated    int         `json:"updated"`
	ErrorCount int         `json:"error_count"`
	Errors     []ItemError `json:"errors"`
}

// ItemError is one item-level failure of a mass update, decoded from either
// shape of the spec: A {warehouse_code, barcode, error{code, message}} or
// B {marketplaceSku, code, messages[]}.
type ItemError struct {
	WarehouseCode  string   `json:"warehouse_code,omitempty"`
	Barcode        string   `json:"barcode,omitempty"`
	MarketplaceSKU string   `json:"marketplaceSku,omitempty"`
	Code           int      `json:"code"`
	Messages       []string `json:"messages,omitempty"`
}

// UnmarshalJSON decodes shape A or shape B (or a mix of both).
func (e *ItemError) UnmarshalJSON(data []byte) error {
	var w struct {
		WarehouseCode  string   `json:"warehouse_code"`
		Barcode        string   `json:"barcode"`
		MarketplaceSKU string   `json:"marketplaceSku"`
		Code           *int     `json:"code"`
		Messages       []string `json:"messages"`
		Message        string   `json:"message"`
		Error          *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = ItemError{WarehouseCode: w.WarehouseCode, Barcode: w.Barcode, MarketplaceSKU: w.MarketplaceSKU, Messages: w.Messages}
	if w.Code != nil {
		e.Code = *w.Code
	}
	if w.Message != "" {
		e.Messages = append(e.Messages, w.Message)
	}
	if w.Error != nil {
		if w.Code == nil {
			e.Code = w.Error.Code
		}
		if w.Error.Message != "" {
			e.Messages = append(e.Messages, w.Error.Message)
		}
	}
	return nil
}

// Message returns the item's messages joined by "; ".
func (e ItemError) Message() string {
	var b bytes.Buffer
	for i, m := range e.Messages {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(m)
	}
	return b.String()
}

// ListNomenclatures returns one page of a seller's products
// (v1.nomenclatures.list).
func (s *SellerService) ListNomenclatures(ctx context.Context, req *ListNomenclaturesRequest) (*NomenclatureList, error) {
	if req == nil {
		req = &ListNomenclaturesRequest{}
	}
	var w nomenclatureListWire
	var reqID string
	st := s.a
	err := st.authed(ctx, st.seller, func(cs *callState, token string) error {
		return st.rpc(ctx, cs, rpcCall{method: "v1.nomenclatures.list", path: "/jsonrpc", params: req, policy: retryIdempotent, reqID: &reqID}, token, &w)
	})
	if err != nil {
		return nil, err
	}
	st.c.noteSkips(ctx, "seller rpc v1.nomenclatures.list", w.Nomenclatures.skipped, w.Nomenclatures.reason, reqID)
	return &NomenclatureList{Page: w.Page, Limit: w.Limit, Pages: w.Pages, Total: w.Total, Nomenclatures: w.Nomenclatures.items,
		Skipped: w.Nomenclatures.skipped, SkipReason: w.Nomenclatures.reason, RequestID: reqID}, nil
}

// StoreNomenclatures mass-updates stock and status (v1.nomenclatures.store).
// Item failures are in the result. 429 and 503 answers are retried (they
// mean the request was not processed); a failure after sending returns an
// error matching ErrOutcomeUnknown and is not replayed.
func (s *SellerService) StoreNomenclatures(ctx context.Context, req *StoreRequest) (*UpdateResult, error) {
	if req == nil {
		req = &StoreRequest{}
	}
	var out UpdateResult
	if err := s.call(ctx, "v1.nomenclatures.store", req, retryUnprocessed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetPrices sets prices (v1.nomenclatures.set-prices). Item failures are in
// the result. Retries as StoreNomenclatures.
func (s *SellerService) SetPrices(ctx context.Context, req *SetPricesRequest) (*UpdateResult, error) {
	if req == nil {
		req = &SetPricesRequest{}
	}
	var out UpdateResult
	if err := s.call(ctx, "v1.nomenclatures.set-prices", req, retryUnprocessed, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

func (s *SellerService) call(ctx context.Context, method string, params any, pol retryPolicy, out any) error {
	st := s.a
	return st.authed(ctx, st.seller, func(cs *callState, token string) error {
		return st.rpc(ctx, cs, rpcCall{method: method, path: "/jsonrpc", params: params, policy: pol}, token, out)
	})
}

// rpcCall describes one JSON-RPC call.
type rpcCall struct {
	method string
	path   string
	params any
	policy retryPolicy
	reqID  *string // when not nil, receives the X-Request-ID of the answer decoded
}

type rpcRequestWire struct {
	JSONRPC string `json:"jsonrpc"`
	ID      string `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type rpcResponseWire struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  rpcResult       `json:"result"`
	Error   *struct {
		Code    *int            `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// rpc performs one JSON-RPC call. The request id is a fresh UUIDv4; an
// answer with another id is an *UnexpectedResponseError, never a result of
// this call. (A null id is accepted only with the parse and invalid-request
// errors, for which JSON-RPC 2.0 prescribes it.)
func (st *accountState) rpc(ctx context.Context, cs *callState, call rpcCall, token string, out any) error {
	c := st.c
	id := uuid.NewString()
	body, err := json.Marshal(rpcRequestWire{JSONRPC: "2.0", ID: id, Method: call.method, Params: call.params})
	if err != nil {
		return err
	}
	op := "seller rpc " + call.method
	write := call.policy != retryIdempotent
	req := &request{op: op, method: http.MethodPost, url: joinURL(c.seller, call.path, nil), body: body,
		token: token, write: write, secrets: st.secrets(token)}
	errBody := func(r *response) error {
		_, e := decodeRPCEnvelope(r, id, call.method, nil)
		return e
	}
	resp, err := c.send(ctx, cs, call.policy, req, errBody)
	if err != nil {
		return err
	}
	w, err := decodeRPCEnvelope(resp, id, call.method, out)
	if err != nil {
		return writeOutcome(req, resp, err)
	}
	if resp.status < 200 || resp.status > 299 {
		// a success envelope with an error status is not trustworthy
		return writeOutcome(req, resp, resp.unexpected("JSON-RPC result with HTTP error status"))
	}
	if !w.Result.present {
		return writeOutcome(req, resp, resp.unexpected("JSON-RPC response without result or error"))
	}
	if call.reqID != nil {
		*call.reqID = resp.requestID
	}
	return nil
}

// rpcResult is the result member of a JSON-RPC answer. With out set it is
// decoded into out in the same pass as the envelope, rather than copied
// out raw and parsed a second time; a null result leaves out alone.
type rpcResult struct {
	out     any
	present bool  // the answer has a result that is not null
	err     error // out could not take the result
}

func (r *rpcResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return err
	}
	r.present = true
	if r.out == nil {
		return dec.SkipValue()
	}
	if err := jsonv2.UnmarshalDecode(dec, r.out); err != nil {
		r.err = err
		return err
	}
	return nil
}

// decodeRPCEnvelope decodes a JSON-RPC answer, and its result into out
// when out is not nil. It returns the envelope when it carries a result for
// id, an *RPCError for an error object, and an *UnexpectedResponseError
// for anything else (a result out cannot take is "result: " and why).
func decodeRPCEnvelope(r *response, id, method string, out any) (*rpcResponseWire, error) {
	if p := r.jsonProblem(); p != nil {
		return nil, p
	}
	w := rpcResponseWire{Result: rpcResult{out: out}}
	if err := unmarshal(r.body, &w); err != nil {
		if w.Result.err != nil {
			// the path is within the result, as the two-pass decoding said
			reason := jsonErrorReason(w.Result.err)
			reason = strings.TrimPrefix(reason, "field result: ")
			if rest, ok := strings.CutPrefix(reason, "field result."); ok {
				reason = "field " + rest
			}
			return nil, r.unexpected("result: " + reason)
		}
		return nil, r.unexpected(jsonErrorReason(err))
	}
	if w.JSONRPC != "2.0" {
		return nil, r.unexpected("not a JSON-RPC 2.0 response")
	}
	var gotID string
	idRaw := bytes.TrimSpace(w.ID)
	nullID := len(idRaw) == 0 || bytes.Equal(idRaw, []byte("null"))
	if !nullID {
		if err := json.Unmarshal(idRaw, &gotID); err != nil || gotID != id {
			return nil, r.unexpected("JSON-RPC response id does not match the request id")
		}
	}
	if w.Error != nil {
		if w.Error.Code == nil {
			return nil, r.unexpected("JSON-RPC error without code")
		}
		code := *w.Error.Code
		if nullID && code != RPCParseError && code != RPCInvalidRequest {
			return nil, r.unexpected("JSON-RPC response id does not match the request id")
		}
		return nil, &RPCError{Code: code, Message: w.Error.Message, Data: w.Error.Data, Method: method, RequestID: r.requestID}
	}
	if nullID {
		return nil, r.unexpected("JSON-RPC response id does not match the request id")
	}
	return &w, nil
}
