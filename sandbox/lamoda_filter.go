package sandbox

import (
	"encoding/json"
	"fmt"
	"slices"
)

// The lamoda profile's filtered methods, served as the Swagger publishes
// them: v1.nomenclatures.list with a filter, v1.nomenclatures.update-stock
// {filter, stock} and v1.nomenclatures.update-activation {country, filter,
// active}, each write answering {errors: [{code, lamodaSku, messages}]}.
//
// A FilterItem is {key, operator, value[]}; its key is a free string. The
// sandbox selects by the seller's SKU under the keys "supplierSku" (the
// key public integration code sends) and "sellerSku" (the record's field),
// with IN or EQ; any other item is ignored, so it selects every record, as
// a marketplace that does not know a key would. That is the danger the
// dashboard's dry run guards against, reproducible in a test.

// filterOperators is the Swagger's FilterItem.operator enum.
var filterOperators = []string{"BETWEEN", "NOT_EQ", "GREATER_OR_EQ", "LESS_OR_EQ", "LIKE", "ILIKE", "IN", "EQ", "GREATER", "LESS"}

// sellerSKUKeys are the filter keys the sandbox selects the seller's SKU by.
var sellerSKUKeys = []string{"supplierSku", "sellerSku"}

// maxFilterValues bounds the values of one filter item.
const maxFilterValues = 1000

// lamodaMaxStock is the largest stock update-stock accepts for a product;
// above it every selected product is refused on its own (item errors).
const lamodaMaxStock = 99_999

type filterItem struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Value    []string `json:"value"`
}

// productFilter is a parsed filter: the sets of seller SKUs its honoured
// items select (all must hold); no set selects every product.
type productFilter struct{ sets []map[string]bool }

func (f productFilter) selects(p *product) bool {
	for _, set := range f.sets {
		if !set[p.sellerSKU] {
			return false
		}
	}
	return true
}

// filterParam reads the filter parameter; required says whether it must be
// present (the writes) or may be absent (the list).
func filterParam(params map[string]json.RawMessage, required bool) (productFilter, *rpcError) {
	raw, ok := params["filter"]
	if !ok || isNull(raw) {
		if required {
			return productFilter{}, paramError("filter", "filter is required")
		}
		return productFilter{}, nil
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return productFilter{}, paramError("filter", "filter must be an array of FilterItem")
	}
	var f productFilter
	for i, r := range items {
		var it filterItem
		if r[0] != '{' || json.Unmarshal(r, &it) != nil {
			return productFilter{}, paramError(fmt.Sprintf("filter[%d]", i), "must be a FilterItem {key, operator, value}")
		}
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(r, &fields)
		for _, name := range []string{"key", "operator", "value"} {
			if _, ok := fields[name]; !ok {
				return productFilter{}, paramError(fmt.Sprintf("filter[%d].%s", i, name), name+" is required")
			}
		}
		if !slices.Contains(filterOperators, it.Operator) {
			return productFilter{}, paramError(fmt.Sprintf("filter[%d].operator", i), "operator must be one of the published operators")
		}
		if len(it.Value) > maxFilterValues {
			return productFilter{}, paramError(fmt.Sprintf("filter[%d].value", i), fmt.Sprintf("at most %d values", maxFilterValues))
		}
		if !slices.Contains(sellerSKUKeys, it.Key) || (it.Operator != "IN" && it.Operator != "EQ") {
			continue // not a key the marketplace knows: ignored, selects everything
		}
		set := make(map[string]bool, len(it.Value))
		for _, v := range it.Value {
			set[v] = true
		}
		f.sets = append(f.sets, set)
	}
	return f, nil
}

// itemNotApproved is the item error of an activation moderation does not
// allow.
const itemNotApproved = 422

// lamodaUpdateError is an item error of the filtered writes.
type lamodaUpdateError struct {
	Code      int      `json:"code"`
	LamodaSKU string   `json:"lamodaSku"`
	Messages  []string `json:"messages"`
}

type lamodaUpdateResult struct {
	Errors []lamodaUpdateError `json:"errors"`
}

// lamodaUpdateStock sets the stock of every product the filter selects:
// the whole quantity at the seller's first warehouse, none at the others
// (the marketplace keeps one stock per product; the list sums them).
func (s *Sandbox) lamodaUpdateStock(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	f, e := filterParam(params, true)
	if e != nil {
		return nil, e
	}
	stock, e := intParam(params, "stock", true, 0, 0, 1<<31-1)
	if e != nil {
		return nil, e
	}
	now := s.Now()
	res := lamodaUpdateResult{Errors: []lamodaUpdateError{}}
	written := 0
	s.mu.Lock()
	sd := s.sellers[p.sellerID]
	for _, prod := range sd.products {
		if !f.selects(prod) {
			continue
		}
		if stock > lamodaMaxStock {
			res.Errors = append(res.Errors, lamodaUpdateError{Code: itemInvalid, LamodaSKU: prod.sku,
				Messages: []string{fmt.Sprintf("stock %d is above the limit of %d", stock, lamodaMaxStock)}})
			continue
		}
		for i, wh := range sd.warehouses {
			rec := sd.recordByKey[recordKey(wh, prod.barcode)]
			if rec == nil {
				continue
			}
			rec.quantity = 0
			if i == 0 {
				rec.quantity = int(stock)
			}
			rec.updatedAt = now
		}
		written++
	}
	s.mu.Unlock()
	s.counters.wrote(WrittenStock, written)
	return res, nil
}

// lamodaUpdateActivation activates or deactivates every product the filter
// selects, at every warehouse. A product moderation rejected or has not
// approved yet cannot be activated: it is refused on its own (the
// contract's moderation rule).
func (s *Sandbox) lamodaUpdateActivation(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	if e := countryParam(params); e != nil {
		return nil, e
	}
	f, e := filterParam(params, true)
	if e != nil {
		return nil, e
	}
	var active bool
	raw, ok := params["active"]
	if ok && (isNull(raw) || json.Unmarshal(raw, &active) != nil) {
		return nil, paramError("active", "active must be a boolean")
	}
	status := "disabled"
	if active {
		status = "online"
	}
	now := s.Now()
	res := lamodaUpdateResult{Errors: []lamodaUpdateError{}}
	written := 0
	s.mu.Lock()
	sd := s.sellers[p.sellerID]
	for _, prod := range sd.products {
		if !f.selects(prod) {
			continue
		}
		var recs []*record
		refused := ""
		for _, wh := range sd.warehouses {
			rec := sd.recordByKey[recordKey(wh, prod.barcode)]
			if rec == nil {
				continue
			}
			if active && (rec.status == "rejected" || rec.status == "in_moderation") {
				refused = "moderation has not approved this product: it cannot be activated"
			}
			recs = append(recs, rec)
		}
		if refused != "" {
			res.Errors = append(res.Errors, lamodaUpdateError{Code: itemNotApproved, LamodaSKU: prod.sku, Messages: []string{refused}})
			continue
		}
		for _, rec := range recs {
			rec.status, rec.updatedAt = status, now
		}
		written++
	}
	s.mu.Unlock()
	s.counters.wrote(WrittenActivation, written)
	return res, nil
}
