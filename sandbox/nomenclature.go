package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Item-level error codes of v1.nomenclatures.store (shape A) and
// v1.nomenclatures.set-prices (shape B).
const (
	itemInvalid   = 400 // a value is missing, malformed or out of range
	itemForbidden = 403 // the warehouse belongs to another seller
	itemNotFound  = 404 // unknown warehouse+barcode or marketplace SKU
	itemGuard     = 422 // the marketplace's price guard refused the change
)

// Bounds of the mass-update methods.
const (
	maxItems    = 1000
	maxQuantity = 1_000_000
	maxPrice    = money(99_999_999_99)
)

// itemErrorA is shape A (spec §2): the item error of a store.
type itemErrorA struct {
	WarehouseCode string     `json:"warehouse_code"`
	Barcode       string     `json:"barcode"`
	Error         itemErrMsg `json:"error"`
}

type itemErrMsg struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// itemErrorB is shape B (spec §2, NomenclatureUpdateError): the item error of
// a set-prices.
type itemErrorB struct {
	MarketplaceSKU string   `json:"marketplaceSku"`
	Code           int      `json:"code"`
	Messages       []string `json:"messages"`
}

// updateResult is the result of both mass-update methods.
type updateResult[E any] struct {
	Updated    int `json:"updated"`
	ErrorCount int `json:"error_count"`
	Errors     []E `json:"errors"`
}

// objectList reads a parameter that must be a non-empty array of objects.
func objectList(params map[string]json.RawMessage, name string) ([]map[string]json.RawMessage, *rpcError) {
	raw, ok := params[name]
	if !ok {
		return nil, paramError(name, name+" is required")
	}
	var list []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, paramError(name, name+" must be an array")
	}
	if len(list) == 0 {
		return nil, paramError(name, name+" must not be empty")
	}
	if len(list) > maxItems {
		return nil, paramError(name, fmt.Sprintf("%s must not have more than %d entries", name, maxItems))
	}
	out := make([]map[string]json.RawMessage, len(list))
	for i, item := range list {
		if item[0] != '{' || json.Unmarshal(item, &out[i]) != nil {
			return nil, paramError(fmt.Sprintf("%s[%d]", name, i), "must be an object")
		}
	}
	return out, nil
}

// itemKey reads a required, non-empty string field of an item.
func itemKey(item map[string]json.RawMessage, list string, i int, name string) (string, *rpcError) {
	raw, ok := item[name]
	var v string
	if !ok || raw[0] != '"' || json.Unmarshal(raw, &v) != nil || v == "" {
		return "", paramError(fmt.Sprintf("%s[%d].%s", list, i, name), name+" must be a non-empty string")
	}
	return v, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(raw, []byte("null")) }

type storeItem struct {
	warehouse, barcode string
	fields             map[string]json.RawMessage
}

