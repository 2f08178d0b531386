package apiclient

import (
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The lamoda profile's seller JSON-RPC API, after the marketplace's seller
// gateway Swagger (basePath /jsonrpc, one path per method; sources and
// confidence in docs/CONTRACTS.md).

// lamodaRPC is the lamoda profile's JSON-RPC wire layer.
type lamodaRPC struct {
	country string
}

// path: each method at its own path below /jsonrpc, "v1.nomenclatures.list"
// at "/jsonrpc/v1/nomenclatures.list".
func (lamodaRPC) path(method string) string {
	return "/jsonrpc/" + strings.Replace(method, ".", "/", 1)
}

// lamodaTokenParams are the camelCase params of v1.tokens.create.
type lamodaTokenParams struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	GrantType    string `json:"grantType"`
}

// lamodaTokenResult is {accessToken, expiresIn, refreshToken, scope,
// tokenType: "bearer"}.
type lamodaTokenResult struct {
	AccessToken  string         `json:"accessToken"`
	ExpiresIn    jsontext.Value `json:"expiresIn"`
	RefreshToken string         `json:"refreshToken"`
	Scope        string         `json:"scope"`
	TokenType    string         `json:"tokenType"`
}

func (r *lamodaTokenResult) token() tokenResponse {
	return tokenResponse{AccessToken: r.AccessToken, TokenType: r.TokenType, ExpiresIn: []byte(r.ExpiresIn), RefreshToken: r.RefreshToken}
}

func (lamodaRPC) tokenCall(creds *Credentials) (any, tokenAnswer) {
	return lamodaTokenParams{ClientID: creds.ClientID, ClientSecret: creds.ClientSecret, GrantType: "client_credentials"},
		&lamodaTokenResult{}
}

// lamodaListParams are the params of v1.nomenclatures.list: the country is
// required; the seller is the token's; the filter only when asked.
type lamodaListParams struct {
	Country string       `json:"country"`
	Filter  []FilterItem `json:"filter,omitempty"`
	Page    int          `json:"page,omitempty"`
	Limit   int          `json:"limit,omitempty"`
}

// lamodaNomenclature is the nested record of the list:
// nomenclatures[].nomenclature.
type lamodaNomenclature struct {
	SellerSKU         string    `json:"sellerSku"`
	LamodaSKU         string    `json:"lamodaSku"`
	LamodaParentSKU   string    `json:"lamodaParentSku"`
	SellerSize        string    `json:"sellerSize"`
	Barcode           string    `json:"barcode"`
	Name              string    `json:"name"`
	Brand             string    `json:"brand"`
	Quantity          int       `json:"quantity"`
	Status            string    `json:"status"`
	Price             Money     `json:"price"`
	SalePrice         Money     `json:"salePrice"`
	PriceUpdateStatus string    `json:"priceUpdateStatus"`
	UpdatedAt         time.Time `json:"updatedAt"`
}

type lamodaNomenclatureEntry struct {
	Nomenclature *lamodaNomenclature `json:"nomenclature"`
}

// lamodaNomenclatureList is {page, limit, pages, total, nomenclatures:
// [{nomenclature: {...}}]}.
type lamodaNomenclatureList struct {
	Page          int                                 `json:"page"`
	Limit         int                                 `json:"limit"`
	Pages         int                                 `json:"pages"`
	Total         int                                 `json:"total"`
	Nomenclatures recordList[lamodaNomenclatureEntry] `json:"nomenclatures"`
}

