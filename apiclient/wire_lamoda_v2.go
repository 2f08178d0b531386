package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The lamoda profile's Seller API v2 price path (REST at
// {seller}/api/v2, its own token): the price write
// POST /nomenclatures-prices and the read-back GET
// /nomenclatures-sell-values. It is chosen by Options.PriceAPI; stock and
// activation stay on the JSON-RPC v1 methods (no v2 write is known for
// them). Sources and confidence in docs/CONTRACTS.md.

// PriceAPI names the API card prices are written through in the lamoda
// profile.
type PriceAPI string

// Price APIs.
const (
	// PriceAPIV1 is the JSON-RPC v1.nomenclatures.set-prices (the default).
	PriceAPIV1 PriceAPI = "v1"
	// PriceAPIV2 is the Seller API v2's POST /api/v2/nomenclatures-prices.
	PriceAPIV2 PriceAPI = "v2"
)

// Limits of the v2 price path.
const (
	// MaxV2PricesPerRequest is the most cards one v2 price write carries.
	MaxV2PricesPerRequest = 100
	// MaxV2SellValuesLimit is the largest page of the v2 sell values.
	MaxV2SellValuesLimit = 25
)

// HeldByPriceCheck is ItemError.Name of a card the v2 price check held
// (a fraudValidationResults entry without an error of its own): not
// applied, and sendable again with SetPricesRequest.Force.
const HeldByPriceCheck = "HELD_BY_PRICE_CHECK"

// Price update statuses of the v2 sell values (Nomenclature's
// PriceUpdateStatus and CardSellValue's).
const (
	PriceStatusOK         = "OK"
	PriceStatusProcessing = "PROCESSING"
	PriceStatusError      = "ERROR"
	// PriceStatusQuarantine is a price the marketplace holds back for
	// review: neither applied nor refused.
	PriceStatusQuarantine = "QUARANTINE"
)

// PriceAPI returns the API card prices are written through ("" in the
// contract profile, which has one).
func (c *Client) PriceAPI() PriceAPI { return c.priceAPI }

// MaxPricesPerRequest is the most price updates one SetPrices request may
// carry (0: no limit of the client's own).
func (c *Client) MaxPricesPerRequest() int {
	if c.priceAPI == PriceAPIV2 {
		return MaxV2PricesPerRequest
	}
	return 0
}

// PriceAPI is the client's PriceAPI, for the callers that hold only an
// account ("" for a nil account).
func (a *Account) PriceAPI() PriceAPI {
	if a == nil || a.st == nil {
		return ""
	}
	return a.st.c.priceAPI
}

// MaxPricesPerRequest is the client's MaxPricesPerRequest, for the
// callers that hold only an account (0 for a nil account).
func (a *Account) MaxPricesPerRequest() int {
	if a == nil || a.st == nil {
		return 0
	}
	return a.st.c.MaxPricesPerRequest()
}

// checkPriceAPI validates Options.PriceAPI for profile p.
func checkPriceAPI(p Profile, api PriceAPI) (PriceAPI, error) {
	switch {
	case api == "" && p == ProfileLamoda:
		return PriceAPIV1, nil
	case api == "":
		return "", nil
	case p != ProfileLamoda:
		return "", fmt.Errorf("apiclient: PriceAPI is the lamoda profile's; the %s profile has one price method", p)
	case api == PriceAPIV1 || api == PriceAPIV2:
		return api, nil
	}
	return "", fmt.Errorf("apiclient: unknown PriceAPI %q (want %q or %q)", string(api), PriceAPIV1, PriceAPIV2)
}

// v2Currencies is the currency of each country's prices.
var v2Currencies = map[string]string{"RU": "RUB", "BY": "BYN", "KZ": "KZT", "UA": "UAH"}

// v2Money is {amount, currency}: an integer amount in minor units.
type v2Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// v2PriceItem is one card of a v2 price write.
type v2PriceItem struct {
	ParentSKU string   `json:"parentSku"`
	Price     v2Money  `json:"price"`
	SalePrice *v2Money `json:"salePrice,omitempty"`
	SaleStart string   `json:"saleStart,omitempty"`
	SaleEnd   string   `json:"saleEnd,omitempty"`
}

// v2SetPricesBody is {sellerId, country, force, prices}.
type v2SetPricesBody struct {
	SellerID string        `json:"sellerId"`
	Country  string        `json:"country"`
	Force    bool          `json:"force"`
	Prices   []v2PriceItem `json:"prices"`
}

