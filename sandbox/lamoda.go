package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Wire profiles the sandbox serves. The state, faults and counters are the
// same in both; only the shapes on the wire differ.
const (
	// ProfileContract serves the interface contract and the field notes.
	ProfileContract = "contract"
	// ProfileLamoda serves the marketplace's own published shapes (its
	// seller gateway's Swagger and its B2B clients), as strictly as the
	// real service: a POST to the B2B token path is refused (405), a
	// JSON-RPC id that is not a 36-character string is -32600, a missing
	// country or partner_id is -32602 naming the field.
	ProfileLamoda = "lamoda"
)

// Profiles lists the profiles New accepts ("" is ProfileContract).
func Profiles() []string { return []string{ProfileContract, ProfileLamoda} }

func (s *Sandbox) lamoda() bool { return s.opts.Profile == ProfileLamoda }

// lamodaRPCMethods maps the JSON-RPC methods the lamoda profile serves to
// their route names. Each is called at its own path below /jsonrpc
// ("/jsonrpc/v1/nomenclatures.list"), as the gateway's Swagger lays out.
var lamodaRPCMethods = map[string]string{
	"v1.tokens.create":                   RouteRPCTokens,
	"v1.nomenclatures.list":              RouteRPCList,
	"v1.nomenclatures.set-prices":        RouteRPCSetPrices,
	"v1.nomenclatures.update-stock":      RouteRPCUpdateStock,
	"v1.nomenclatures.update-activation": RouteRPCUpdateActivation,
	"v1.promotions.list":                 RouteRPCPromotions,
	"v1.products.list":                   RouteRPCPromotionProducts,
}

// Countries the lamoda profile accepts.
var lamodaCountries = []string{"RU", "BY", "KZ", "UA"}

// lamodaOrderJSON is an order as the lamoda profile writes it: a string id
// (the order number with an item suffix, "RU260807-188386-001C"), the
// creation time in Moscow time without a zone, the rest as the contract.
type lamodaOrderJSON struct {
	ID            string                `json:"id"`
	OrderNr       string                `json:"orderNr"`
	Status        string                `json:"status"`
	PaymentMethod string                `json:"paymentMethod"`
	FullSum       string                `json:"fullSum"`
	DeliveryPrice string                `json:"deliveryPrice"`
	Currency      string                `json:"currency"`
	CreatedAt     string                `json:"createdAt"`
	UpdatedAt     time.Time             `json:"updatedAt"`
	IsConfirmed   bool                  `json:"isConfirmed"`
	ItemQuantity  int                   `json:"itemQuantity"`
	Items         []lamodaOrderItemJSON `json:"items"`
}

type lamodaOrderItemJSON struct {
	ID          string `json:"id"`
	SKU         string `json:"sku"`
	LamodaSKU   string `json:"lamodaSku"`
	Description string `json:"description"`
	Size        string `json:"size"`
	Status      string `json:"status"`
	SalePrice   string `json:"salePrice"`
	PaidPrice   string `json:"paidPrice"`
}

func lamodaOrder(o orderJSON) lamodaOrderJSON {
	out := lamodaOrderJSON{
		ID: o.OrderNr + "-001C", OrderNr: o.OrderNr, Status: o.Status, PaymentMethod: o.PaymentMethod,
		FullSum: o.FullSum, DeliveryPrice: o.DeliveryPrice, Currency: o.Currency,
		CreatedAt: o.CreatedAt.In(moscow).Format(time.DateTime), UpdatedAt: o.UpdatedAt,
		IsConfirmed: o.IsConfirmed, ItemQuantity: o.ItemQuantity,
	}
	for i, it := range o.Items {
		out.Items = append(out.Items, lamodaOrderItemJSON{
			ID: fmt.Sprintf("%s-%03d", o.OrderNr, i+1), SKU: it.SKU, LamodaSKU: it.MarketplaceSKU,
			Description: it.Description, Size: it.Size, Status: it.Status, SalePrice: it.SalePrice, PaidPrice: it.PaidPrice,
		})
	}
	return out
}

