package apiclient

// The contract profile's seller JSON-RPC API: spec §4.2 and the field
// notes. Every method is called at the JSON-RPC root; params and results
// use the contract's names, which the public request and result types
// carry as their JSON tags (so the contract's JSON is exactly what it has
// always been).

// contractRPC is the contract profile's JSON-RPC wire layer.
type contractRPC struct{}

// path: every method at the root, "/jsonrpc".
func (contractRPC) path(string) string { return "/jsonrpc" }

// contractTokenResult is the snake_case result of v1.tokens.create.
type contractTokenResult tokenResponse

func (r *contractTokenResult) token() tokenResponse { return tokenResponse(*r) }

func (contractRPC) tokenCall(creds *Credentials) (any, tokenAnswer) {
	return contractTokenParams{ClientID: creds.ClientID, ClientSecret: creds.ClientSecret, GrantType: "client_credentials"},
		&contractTokenResult{}
}

// nomenclatureListWire is the result of v1.nomenclatures.list:
// {page, limit, pages, total, nomenclatures: [record]}.
type nomenclatureListWire struct {
	Page          int                      `json:"page"`
	Limit         int                      `json:"limit"`
	Pages         int                      `json:"pages"`
	Total         int                      `json:"total"`
	Nomenclatures recordList[Nomenclature] `json:"nomenclatures"`
}

func (w *nomenclatureListWire) list(*ListNomenclaturesRequest) *NomenclatureList {
	return &NomenclatureList{Page: w.Page, Limit: w.Limit, Pages: w.Pages, Total: w.Total, Nomenclatures: w.Nomenclatures.items,
		Skipped: w.Nomenclatures.skipped, SkipReason: w.Nomenclatures.reason}
}

// listCall: params {seller_id, page, limit}.
func (contractRPC) listCall(req *ListNomenclaturesRequest) (any, nomenclatureAnswer) {
	return req, &nomenclatureListWire{}
}

// result: the contract's update result is the public type itself (its
// item errors read shape A or B).
func (r *UpdateResult) result() *UpdateResult { return r }

// storeCall: v1.nomenclatures.store with {seller_id, items}.
func (contractRPC) storeCall(req *StoreRequest) (string, any, updateAnswer, error) {
	return "v1.nomenclatures.store", req, &UpdateResult{}, nil
}

// setPricesCall: {prices: [{marketplaceSku, price, salePrice?,
// saleStartDate?, saleEndDate?}]}. SellerID and Force have no place in the
// contract and are not sent.
func (contractRPC) setPricesCall(req *SetPricesRequest) (any, updateAnswer, error) {
	return req, &UpdateResult{}, nil
}

// updateStockCall: not sent. The contract writes stock and status per
// record with v1.nomenclatures.store.
func (contractRPC) updateStockCall(*UpdateStockRequest) (any, updateAnswer, error) {
	return nil, nil, &NotSupportedError{Profile: ProfileContract, Operation: methodUpdateStock,
		Reason: "the contract writes stock per record with v1.nomenclatures.store"}
}

// updateActivationCall: not sent, as updateStockCall.
func (contractRPC) updateActivationCall(*UpdateActivationRequest) (any, updateAnswer, error) {
	return nil, nil, &NotSupportedError{Profile: ProfileContract, Operation: methodUpdateActivation,
		Reason: "the contract writes status per record with v1.nomenclatures.store"}
}