// v2PriceError is one entry of errors: {sku, code, messages}; an empty sku
// fails the whole request.
type v2PriceError struct {
	SKU      string   `json:"sku"`
	Code     string   `json:"code"`
	Messages []string `json:"messages"`
}

// v2FraudResult is one entry of fraudValidationResults.
type v2FraudResult struct {
	ParentSKU    string          `json:"parentSku"`
	InvalidValue string          `json:"invalidValue"`
	Status       string          `json:"status"`
	Promotions   json.RawMessage `json:"promotions"`
}

// v2SetPricesResult is {successCount, errorCount, errors,
// fraudValidationResults}.
type v2SetPricesResult struct {
	SuccessCount int             `json:"successCount"`
	ErrorCount   int             `json:"errorCount"`
	Errors       []v2PriceError  `json:"errors"`
	Fraud        []v2FraudResult `json:"fraudValidationResults"`
}

// result maps the answer to sent cards: an error with an empty sku fails
// every card; a finding without an error of its own holds its card
// (HeldByPriceCheck). Values the v1 answer writes in lower case
// ("warning", "black_price") are given in lower case too.
func (w *v2SetPricesResult) result(sent []v2PriceItem) *UpdateResult {
	out := &UpdateResult{Updated: w.SuccessCount}
	errored := map[string]bool{}
	for _, e := range w.Errors {
		if strings.TrimSpace(e.SKU) == "" {
			out.Updated = 0
			out.Errors = out.Errors[:0]
			for _, it := range sent {
				out.Errors = append(out.Errors, ItemError{ParentSKU: it.ParentSKU, Name: e.Code, Messages: e.Messages})
			}
			out.ErrorCount = len(out.Errors)
			return out
		}
		errored[e.SKU] = true
		out.Errors = append(out.Errors, ItemError{ParentSKU: e.SKU, Name: e.Code, Messages: e.Messages})
	}
	for _, f := range w.Fraud {
		out.FraudValidations = append(out.FraudValidations, FraudValidation{ParentSKU: f.ParentSKU,
			ChangedValue: strings.ToLower(f.InvalidValue), Status: strings.ToLower(f.Status), Promotions: append(json.RawMessage(nil), f.Promotions...)})
		if !errored[f.ParentSKU] {
			errored[f.ParentSKU] = true
			out.Errors = append(out.Errors, ItemError{ParentSKU: f.ParentSKU, Name: HeldByPriceCheck})
		}
	}
	out.ErrorCount = len(out.Errors)
	return out
}

// v2SaleBound turns a sale bound (YYYY-MM-DD) into the v2 date-time, in
// the marketplace's zone: the start at the beginning of its day, the end
// at its last second.
func v2SaleBound(day, clock string) (string, bool) {
	if day == "" {
		return "", true
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return "", false
	}
	return day + clock, true
}

// setPricesV2Body checks req against what the v2 shapes allow and builds
// the body; a request they forbid is a *RequestError, nothing sent.
func setPricesV2Body(req *SetPricesRequest, country string) (*v2SetPricesBody, error) {
	const op = "seller api v2 nomenclatures-prices"
	var fields []FieldError
	if req.SellerID <= 0 {
		fields = append(fields, FieldError{Field: "sellerId", Message: "the seller id is required"})
	}
	if len(req.Prices) == 0 {
		fields = append(fields, FieldError{Field: "prices", Message: "at least one price is required"})
	}
	if len(req.Prices) > MaxV2PricesPerRequest {
		fields = append(fields, FieldError{Field: "prices", Message: fmt.Sprintf("at most %d cards a request", MaxV2PricesPerRequest)})
	}
	cur := v2Currencies[country]
	body := &v2SetPricesBody{SellerID: strconv.FormatInt(req.SellerID, 10), Country: country, Force: req.Force,
		Prices: make([]v2PriceItem, 0, len(req.Prices))}
	for i, u := range req.Prices {
		at := fmt.Sprintf("prices[%d]", i)
		if u.ParentSKU == "" {
			fields = append(fields, FieldError{Field: at + ".parentSku", Message: "every price needs the product card's parent SKU"})
			continue
		}
		if u.Price <= 0 {
			fields = append(fields, FieldError{Field: at + ".price", Message: "a price is positive"})
		}
		it := v2PriceItem{ParentSKU: u.ParentSKU, Price: v2Money{Amount: int64(u.Price), Currency: cur}}
		if u.SalePrice != nil {
			if *u.SalePrice <= 0 || *u.SalePrice > u.Price {
				fields = append(fields, FieldError{Field: at + ".salePrice", Message: "a sale price is positive and not above the price"})
			}
			it.SalePrice = &v2Money{Amount: int64(*u.SalePrice), Currency: cur}
		}
		var ok1, ok2 bool
		it.SaleStart, ok1 = v2SaleBound(u.SaleStartDate, lamodaSaleStart)
		it.SaleEnd, ok2 = v2SaleBound(u.SaleEndDate, lamodaSaleEnd)
		if !ok1 || !ok2 {
			fields = append(fields, FieldError{Field: at + ".saleStart", Message: "sale bounds are dates, YYYY-MM-DD"})
		}
		body.Prices = append(body.Prices, it)
	}
	if len(fields) > 0 {
		return nil, &RequestError{Op: op, Fields: fields}
	}
	return body, nil
}