func (s *Sandbox) rpcStore(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	seller, e := intParam(params, "seller_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	list, e := objectList(params, "items")
	if e != nil {
		return nil, e
	}
	items := make([]storeItem, len(list))
	for i, it := range list {
		if items[i].warehouse, e = itemKey(it, "items", i, "warehouse_code"); e != nil {
			return nil, e
		}
		if items[i].barcode, e = itemKey(it, "items", i, "barcode"); e != nil {
			return nil, e
		}
		items[i].fields = it
	}
	if seller != p.sellerID {
		return nil, forbiddenSeller(seller, p.sellerID)
	}
	now := s.Now()
	res := updateResult[itemErrorA]{Errors: []itemErrorA{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	sd := s.sellers[seller]
	for _, it := range items {
		code, msg := s.storeOne(sd, it, now)
		if code != 0 {
			res.Errors = append(res.Errors, itemErrorA{WarehouseCode: it.warehouse, Barcode: it.barcode,
				Error: itemErrMsg{Code: code, Message: msg}})
			continue
		}
		res.Updated++
	}
	res.ErrorCount = len(res.Errors)
	return res, nil
}

// storeOne validates one store item completely and applies it only when it is
// valid. The caller holds mu for writing.
func (s *Sandbox) storeOne(sd *sellerData, it storeItem, now time.Time) (int, string) {
	if owner, ok := s.warehouseOf[it.warehouse]; ok && owner != sd.id {
		return itemForbidden, fmt.Sprintf("warehouse %s does not belong to seller %d", it.warehouse, sd.id)
	}
	rec := sd.recordByKey[recordKey(it.warehouse, it.barcode)]
	if rec == nil {
		return itemNotFound, fmt.Sprintf("nomenclature not found: warehouse %s, barcode %s", it.warehouse, it.barcode)
	}
	var (
		problems []string
		qty      = -1
		status   string
	)
	if raw, ok := it.fields["quantity"]; ok && !isNull(raw) {
		n, err := strconv.ParseInt(string(raw), 10, 64)
		switch {
		case err != nil || n < 0:
			problems = append(problems, "quantity must be a non-negative integer")
		case n > maxQuantity:
			problems = append(problems, fmt.Sprintf("quantity must not exceed %d", maxQuantity))
		default:
			qty = int(n)
		}
	}
	if raw, ok := it.fields["status"]; ok && !isNull(raw) {
		if raw[0] != '"' || json.Unmarshal(raw, &status) != nil || !validNomenclatureStatus(status) {
			status = ""
			problems = append(problems, "status must be one of "+strings.Join(nomenclatureStatus, ", "))
		}
	}
	if len(problems) == 0 && qty < 0 && status == "" {
		problems = append(problems, "nothing to update: give quantity or status")
	}
	if len(problems) > 0 {
		return itemInvalid, strings.Join(problems, "; ")
	}
	if status != "" && status != rec.status {
		if msg := moderationRule(rec.status, status); msg != "" {
			return itemGuard, msg
		}
	}
	if qty >= 0 {
		rec.quantity = qty
	}
	if status != "" {
		rec.status = status
	}
	rec.updatedAt = now
	return 0, ""
}

// moderationRule is the marketplace's say over statuses (a house choice in
// the spirit of the real service): moderation sets in_moderation and
// rejected, sellers only switch between online and disabled, and a product
// that moderation rejected or has not yet approved cannot go online.
func moderationRule(from, to string) string {
	switch {
	case to == "in_moderation" || to == "rejected":
		return "status " + to + " is set by marketplace moderation, not by the seller"
	case to == "online" && from == "rejected":
		return "the product was rejected by moderation: correct its card before putting it online"
	case to == "online" && from == "in_moderation":
		return "the product is still in moderation and cannot go online yet"
	}
	return ""
}

func validNomenclatureStatus(st string) bool {
	for _, v := range nomenclatureStatus {
		if v == st {
			return true
		}
	}
	return false
}

func (s *Sandbox) rpcSetPrices(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	if _, ok := params["seller_id"]; ok {
		seller, e := intParam(params, "seller_id", true, 0, 1, maxSellerID)
		if e != nil {
			return nil, e
		}
		if seller != p.sellerID {
			return nil, forbiddenSeller(seller, p.sellerID)
		}
	}
	list, e := objectList(params, "prices")
	if e != nil {
		return nil, e
	}
	skus := make([]string, len(list))
	for i, it := range list {
		if skus[i], e = itemKey(it, "prices", i, "marketplaceSku"); e != nil {
			return nil, e
		}
	}
	now := s.Now()
	res := updateResult[itemErrorB]{Errors: []itemErrorB{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	sd := s.sellers[p.sellerID]
	delay := s.opts.PriceApplyDelay
	for i, it := range list {
		code, msgs := setPriceOne(sd, skus[i], it, now, delay)
		if code != 0 {
			res.Errors = append(res.Errors, itemErrorB{MarketplaceSKU: skus[i], Code: code, Messages: msgs})
			continue
		}
		res.Updated++
	}
	res.ErrorCount = len(res.Errors)
	return res, nil
}

// setPriceOne validates one price update completely and applies it only when
// it is valid. The caller holds mu for writing.
func setPriceOne(sd *sellerData, sku string, it map[string]json.RawMessage, now time.Time, delay time.Duration) (int, []string) {
	prod := sd.productBySKU[sku]
	if prod == nil {
		return itemNotFound, []string{fmt.Sprintf("product %s not found", sku)}
	}
	var problems []string
	price, hasPrice, msgs := parseMoney(it, "price")
	problems = append(problems, msgs...)
	if !hasPrice && len(msgs) == 0 {
		problems = append(problems, "price is required")
	}
	sale, hasSale, msgs := parseMoney(it, "salePrice")
	problems = append(problems, msgs...)
	if hasPrice && hasSale && len(problems) == 0 && sale > price {
		problems = append(problems, "salePrice must not exceed price")
	}
	start, okStart := parseDate(it, "saleStartDate")
	end, okEnd := parseDate(it, "saleEndDate")
	if !okStart {
		problems = append(problems, "saleStartDate must be a date in YYYY-MM-DD format")
	}
	if !okEnd {
		problems = append(problems, "saleEndDate must be a date in YYYY-MM-DD format")
	}
	if okStart && okEnd && !start.IsZero() && !end.IsZero() && end.Before(start) {
		problems = append(problems, "saleEndDate must not be before saleStartDate")
	}
	if len(problems) > 0 {
		return itemInvalid, problems
	}
	current, _, _, _ := prod.effective(now)
	if price*10 < current {
		problems = append(problems, fmt.Sprintf("price %s is more than 90%% below the current price %s", price, current))
	}
	if hasSale && sale*10 < current {
		problems = append(problems, fmt.Sprintf("salePrice %s is more than 90%% below the current price %s", sale, current))
	}
	if len(problems) > 0 {
		return itemGuard, problems
	}
	if !hasSale {
		sale = price
	}
	prod.settle(now)
	if delay <= 0 {
		prod.price, prod.salePrice, prod.priceStatus, prod.priceUpdatedAt = price, sale, "OK", now
		prod.pending = nil
	} else {
		prod.pending = &pendingPrice{price: price, salePrice: sale, applyAt: now.Add(delay)}
	}
	return 0, nil
}

var (
	ratHundred = big.NewRat(100, 1)
	ratMax     = new(big.Rat).SetInt64(int64(maxPrice))
)

// parseMoney reads an optional money field given as a JSON number. It reports
// the value in kopecks, whether the field was present (and not null), and the
// problems found.
func parseMoney(it map[string]json.RawMessage, name string) (money, bool, []string) {
	raw, ok := it[name]
	if !ok || isNull(raw) {
		return 0, false, nil
	}
	c := raw[0]
	if c != '-' && (c < '0' || c > '9') {
		return 0, true, []string{name + " must be a number"}
	}
	num := string(raw)
	if len(num) > 40 { // bounds the big.Rat work; no real price is this long
		return 0, true, []string{name + " is out of range"}
	}
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		exp, err := strconv.Atoi(strings.TrimPrefix(num[i+1:], "+"))
		if err != nil || exp > 20 || exp < -20 {
			return 0, true, []string{name + " is out of range"}
		}
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, true, []string{name + " must be a number"}
	}
	var problems []string
	if r.Sign() <= 0 {
		problems = append(problems, name+" must be greater than 0")
	}
	kop := new(big.Rat).Mul(r, ratHundred)
	if !kop.IsInt() {
		problems = append(problems, name+" must have at most 2 decimal places")
	}
	if kop.Cmp(ratMax) > 0 {
		problems = append(problems, fmt.Sprintf("%s must not exceed %s", name, maxPrice))
	}
	if len(problems) > 0 {
		return 0, true, problems
	}
	return money(kop.Num().Int64()), true, nil
}

// parseDate reads an optional YYYY-MM-DD field; ok is false when malformed.
func parseDate(it map[string]json.RawMessage, name string) (time.Time, bool) {
	raw, present := it[name]
	if !present || isNull(raw) {
		return time.Time{}, true
	}
	var v string
	if raw[0] != '"' || json.Unmarshal(raw, &v) != nil {
		return time.Time{}, false
	}
	if v == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}