// list maps the records: lamodaSku is the marketplace SKU, the seller size
// the size; the marketplace keeps no warehouse on a record, so
// WarehouseCode is empty, and the seller is the request's (the token's).
func (w *lamodaNomenclatureList) list(req *ListNomenclaturesRequest) *NomenclatureList {
	out := &NomenclatureList{Page: w.Page, Limit: w.Limit, Pages: w.Pages, Total: w.Total,
		Skipped: w.Nomenclatures.skipped, SkipReason: w.Nomenclatures.reason,
		Nomenclatures: make([]Nomenclature, 0, len(w.Nomenclatures.items))}
	for _, e := range w.Nomenclatures.items {
		n := e.Nomenclature
		if n == nil {
			// An entry without its record is a record that cannot be read.
			if out.Skipped == 0 {
				out.SkipReason = "an entry of nomenclatures without its nomenclature"
			}
			out.Skipped++
			continue
		}
		out.Nomenclatures = append(out.Nomenclatures, Nomenclature{SellerID: req.SellerID, Barcode: n.Barcode, MarketplaceSKU: n.LamodaSKU,
			ParentSKU: n.LamodaParentSKU, SellerSKU: n.SellerSKU, Name: n.Name, Brand: n.Brand, Size: n.SellerSize,
			Price: n.Price, SalePrice: n.SalePrice, Quantity: n.Quantity, Status: n.Status,
			PriceUpdateStatus: n.PriceUpdateStatus, UpdatedAt: n.UpdatedAt})
	}
	return out
}

func (r lamodaRPC) listCall(req *ListNomenclaturesRequest) (any, nomenclatureAnswer) {
	return lamodaListParams{Country: r.country, Filter: req.Filter, Page: req.Page, Limit: req.Limit}, &lamodaNomenclatureList{}
}

// storeCall: not sent. The marketplace's v1.nomenclatures.store creates
// and edits product cards; stock and activation have their own methods,
// selected by a filter (updateStockCall, updateActivationCall).
func (r lamodaRPC) storeCall(*StoreRequest) (string, any, updateAnswer, error) {
	return "", nil, nil, &NotSupportedError{Profile: ProfileLamoda, Operation: "v1.nomenclatures.store",
		Reason: "stock and status are written by v1.nomenclatures.update-stock and update-activation (SellerService.UpdateStock, UpdateActivation)"}
}

// lamodaUpdateStockParams are {filter, stock}: no country, no partner (the
// token's seller).
type lamodaUpdateStockParams struct {
	Filter []FilterItem `json:"filter"`
	Stock  int          `json:"stock"`
}

// lamodaUpdateActivationParams are {country, filter, active}.
type lamodaUpdateActivationParams struct {
	Country string       `json:"country"`
	Filter  []FilterItem `json:"filter"`
	Active  bool         `json:"active"`
}

// lamodaUpdateError is an item error of the filtered writes: {code,
// lamodaSku, messages} (NomenclatureUpdateError).
type lamodaUpdateError struct {
	Code      int      `json:"code"`
	LamodaSKU string   `json:"lamodaSku"`
	Messages  []string `json:"messages"`
}

// lamodaUpdateErrorList is the result of both writes: {errors}.
type lamodaUpdateErrorList struct {
	Errors []lamodaUpdateError `json:"errors"`
}

func (w *lamodaUpdateErrorList) result() *UpdateResult {
	out := &UpdateResult{ErrorCount: len(w.Errors)}
	for _, e := range w.Errors {
		out.Errors = append(out.Errors, ItemError{MarketplaceSKU: e.LamodaSKU, Code: e.Code, Messages: e.Messages})
	}
	return out
}

func (r lamodaRPC) updateStockCall(req *UpdateStockRequest) (any, updateAnswer, error) {
	if err := checkFilter(methodUpdateStock, req.Filter); err != nil {
		return nil, nil, err
	}
	if req.Stock < 0 {
		return nil, nil, &RequestError{Op: "seller rpc " + methodUpdateStock, Fields: []FieldError{{Field: "stock", Message: "a stock is never negative"}}}
	}
	return lamodaUpdateStockParams{Filter: req.Filter, Stock: req.Stock}, &lamodaUpdateErrorList{}, nil
}

func (r lamodaRPC) updateActivationCall(req *UpdateActivationRequest) (any, updateAnswer, error) {
	if err := checkFilter(methodUpdateActivation, req.Filter); err != nil {
		return nil, nil, err
	}
	return lamodaUpdateActivationParams{Country: r.country, Filter: req.Filter, Active: req.Active}, &lamodaUpdateErrorList{}, nil
}

