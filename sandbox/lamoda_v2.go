package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The lamoda profile's Seller API v2 price path: its own token
// (POST /api/v2/auth-token), the price write (POST
// /api/v2/nomenclatures-prices, integer minor units, at most 100 cards)
// and the read-back (GET /api/v2/nomenclatures-sell-values, at most 25
// cards a page, each page after the first repeating the previous page's
// last card, as the marketplace's v2 lists are seen to). Every request is
// checked strictly: an unknown member, a fractional amount, a currency
// that is not the country's or a sellerId that is not the token's seller
// is refused. A card the price check holds is QUARANTINE in the sell
// values until a write applies it.

// Route names of the v2 price path.
const (
	RouteV2Token      = "v2.auth-token"
	RouteV2SetPrices  = "v2.nomenclatures-prices"
	RouteV2SellValues = "v2.nomenclatures-sell-values"
)

// envSellerV2 is the token environment of the Seller API v2.
const envSellerV2 = "seller-v2"

// Limits of the v2 price path.
const (
	v2MaxPrices     = 100
	v2MaxSellValues = 25
)

// v2Currencies is each country's currency.
var v2Currencies = map[string]string{"RU": "RUB", "BY": "BYN", "KZ": "KZT", "UA": "UAH"}

// routeV2 routes the v2 price path of the lamoda profile, or returns false.
func (s *Sandbox) routeV2(c *call, path string) bool {
	if !s.lamoda() {
		return false
	}
	switch path {
	case "/api/v2/auth-token":
		c.route, c.handle = RouteV2Token, s.handleV2Token
		c.allow = allowOnly(c.r, http.MethodPost)
	case "/api/v2/nomenclatures-prices":
		c.route, c.handle = RouteV2SetPrices, s.handleV2SetPrices
		c.allow = allowOnly(c.r, http.MethodPost)
	case "/api/v2/nomenclatures-sell-values":
		c.route, c.handle = RouteV2SellValues, s.handleV2SellValues
		c.allow = allowOnly(c.r, http.MethodGet)
	default:
		return false
	}
	c.iface, c.env = ifaceREST, envSellerV2
	return true
}

// decodeStrict decodes body into v, refusing unknown members and trailing
// data.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

func (s *Sandbox) handleV2Token(c *call) *response {
	var req struct {
		GrantType    string `json:"grant_type"`
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := decodeStrict(c.body, &req); err != nil {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the body must be {grant_type, client_id, client_secret}",
			restDetail{Field: "body", Issue: "is not the token request"})
	}
	var details []restDetail
	if req.GrantType != "client_credentials" {
		details = append(details, restDetail{Field: "grant_type", Issue: `must be "client_credentials"`})
	}
	if req.ClientID == "" {
		details = append(details, restDetail{Field: "client_id", Issue: issueRequired})
	}
	if req.ClientSecret == "" {
		details = append(details, restDetail{Field: "client_secret", Issue: issueRequired})
	}
	if len(details) > 0 {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the token request is incomplete", details...)
	}
	cred, ce := s.checkCredentials(req.ClientID, req.ClientSecret, envSellerV2)
	if ce != credOK {
		return restError(http.StatusUnauthorized, "UNAUTHORIZED", "client id or secret is wrong")
	}
	tok, err := s.issueToken(cred, envSellerV2)
	if err != nil {
		return restError(http.StatusInternalServerError, "INTERNAL", "the token could not be signed")
	}
	return jsonResponse(http.StatusCreated, map[string]any{"access_token": tok.access, "token_type": "Bearer", "expires_in": int64(tok.ttl.Seconds())})
}

// v2Money is {amount, currency}, the amount an integer of minor units.
type v2Money struct {
	Amount   json.Number `json:"amount"`
	Currency string      `json:"currency"`
}

// kopecks reads m for country, or says what is wrong with it.
func (m *v2Money) kopecks(country string) (money, string) {
	n, err := strconv.ParseInt(string(m.Amount), 10, 64)
	if err != nil {
		return 0, "amount must be an integer number of minor units (kopecks)"
	}
	if n <= 0 || money(n) > maxPrice {
		return 0, "amount is out of range"
	}
	if m.Currency != v2Currencies[country] {
		return 0, "currency must be " + v2Currencies[country] + " for " + country
	}
	return money(n), ""
}