// setPricesV2 sends req through POST {seller}/api/v2/nomenclatures-prices
// with the v2 token. Retries as SetPrices: 429 and 503 only.
func (s *SellerService) setPricesV2(ctx context.Context, req *SetPricesRequest) (*UpdateResult, error) {
	st := s.a
	body, err := setPricesV2Body(req, st.c.wire.country)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	var w v2SetPricesResult
	err = st.authed(ctx, st.sellerV2, func(cs *callState, token string) error {
		r := &request{op: "seller api v2 nomenclatures-prices", method: http.MethodPost,
			url: joinURL(st.sellerBase(), "/api/v2/nomenclatures-prices", nil), body: raw, token: token, write: true, secrets: st.secrets(token)}
		resp, err := st.c.send(ctx, cs, retryUnprocessed, r, restErrorBody)
		if err != nil {
			return err
		}
		if resp.status < 200 || resp.status > 299 {
			return writeOutcome(r, resp, restErrorBody(resp))
		}
		return writeOutcome(r, resp, resp.decode(&w))
	})
	if err != nil {
		return nil, err
	}
	return w.result(body.Prices), nil
}

// SellValuesRequest are the query options of SellValues.
type SellValuesRequest struct {
	// SellerID is the seller (sellerId, required).
	SellerID int64
	// Page is the 1-based page; 0 means 1.
	Page int
	// Limit is the page size, at most MaxV2SellValuesLimit; 0 means it.
	Limit int
}

// SellValueList is one page of the v2 sell values.
type SellValueList struct {
	Page, Limit, Pages, Total int
	// Cards holds each card of the page once (a card the page repeats is
	// kept once, its last occurrence).
	Cards []CardSellValue
	// Repeated counts the entries of the page that repeated a card.
	Repeated int
	// RequestID is the X-Request-ID the answer was requested with.
	RequestID string
}

// CardSellValue is a product card's price in the client's country.
type CardSellValue struct {
	ParentSKU string
	Country   string
	Price     Money
	// SalePrice is 0 when there is none.
	SalePrice Money
	// SaleStart and SaleEnd bound the sale (zero: none).
	SaleStart, SaleEnd time.Time
	// PriceUpdateStatus is OK, PROCESSING, ERROR or QUARANTINE.
	PriceUpdateStatus string
}

// v2SellValue is one entry of sellValues.
type v2SellValue struct {
	Country           string   `json:"country"`
	Price             *v2Money `json:"price"`
	SalePrice         *v2Money `json:"salePrice"`
	SaleStart         string   `json:"saleStart"`
	SaleEnd           string   `json:"saleEnd"`
	PriceUpdateStatus string   `json:"priceUpdateStatus"`
}

// v2SellValuesAnswer is {nomenclatures: [{parentSku, sellValues}], meta:
// {page, limit, total, totalPages}}.
type v2SellValuesAnswer struct {
	Nomenclatures []struct {
		ParentSKU  string        `json:"parentSku"`
		SellValues []v2SellValue `json:"sellValues"`
	} `json:"nomenclatures"`
	Meta struct {
		Page       int `json:"page"`
		Limit      int `json:"limit"`
		Total      int `json:"total"`
		TotalPages int `json:"totalPages"`
	} `json:"meta"`
}