// lamodaPriceItem is one item of set-prices: one price per product card
// (parent SKU), for every size of it.
type lamodaPriceItem struct {
	LamodaParentSKU string `json:"lamoda_parent_sku"`
	Price           Money  `json:"price"`
	SalePrice       *Money `json:"sale_price,omitempty"`
	SaleStartDate   string `json:"sale_start_date,omitempty"`
	SaleEndDate     string `json:"sale_end_date,omitempty"`
}

// lamodaSetPricesParams are {country, partner_id, force?, prices}.
type lamodaSetPricesParams struct {
	Country   string            `json:"country"`
	PartnerID int64             `json:"partner_id"`
	Force     bool              `json:"force,omitempty"`
	Prices    []lamodaPriceItem `json:"prices"`
}

// lamodaPriceError is an item error: {code, lamodaSku, lamodaParentSku, messages}.
type lamodaPriceError struct {
	Code            int      `json:"code"`
	LamodaSKU       string   `json:"lamodaSku"`
	LamodaParentSKU string   `json:"lamodaParentSku"`
	Messages        []string `json:"messages"`
}

// lamodaFraudResult is one entry of fraud_validation_results.
type lamodaFraudResult struct {
	LamodaParentSKU string         `json:"lamoda_parent_sku"`
	ChangedValue    string         `json:"changed_value"`
	Status          string         `json:"status"`
	Promotions      jsontext.Value `json:"promotions"`
}

// lamodaSetPricesResult is {success_count, error_count, prices, errors,
// fraud_validation_results}.
type lamodaSetPricesResult struct {
	SuccessCount int                 `json:"success_count"`
	ErrorCount   int                 `json:"error_count"`
	Errors       []lamodaPriceError  `json:"errors"`
	Fraud        []lamodaFraudResult `json:"fraud_validation_results"`
}

func (w *lamodaSetPricesResult) result() *UpdateResult {
	out := &UpdateResult{Updated: w.SuccessCount, ErrorCount: w.ErrorCount}
	for _, e := range w.Errors {
		out.Errors = append(out.Errors, ItemError{MarketplaceSKU: e.LamodaSKU, ParentSKU: e.LamodaParentSKU, Code: e.Code, Messages: e.Messages})
	}
	for _, f := range w.Fraud {
		out.FraudValidations = append(out.FraudValidations, FraudValidation{ParentSKU: f.LamodaParentSKU,
			ChangedValue: f.ChangedValue, Status: f.Status, Promotions: append([]byte(nil), f.Promotions...)})
	}
	return out
}

// Sale window bounds are sent as date-times in the marketplace's zone: the
// start at the beginning of its day, the end at its last second.
const (
	lamodaSaleStart = "T00:00:00+03:00"
	lamodaSaleEnd   = "T23:59:59+03:00"
)

func (r lamodaRPC) setPricesCall(req *SetPricesRequest) (any, updateAnswer, error) {
	var fields []FieldError
	if req.SellerID <= 0 {
		fields = append(fields, FieldError{Field: "partner_id", Message: "the seller id is required"})
	}
	p := lamodaSetPricesParams{Country: r.country, PartnerID: req.SellerID, Force: req.Force,
		Prices: make([]lamodaPriceItem, 0, len(req.Prices))}
	for _, u := range req.Prices {
		if u.ParentSKU == "" {
			fields = append(fields, FieldError{Field: "lamoda_parent_sku", Message: "every price needs the product card's parent SKU"})
			break
		}
		it := lamodaPriceItem{LamodaParentSKU: u.ParentSKU, Price: u.Price, SalePrice: u.SalePrice}
		if u.SaleStartDate != "" {
			it.SaleStartDate = u.SaleStartDate + lamodaSaleStart
		}
		if u.SaleEndDate != "" {
			it.SaleEndDate = u.SaleEndDate + lamodaSaleEnd
		}
		p.Prices = append(p.Prices, it)
	}
	if len(fields) > 0 {
		return nil, nil, &RequestError{Op: "seller rpc v1.nomenclatures.set-prices", Fields: fields}
	}
	return p, &lamodaSetPricesResult{}, nil
}