type v2PriceItem struct {
	ParentSKU string   `json:"parentSku"`
	Price     *v2Money `json:"price"`
	SalePrice *v2Money `json:"salePrice"`
	SaleStart *string  `json:"saleStart"`
	SaleEnd   *string  `json:"saleEnd"`
}

type v2PriceError struct {
	SKU      string   `json:"sku"`
	Code     string   `json:"code"`
	Messages []string `json:"messages"`
}

type v2Promotion struct {
	Name string `json:"name"`
}

type v2FraudResult struct {
	ParentSKU    string        `json:"parentSku"`
	InvalidValue string        `json:"invalidValue"`
	Status       string        `json:"status"`
	Promotions   []v2Promotion `json:"promotions"`
}

func (s *Sandbox) handleV2SetPrices(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	var req struct {
		SellerID *string       `json:"sellerId"`
		Country  string        `json:"country"`
		Force    *bool         `json:"force"`
		Prices   []v2PriceItem `json:"prices"`
	}
	if err := decodeStrict(c.body, &req); err != nil {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the body is not a price request",
			restDetail{Field: "body", Issue: "unknown member or wrong type"})
	}
	var details []restDetail
	seller := int64(0)
	if req.SellerID == nil || *req.SellerID == "" {
		details = append(details, restDetail{Field: "sellerId", Issue: issueRequired})
	} else if n, err := strconv.ParseInt(*req.SellerID, 10, 64); err != nil || n <= 0 {
		details = append(details, restDetail{Field: "sellerId", Issue: "must be the seller's id"})
	} else {
		seller = n
	}
	if _, ok := v2Currencies[req.Country]; !ok {
		details = append(details, restDetail{Field: "country", Issue: "must be one of RU, BY, KZ, UA"})
	}
	if len(req.Prices) == 0 || len(req.Prices) > v2MaxPrices {
		details = append(details, restDetail{Field: "prices", Issue: fmt.Sprintf("must hold 1 to %d cards", v2MaxPrices)})
	}
	// The items in the JSON-RPC set-prices' names, so one set of rules
	// (lamodaSetCard) holds for both paths.
	items := make([]map[string]json.RawMessage, len(req.Prices))
	for i, it := range req.Prices {
		at := fmt.Sprintf("prices[%d]", i)
		if it.ParentSKU == "" {
			details = append(details, restDetail{Field: at + ".parentSku", Issue: issueRequired})
		}
		item := map[string]json.RawMessage{}
		if it.Price == nil {
			details = append(details, restDetail{Field: at + ".price", Issue: issueRequired})
		} else if k, bad := it.Price.kopecks(req.Country); bad != "" {
			details = append(details, restDetail{Field: at + ".price", Issue: bad})
		} else {
			item["price"] = json.RawMessage(k.String())
		}
		if it.SalePrice != nil {
			if k, bad := it.SalePrice.kopecks(req.Country); bad != "" {
				details = append(details, restDetail{Field: at + ".salePrice", Issue: bad})
			} else {
				item["sale_price"] = json.RawMessage(k.String())
			}
		}
		for name, v := range map[string]*string{"sale_start_date": it.SaleStart, "sale_end_date": it.SaleEnd} {
			if v != nil {
				item[name], _ = json.Marshal(*v)
			}
		}
		items[i] = item
	}
	if len(details) > 0 {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the price request is not valid", details...)
	}
	if seller != c.auth.sellerID {
		return restError(http.StatusForbidden, "FORBIDDEN", fmt.Sprintf("sellerId %d is not the seller of this token", seller))
	}
	force := req.Force != nil && *req.Force
	now := s.Now()
	out := struct {
		SuccessCount int             `json:"successCount"`
		ErrorCount   int             `json:"errorCount"`
		Errors       []v2PriceError  `json:"errors"`
		Fraud        []v2FraudResult `json:"fraudValidationResults"`
	}{Errors: []v2PriceError{}, Fraud: []v2FraudResult{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	sd := s.sellers[seller]
	for i, it := range req.Prices {
		code, msgs, fraud := s.lamodaSetCard(sd, it.ParentSKU, items[i], now, force)
		switch {
		case fraud != nil:
			// Held: not applied, not an error; the card waits in quarantine.
			out.Fraud = append(out.Fraud, v2FraudResult{ParentSKU: it.ParentSKU, InvalidValue: strings.ToUpper(fraud.ChangedValue),
				Status: strings.ToUpper(fraud.Status), Promotions: v2Promotions(fraud.Promotions)})
			s.quarantine[quarantineKey(seller, it.ParentSKU)] = true
		case code != 0:
			name := "VALIDATION_ERROR"
			if code == itemNotFound {
				name = "NOT_FOUND"
			}
			out.Errors = append(out.Errors, v2PriceError{SKU: it.ParentSKU, Code: name, Messages: msgs})
		default:
			delete(s.quarantine, quarantineKey(seller, it.ParentSKU))
			out.SuccessCount++
		}
	}
	out.ErrorCount = len(out.Errors)
	return jsonResponse(http.StatusOK, out)
}

// v2Promotions writes the promotions of a finding as the v2 answer does:
// [{name}].
func v2Promotions(in []any) []v2Promotion {
	out := []v2Promotion{}
	for _, p := range in {
		if m, ok := p.(map[string]any); ok {
			if n, ok := m["name"].(string); ok {
				out = append(out, v2Promotion{Name: n})
			}
		}
	}
	return out
}

func quarantineKey(seller int64, parent string) string { return itoa(seller) + "/" + parent }

type v2SellValue struct {
	Country           string      `json:"country"`
	Price             v2MoneyOut  `json:"price"`
	SalePrice         *v2MoneyOut `json:"salePrice,omitempty"`
	SaleStart         string      `json:"saleStart,omitempty"`
	SaleEnd           string      `json:"saleEnd,omitempty"`
	PriceUpdateStatus string      `json:"priceUpdateStatus"`
}

type v2MoneyOut struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

func (s *Sandbox) handleV2SellValues(c *call) *response {
	if c.authErr != nil {
		return unauthorized(c, c.authErr)
	}
	vals, err := url.ParseQuery(c.r.URL.RawQuery)
	if err != nil {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the query string is malformed")
	}
	var details []restDetail
	for k := range vals {
		if k != "sellerId" && k != "page" && k != "limit" && k != "country" {
			details = append(details, restDetail{Field: k, Issue: "is not a parameter of this list"})
		}
	}
	seller := int64(0)
	if n, err := strconv.ParseInt(vals.Get("sellerId"), 10, 64); err != nil || n <= 0 {
		details = append(details, restDetail{Field: "sellerId", Issue: issueRequired})
	} else {
		seller = n
	}
	page, d := restInt(vals, "page", 1, 1, maxPage)
	if d != nil {
		details = append(details, *d)
	}
	limit, d := restInt(vals, "limit", v2MaxSellValues, 1, v2MaxSellValues)
	if d != nil {
		details = append(details, *d)
	}
	if len(details) > 0 {
		return restError(http.StatusBadRequest, "VALIDATION_FAILED", "the query is not valid", details...)
	}
	if seller != c.auth.sellerID {
		return restError(http.StatusForbidden, "FORBIDDEN", fmt.Sprintf("sellerId %d is not the seller of this token", seller))
	}
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[seller]
	var parents []string
	seen := map[string]bool{}
	for _, p := range sd.products {
		if p.parent != "" && !seen[p.parent] {
			seen[p.parent] = true
			parents = append(parents, p.parent)
		}
	}
	lo, hi, pages := pageBounds(len(parents), page, limit)
	if page > 1 && lo > 0 && lo < len(parents) {
		lo-- // the quirk: a page repeats the previous page's last card
	}
	type entry struct {
		ParentSKU  string        `json:"parentSku"`
		SellValues []v2SellValue `json:"sellValues"`
	}
	out := struct {
		Nomenclatures []entry        `json:"nomenclatures"`
		Meta          map[string]int `json:"meta"`
	}{Nomenclatures: []entry{}, Meta: map[string]int{"page": page, "limit": limit, "total": len(parents), "totalPages": pages}}
	for _, parent := range parents[lo:hi] {
		p := sd.cards[parent][0]
		price, sale, status, _ := p.effective(now)
		if s.quarantine[quarantineKey(seller, parent)] {
			status = "QUARANTINE"
		}
		v := v2SellValue{Country: "RU", Price: v2MoneyOut{Amount: int64(price), Currency: "RUB"}, PriceUpdateStatus: status}
		if sale > 0 && sale != price {
			v.SalePrice = &v2MoneyOut{Amount: int64(sale), Currency: "RUB"}
		}
		out.Nomenclatures = append(out.Nomenclatures, entry{ParentSKU: parent, SellValues: []v2SellValue{v}})
	}
	return jsonResponse(http.StatusOK, out)
}