// lamodaOrderStatus reads the order list's status filter, "filter=status=<v>".
// A bare status= is not the marketplace's and is refused.
func lamodaOrderStatus(vals url.Values) (string, []b2bFieldError) {
	var errs []b2bFieldError
	if _, ok := vals["status"]; ok {
		errs = append(errs, b2bFieldError{Field: "status", Message: "This field was not expected; filter with filter=status=<value>."})
	}
	f := vals.Get("filter")
	if f == "" {
		return "", errs
	}
	v, ok := strings.CutPrefix(f, "status=")
	if !ok || !validOrderStatus(v) {
		errs = append(errs, b2bFieldError{Field: "filter", Message: msgChoice})
		return "", errs
	}
	return v, errs
}

// checkLamodaID enforces the gateway's id: a string of exactly 36 characters.
func checkLamodaID(req *rpcRequest) *rpcError {
	var id string
	if len(req.id) == 0 || req.id[0] != '"' || json.Unmarshal(req.id, &id) != nil || len([]rune(id)) != 36 {
		return invalidRequest(req.id, "id must be a string of exactly 36 characters")
	}
	return nil
}

// lamodaTokenResult is the camelCase result of v1.tokens.create.
type lamodaTokenResult struct {
	AccessToken  string `json:"accessToken"`
	ExpiresIn    int64  `json:"expiresIn"`
	RefreshToken string `json:"refreshToken"`
	Scope        string `json:"scope"`
	TokenType    string `json:"tokenType"`
}

func (s *Sandbox) lamodaTokensCreate(params map[string]json.RawMessage) (any, *rpcError) {
	tok, e := s.tokensCreate(params, [3]string{"clientId", "clientSecret", "grantType"})
	if e != nil {
		return nil, e
	}
	return lamodaTokenResult{AccessToken: tok.access, ExpiresIn: int64(tok.ttl.Seconds()), RefreshToken: tok.refresh,
		Scope: "r_partner r_orders w_nomenclatures", TokenType: "bearer"}, nil
}

// countryParam reads the required country.
func countryParam(params map[string]json.RawMessage) *rpcError {
	c, e := stringParam(params, "country", true)
	if e != nil {
		return e
	}
	for _, v := range lamodaCountries {
		if c == v {
			return nil
		}
	}
	return paramError("country", "country must be one of "+strings.Join(lamodaCountries, ", "))
}

// lamodaNomenclatureJSON is one record of the lamoda list: one per product
// (size), with no warehouse; its quantity is the sum over the seller's
// warehouses and its status that of its first warehouse's record.
type lamodaNomenclatureJSON struct {
	SellerSKU         string `json:"sellerSku"`
	LamodaSKU         string `json:"lamodaSku"`
	LamodaParentSKU   string `json:"lamodaParentSku"`
	SellerSize        string `json:"sellerSize"`
	Barcode           string `json:"barcode"`
	Name              string `json:"name"`
	Brand             string `json:"brand"`
	Quantity          int    `json:"quantity"`
	Status            string `json:"status"`
	Price             money  `json:"price"`
	SalePrice         money  `json:"salePrice"`
	PriceUpdateStatus string `json:"priceUpdateStatus"`
	CreatedAt         string `json:"createdAt"`
	UpdatedAt         string `json:"updatedAt"`
}