// SellValues reads one page of the cards' prices through GET
// {seller}/api/v2/nomenclatures-sell-values (lamoda profile, any price
// API: it needs only the v2 token). Each card is given in the client's
// country; a card without a value there is left out.
func (s *SellerService) SellValues(ctx context.Context, req *SellValuesRequest) (*SellValueList, error) {
	st := s.a
	const op = "seller api v2 nomenclatures-sell-values"
	if st.c.wire.profile != ProfileLamoda {
		return nil, &NotSupportedError{Profile: st.c.wire.profile, Operation: "nomenclatures-sell-values", Reason: "the Seller API v2 is the lamoda profile's"}
	}
	if req == nil || req.SellerID <= 0 {
		return nil, &RequestError{Op: op, Fields: []FieldError{{Field: "sellerId", Message: "the seller id is required"}}}
	}
	page, limit := max(req.Page, 1), req.Limit
	if limit == 0 {
		limit = MaxV2SellValuesLimit
	}
	if limit < 0 || limit > MaxV2SellValuesLimit {
		return nil, &RequestError{Op: op, Fields: []FieldError{{Field: "limit", Message: fmt.Sprintf("a page holds 1 to %d cards", MaxV2SellValuesLimit)}}}
	}
	q := url.Values{"sellerId": {strconv.FormatInt(req.SellerID, 10)}, "page": {strconv.Itoa(page)}, "limit": {strconv.Itoa(limit)}}
	var w v2SellValuesAnswer
	var reqID string
	err := st.authed(ctx, st.sellerV2, func(cs *callState, token string) error {
		r := &request{op: op, method: http.MethodGet, url: joinURL(st.sellerBase(), "/api/v2/nomenclatures-sell-values", q),
			token: token, secrets: st.secrets(token)}
		resp, err := st.c.send(ctx, cs, retryIdempotent, r, restErrorBody)
		if err != nil {
			return err
		}
		if resp.status < 200 || resp.status > 299 {
			return restErrorBody(resp)
		}
		reqID = resp.requestID
		return resp.decode(&w)
	})
	if err != nil {
		return nil, err
	}
	out := &SellValueList{Page: w.Meta.Page, Limit: w.Meta.Limit, Pages: w.Meta.TotalPages, Total: w.Meta.Total, RequestID: reqID}
	at := map[string]int{}
	for _, n := range w.Nomenclatures {
		if n.ParentSKU == "" {
			continue
		}
		for _, v := range n.SellValues {
			if !strings.EqualFold(v.Country, st.c.wire.country) || v.Price == nil {
				continue
			}
			cv := CardSellValue{ParentSKU: n.ParentSKU, Country: v.Country, Price: Money(v.Price.Amount), PriceUpdateStatus: strings.ToUpper(v.PriceUpdateStatus)}
			if v.SalePrice != nil {
				cv.SalePrice = Money(v.SalePrice.Amount)
			}
			cv.SaleStart, _ = time.Parse(time.RFC3339, v.SaleStart)
			cv.SaleEnd, _ = time.Parse(time.RFC3339, v.SaleEnd)
			if i, ok := at[n.ParentSKU]; ok {
				out.Cards[i] = cv
				out.Repeated++
				continue
			}
			at[n.ParentSKU] = len(out.Cards)
			out.Cards = append(out.Cards, cv)
		}
	}
	return out, nil
}

// fetchSellerV2Token issues the v2 token: POST {seller}/api/v2/auth-token
// with {grant_type, client_id, client_secret}; 201 (or 200) with
// {access_token, expires_in}. 400, 401 and 403 reject the pair.
func (st *accountState) fetchSellerV2Token(ctx context.Context) (Token, error) {
	c := st.c
	body, err := json.Marshal(map[string]string{"grant_type": "client_credentials", "client_id": st.creds.ClientID, "client_secret": st.creds.ClientSecret})
	if err != nil {
		return Token{}, err
	}
	req := &request{op: "seller api v2 auth-token", method: http.MethodPost, url: joinURL(st.sellerBase(), "/api/v2/auth-token", nil),
		body: body, secrets: st.secrets()}
	issued := c.now()
	resp, err := c.send(ctx, c.newCallState(ctx), retryIdempotent, req, restErrorBody)
	if err != nil {
		return Token{}, err
	}
	if resp.status != 200 && resp.status != 201 {
		e := restErrorBody(resp)
		switch resp.status {
		case 400, 401, 403:
			return Token{}, &CredentialsError{Kind: KindSellerV2, Environment: st.creds.Environment, Err: e}
		}
		return Token{}, e
	}
	if err := authInOKBody(resp); err != nil {
		return Token{}, &CredentialsError{Kind: KindSellerV2, Environment: st.creds.Environment, Err: err}
	}
	var tr tokenResponse
	if err := resp.decode(&tr); err != nil {
		return Token{}, err
	}
	if tr.AccessToken == "" {
		return Token{}, resp.unexpected("token response without access_token")
	}
	return c.newToken(tr, issued), nil
}
