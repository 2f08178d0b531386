package apiclient

import (
	"context"
	"slices"
)

// FilterItem selects nomenclature records in the lamoda profile's filtered
// methods (v1.nomenclatures.list, update-stock, update-activation): the
// published {key, operator, value[]}. The Swagger enumerates the operators
// but not the keys; see docs/CONTRACTS.md for the key the dashboard sends.
type FilterItem struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Value    []string `json:"value"`
}

// Filter operators (the Swagger's FilterItem.operator enum).
const (
	FilterIn = "IN"
	FilterEq = "EQ"
)

// filterOperators is the Swagger's enum of FilterItem.operator.
var filterOperators = []string{"BETWEEN", "NOT_EQ", "GREATER_OR_EQ", "LESS_OR_EQ", "LIKE", "ILIKE", FilterIn, FilterEq, "GREATER", "LESS"}

// MaxFilterValues bounds the values of one FilterItem the client sends.
const MaxFilterValues = 1000

// UpdateStockRequest are the params of v1.nomenclatures.update-stock: one
// stock quantity for every record the filter selects.
type UpdateStockRequest struct {
	Filter []FilterItem
	Stock  int
}

// UpdateActivationRequest are the params of
// v1.nomenclatures.update-activation: activate (or deactivate) every
// record the filter selects, in the client's country.
type UpdateActivationRequest struct {
	Filter []FilterItem
	Active bool
}

// checkFilter refuses a filter that would select more than was meant: an
// empty filter (everything), an item without its key, an operator the
// Swagger does not list, or a list of values empty or beyond
// MaxFilterValues.
func checkFilter(op string, filter []FilterItem) error {
	var fields []FieldError
	if len(filter) == 0 {
		fields = append(fields, FieldError{Field: "filter", Message: "a filter is required: without one every record is selected"})
	}
	for _, f := range filter {
		switch {
		case f.Key == "":
			fields = append(fields, FieldError{Field: "filter.key", Message: "every filter item needs its key"})
		case !slices.Contains(filterOperators, f.Operator):
			fields = append(fields, FieldError{Field: "filter.operator", Message: "not an operator the marketplace publishes"})
		case len(f.Value) == 0 || len(f.Value) > MaxFilterValues:
			fields = append(fields, FieldError{Field: "filter.value", Message: "between 1 and 1000 values"})
		}
	}
	if len(fields) > 0 {
		return &RequestError{Op: "seller rpc " + op, Fields: fields}
	}
	return nil
}

// UpdateStock sets one stock quantity for every record the filter selects
// (v1.nomenclatures.update-stock, lamoda profile). Item failures are in the
// result, keyed by the marketplace's SKU (ItemError.MarketplaceSKU). The
// filter is checked before anything is sent (*RequestError); in the
// contract profile nothing is sent (*NotSupportedError). Retries as
// SetPrices: a failure after sending matches ErrOutcomeUnknown.
func (s *SellerService) UpdateStock(ctx context.Context, req *UpdateStockRequest) (*UpdateResult, error) {
	if req == nil {
		req = &UpdateStockRequest{}
	}
	params, out, err := s.a.c.wire.rpc.updateStockCall(req)
	if err != nil {
		return nil, err
	}
	if err := s.call(ctx, methodUpdateStock, params, retryUnprocessed, out); err != nil {
		return nil, err
	}
	return out.result(), nil
}

// UpdateActivation activates or deactivates every record the filter
// selects (v1.nomenclatures.update-activation, lamoda profile), in the
// client's country. Checked and retried as UpdateStock.
func (s *SellerService) UpdateActivation(ctx context.Context, req *UpdateActivationRequest) (*UpdateResult, error) {
	if req == nil {
		req = &UpdateActivationRequest{}
	}
	params, out, err := s.a.c.wire.rpc.updateActivationCall(req)
	if err != nil {
		return nil, err
	}
	if err := s.call(ctx, methodUpdateActivation, params, retryUnprocessed, out); err != nil {
		return nil, err
	}
	return out.result(), nil
}

// The lamoda profile's filtered writes.
const (
	methodUpdateStock      = "v1.nomenclatures.update-stock"
	methodUpdateActivation = "v1.nomenclatures.update-activation"
)

// FilterWrites reports whether stock and status are written through
// UpdateStock and UpdateActivation, selected by a filter (the lamoda
// profile), rather than through StoreNomenclatures.
func (c *Client) FilterWrites() bool { return c.wire.profile == ProfileLamoda }