func (s *Sandbox) lamodaList(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	if e := countryParam(params); e != nil {
		return nil, e
	}
	page, e := intParam(params, "page", false, 1, 1, maxPage)
	if e != nil {
		return nil, e
	}
	limit, e := intParam(params, "limit", false, defaultLimit, 1, maxLimit)
	if e != nil {
		return nil, e
	}
	f, e := filterParam(params, false)
	if e != nil {
		return nil, e
	}
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[p.sellerID]
	products := sd.products
	if len(f.sets) > 0 {
		products = nil
		for _, prod := range sd.products {
			if f.selects(prod) {
				products = append(products, prod)
			}
		}
	}
	lo, hi, pages := pageBounds(len(products), int(page), int(limit))
	type entry struct {
		Nomenclature lamodaNomenclatureJSON `json:"nomenclature"`
	}
	out := struct {
		Page          int64   `json:"page"`
		Limit         int64   `json:"limit"`
		Pages         int     `json:"pages"`
		Total         int     `json:"total"`
		Nomenclatures []entry `json:"nomenclatures"`
	}{Page: page, Limit: limit, Pages: pages, Total: len(products), Nomenclatures: make([]entry, 0, hi-lo)}
	for _, prod := range products[lo:hi] {
		price, sale, status, updated := prod.effective(now)
		n := lamodaNomenclatureJSON{SellerSKU: prod.sellerSKU, LamodaSKU: prod.sku, LamodaParentSKU: prod.parent,
			SellerSize: prod.size, Barcode: prod.barcode, Name: prod.name, Brand: prod.brand,
			Price: price, SalePrice: sale, PriceUpdateStatus: status}
		for i, wh := range sd.warehouses {
			rec := sd.recordByKey[recordKey(wh, prod.barcode)]
			if rec == nil {
				continue
			}
			n.Quantity += rec.quantity
			if i == 0 {
				n.Status = rec.status
			}
			if rec.updatedAt.After(updated) {
				updated = rec.updatedAt
			}
		}
		// The Swagger's examples write both forms: ISO for the update,
		// Moscow "YYYY-MM-DD hh:mm:ss" for the creation.
		n.CreatedAt = s.opts.Start.In(moscow).Format(time.DateTime)
		n.UpdatedAt = updated.UTC().Format("2006-01-02T15:04:05.000Z")
		out.Nomenclatures = append(out.Nomenclatures, entry{n})
	}
	return out, nil
}

// lamodaPriceError is an item error of the lamoda set-prices.
type lamodaPriceError struct {
	Code            int      `json:"code"`
	LamodaSKU       string   `json:"lamodaSku"`
	LamodaParentSKU string   `json:"lamodaParentSku"`
	Messages        []string `json:"messages"`
}

type lamodaFraudResult struct {
	LamodaParentSKU string `json:"lamoda_parent_sku"`
	ChangedValue    string `json:"changed_value"`
	Status          string `json:"status"`
	Promotions      []any  `json:"promotions"`
}

type lamodaSetPricesResult struct {
	SuccessCount int                          `json:"success_count"`
	ErrorCount   int                          `json:"error_count"`
	Prices       []map[string]json.RawMessage `json:"prices"`
	Errors       []lamodaPriceError           `json:"errors"`
	Fraud        []lamodaFraudResult          `json:"fraud_validation_results"`
}

// lamodaFraudDrop is the drop beyond which the sandbox's fraud check asks
// for confirmation (force): more than half of the current price.
const lamodaFraudDrop = 2

