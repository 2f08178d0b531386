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
	// Filter selects records (the lamoda profile only: the contract has
	// no filter, and a filtered list there is refused, nothing sent).
	Filter []FilterItem `json:"-"`
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

// Nomenclature is one product (one size of a product card) at one
// warehouse of a seller. The JSON tags are the contract profile's names;
// the lamoda profile reads its own shape (wire_lamoda_rpc.go), which has
// no warehouse (WarehouseCode is empty) and names the card (ParentSKU).
type Nomenclature struct {
	SellerID       int64  `json:"seller_id"`
	WarehouseCode  string `json:"warehouse_code"`
	Barcode        string `json:"barcode"`
	MarketplaceSKU string `json:"marketplaceSku"`
	// ParentSKU is the product card the record is a size of (the lamoda
	// profile's lamodaParentSku; empty in the contract profile).
	ParentSKU string `json:"-"`
	SellerSKU string `json:"sellerSku"`
	Name      string `json:"name"`
	Brand     string `json:"brand"`
	Size      string `json:"size"`
	Price     Money  `json:"price"`
	SalePrice Money  `json:"salePrice"`
	Quantity  int    `json:"quantity"`
	// Status is one of "online", "in_moderation", "rejected", "disabled".
	Status string `json:"status"`
	// PriceUpdateStatus is one of "OK", "PROCESSING", "ERROR".
	PriceUpdateStatus string    `json:"priceUpdateStatus"`
	UpdatedAt         time.Time `json:"updatedAt"`
	// QuantityPending and StatusPending mark, in a record read from the
	// dashboard's local copy, a quantity or a status the marketplace
	// accepted through the dashboard that no read has confirmed yet.
	// Never on the wire.
	QuantityPending bool `json:"-"`
	StatusPending   bool `json:"-"`
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
	// SellerID is the seller the prices are for; the lamoda profile
	// requires it (partner_id), the contract profile does not send it.
	SellerID int64 `json:"-"`
	// Force confirms a price change the marketplace's fraud check warned
	// about (the lamoda profile's force); set it only after the user
	// confirmed explicitly. The contract profile does not send it.
	Force bool `json:"-"`
}

// PriceUpdate sets the prices of one product. The contract profile keys it
// by MarketplaceSKU; the lamoda profile keys it by ParentSKU, the product
// card, whose sizes all get the price (see Client.PricesByCard).
type PriceUpdate struct {
	MarketplaceSKU string `json:"marketplaceSku"`
	// ParentSKU is the product card (lamoda profile only, required there).
	ParentSKU string `json:"-"`
	Price     Money  `json:"price"`
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
	// FraudValidations are the marketplace's price-check findings (lamoda
	// profile): a "warning" or a "restriction" per product card, to be
	// shown to the user; a change refused for one may be sent again with
	// SetPricesRequest.Force once the user confirmed it.
	FraudValidations []FraudValidation `json:"-"`
}

// FraudValidation is one price-check finding of the marketplace about a
// product card's price change.
type FraudValidation struct {
	// ParentSKU is the product card.
	ParentSKU string
	// ChangedValue says what triggered the check: "black_price",
	// "red_price", "sale_period" or "red_price_and_sale_period".
	ChangedValue string
	// Status is "warning" or "restriction".
	Status string
	// Promotions is the marketplace's list of the promotions concerned,
	// as it sent it (JSON).
	Promotions json.RawMessage
}

// ItemError is one item-level failure of a mass update, decoded from either
// shape of the spec: A {warehouse_code, barcode, error{code, message}} or
// B {marketplaceSku, code, messages[]}.
type ItemError struct {
	WarehouseCode  string `json:"warehouse_code,omitempty"`
	Barcode        string `json:"barcode,omitempty"`
	MarketplaceSKU string `json:"marketplaceSku,omitempty"`
	// ParentSKU is the product card the error is about (lamoda profile).
	ParentSKU string `json:"-"`
	// Name is the symbolic code of the lamoda profile's v2 price write
	// ("VALIDATION_ERROR", or HeldByPriceCheck); "" elsewhere.
	Name     string   `json:"-"`
	Code     int      `json:"code"`
	Messages []string `json:"messages,omitempty"`
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
	st := s.a
	if len(req.Filter) > 0 {
		if st.c.wire.profile != ProfileLamoda {
			return nil, &NotSupportedError{Profile: st.c.wire.profile, Operation: "v1.nomenclatures.list with a filter", Reason: "the contract's list has no filter"}
		}
		if err := checkFilter("v1.nomenclatures.list", req.Filter); err != nil {
			return nil, err
		}
	}
	params, w := st.c.wire.rpc.listCall(req)
	var reqID string
	const method = "v1.nomenclatures.list"
	err := st.authed(ctx, st.seller, func(cs *callState, token string) error {
		return st.rpc(ctx, cs, rpcCall{method: method, path: st.c.wire.rpc.path(method), params: params, policy: retryIdempotent, reqID: &reqID}, token, w)
	})
	if err != nil {
		return nil, err
	}
	list := w.list(req)
	list.RequestID = reqID
	st.c.noteSkips(ctx, "seller rpc "+method, list.Skipped, list.SkipReason, reqID)
	return list, nil
}

// StoreNomenclatures mass-updates stock and status (v1.nomenclatures.store).
// In the lamoda profile it sends nothing and returns a *NotSupportedError
// (see Client.StockUpdates).
// Item failures are in the result. 429 and 503 answers are retried (they
// mean the request was not processed); a failure after sending returns an
// error matching ErrOutcomeUnknown and is not replayed.
func (s *SellerService) StoreNomenclatures(ctx context.Context, req *StoreRequest) (*UpdateResult, error) {
	if req == nil {
		req = &StoreRequest{}
	}
	method, params, out, err := s.a.c.wire.rpc.storeCall(req)
	if err != nil {
		return nil, err
	}
	if err := s.call(ctx, method, params, retryUnprocessed, out); err != nil {
		return nil, err
	}
	return out.result(), nil
}

// SetPrices sets prices (v1.nomenclatures.set-prices, or with PriceAPIV2
// POST /api/v2/nomenclatures-prices in kopecks, at most
// MaxV2PricesPerRequest cards). Item failures are in the result, and in
// the lamoda profile the fraud check's findings too.
// Retries as StoreNomenclatures. In the lamoda profile every update needs
// its ParentSKU and the request its SellerID; without them nothing is sent
// and a *RequestError (ErrValidation) is returned.
func (s *SellerService) SetPrices(ctx context.Context, req *SetPricesRequest) (*UpdateResult, error) {
	if req == nil {
		req = &SetPricesRequest{}
	}
	if s.a.c.priceAPI == PriceAPIV2 {
		return s.setPricesV2(ctx, req)
	}
	params, out, err := s.a.c.wire.rpc.setPricesCall(req)
	if err != nil {
		return nil, err
	}
	if err := s.call(ctx, "v1.nomenclatures.set-prices", params, retryUnprocessed, out); err != nil {
		return nil, err
	}
	return out.result(), nil
}

func (s *SellerService) call(ctx context.Context, method string, params any, pol retryPolicy, out any) error {
	st := s.a
	return st.authed(ctx, st.seller, func(cs *callState, token string) error {
		return st.rpc(ctx, cs, rpcCall{method: method, path: st.c.wire.rpc.path(method), params: params, policy: pol}, token, out)
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
	req := &request{op: op, method: http.MethodPost, url: joinURL(st.sellerBase(), call.path, nil), body: body,
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