func (s *Sandbox) lamodaSetPrices(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	if e := countryParam(params); e != nil {
		return nil, e
	}
	partner, e := intParam(params, "partner_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	force := false
	if raw, ok := params["force"]; ok && !isNull(raw) {
		if json.Unmarshal(raw, &force) != nil {
			return nil, paramError("force", "force must be a boolean")
		}
	}
	list, e := objectList(params, "prices")
	if e != nil {
		return nil, e
	}
	parents := make([]string, len(list))
	for i, it := range list {
		if parents[i], e = itemKey(it, "prices", i, "lamoda_parent_sku"); e != nil {
			return nil, e
		}
	}
	if partner != p.sellerID {
		return nil, &rpcError{Code: codeForbidden, Message: "Forbidden", Data: map[string]any{
			"partner_id": partner, "reason": fmt.Sprintf("partner_id %d is not the seller of this token", partner)}}
	}
	now := s.Now()
	res := lamodaSetPricesResult{Prices: []map[string]json.RawMessage{}, Errors: []lamodaPriceError{}, Fraud: []lamodaFraudResult{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	sd := s.sellers[p.sellerID]
	for i, it := range list {
		code, msgs, fraud := s.lamodaSetCard(sd, parents[i], it, now, force)
		if fraud != nil {
			res.Fraud = append(res.Fraud, *fraud)
		}
		if code != 0 {
			sku := ""
			if card := sd.cards[parents[i]]; len(card) > 0 {
				sku = card[0].sku
			}
			res.Errors = append(res.Errors, lamodaPriceError{Code: code, LamodaSKU: sku, LamodaParentSKU: parents[i], Messages: msgs})
			continue
		}
		res.SuccessCount++
		res.Prices = append(res.Prices, it)
	}
	res.ErrorCount = len(res.Errors)
	return res, nil
}

// lamodaSetCard validates one card's price and applies it to every size of
// the card, through the same rules as the contract's set-prices, plus the
// fraud check: a drop of more than half needs force.
func (s *Sandbox) lamodaSetCard(sd *sellerData, parent string, it map[string]json.RawMessage, now time.Time, force bool) (int, []string, *lamodaFraudResult) {
	card := sd.cards[parent]
	if len(card) == 0 {
		return itemNotFound, []string{fmt.Sprintf("product card %s not found", parent)}, nil
	}
	// The card's item in the contract's names, so one set of rules holds.
	item := map[string]json.RawMessage{}
	for from, to := range map[string]string{"price": "price", "sale_price": "salePrice"} {
		if v, ok := it[from]; ok {
			item[to] = v
		}
	}
	var problems []string
	for from, to := range map[string]string{"sale_start_date": "saleStartDate", "sale_end_date": "saleEndDate"} {
		v, ok := it[from]
		if !ok || isNull(v) {
			continue
		}
		var str string
		t, err := time.Time{}, error(nil)
		if v[0] == '"' && json.Unmarshal(v, &str) == nil {
			t, err = time.Parse(time.RFC3339, str)
		} else {
			err = fmt.Errorf("not a string")
		}
		if err != nil {
			problems = append(problems, from+" must be a date-time, e.g. 2026-11-20T00:00:00+03:00")
			continue
		}
		d, _ := json.Marshal(t.In(moscow).Format(time.DateOnly))
		item[to] = d
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return itemInvalid, problems, nil
	}
	price, hasPrice, _ := parseMoney(item, "price")
	if hasPrice && !force {
		current, _, _, _ := card[0].effective(now)
		below := s.belowPromoFloor(sd.id, parent, price, current)
		if below || (price*lamodaFraudDrop < current && price*10 >= current) {
			msg := fmt.Sprintf("the new price %s is less than half of the current %s: confirm it (force) to apply", price, current)
			if below {
				msg = fmt.Sprintf("the new price %s is below the floor of a promotion the card takes part in: confirm it (force) to apply; the card leaves the promotion", price)
			}
			return itemConfirm, []string{msg},
				&lamodaFraudResult{LamodaParentSKU: parent, ChangedValue: "black_price", Status: "warning", Promotions: s.cardPromotions(sd.id, parent)}
		}
	}
	// Validate on the first size, then apply to all: sizes share the price.
	if code, msgs := setPriceOne(sd, card[0].sku, item, now, s.opts.PriceApplyDelay); code != 0 {
		return code, msgs, nil
	}
	for _, prod := range card[1:] {
		setPriceOne(sd, prod.sku, item, now, s.opts.PriceApplyDelay)
	}
	if force {
		s.counters.forcedWrite(parent)
	}
	return 0, nil, nil
}

// itemConfirm is the item error of a price change the fraud check holds
// until it is confirmed with force.
const itemConfirm = 409

// handleReturnBoxesLamoda answers the return box list in the shape of the
// gateway's JSON-RPC twin: {page, limit, pages, total, boxes}.
func lamodaBoxes(page, limit, pages, total int, boxes []*returnBox) *response {
	head := fmt.Sprintf(`{"page":%d,"limit":%d,"pages":%d,"total":%d,"boxes":[`, page, limit, pages, total)
	buf := make([]byte, 0, len(head)+len(boxes)*200)
	buf = append(buf, head...)
	for i, b := range boxes {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b.raw...)
	}
	buf = append(buf, "]}"...)
	return &response{status: http.StatusOK, ctype: ctypeJSON, body: buf}
}

// sellerParam is the name of the return box list's seller parameter.
func (s *Sandbox) sellerParam() string {
	if s.lamoda() {
		return "sellerId"
	}
	return "seller_id"
}
