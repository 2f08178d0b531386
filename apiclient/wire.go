package apiclient

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Profile names a wire profile: which request and answer shapes the client
// speaks. The public types of this package are the same in every profile;
// each profile is its own small wire layer (wire_<profile>_<interface>.go),
// chosen once when the Client is built.
type Profile string

// Wire profiles.
const (
	// ProfileContract follows the interface contract and the project's
	// field notes: exactly the shapes the dashboard has always spoken.
	ProfileContract Profile = "contract"
	// ProfileLamoda follows the marketplace's own published shapes: its
	// seller gateway's Swagger and its B2B clients (sources and confidence
	// per operation in docs/CONTRACTS.md).
	ProfileLamoda Profile = "lamoda"
)

// DefaultCountry is the country sent where the lamoda profile needs one.
const DefaultCountry = "RU"

// countries the lamoda profile accepts (the Swagger's Country enum).
var countries = []string{"RU", "BY", "KZ", "UA"}

// ErrNotSupported means the operation is not available in the client's wire
// profile, because the marketplace's shape for it could not be established
// from the sources; nothing was sent. The *NotSupportedError says which.
var ErrNotSupported = errors.New("apiclient: not supported in this wire profile")

// NotSupportedError reports an operation the wire profile does not send.
// It matches ErrNotSupported.
type NotSupportedError struct {
	Profile   Profile
	Operation string // e.g. "v1.nomenclatures.store"
	Reason    string // why the shape is not established
}

// Error says which operation and why.
func (e *NotSupportedError) Error() string {
	return fmt.Sprintf("apiclient: %s is not supported in the %s profile: %s", e.Operation, e.Profile, e.Reason)
}

// Is matches ErrNotSupported.
func (e *NotSupportedError) Is(target error) bool { return target == ErrNotSupported }

// wire is one profile's wire layer, per interface.
type wire struct {
	profile Profile
	country string
	b2b     b2bWire
	rpc     rpcWire
	rest    restWire
}

// b2bWire shapes the B2B platform API (REST) requests that differ by
// profile. Order lists are read alike in both (HAL, liberal reading).
type b2bWire interface {
	// tokenRequest returns how the B2B token of creds is requested at
	// base: method, URL and body (nil for none).
	tokenRequest(base *url.URL, creds *Credentials) (method, target string, body []byte)
	// ordersQuery returns the query of an order list.
	ordersQuery(opts *ListOrdersOptions) url.Values
}

// rpcWire shapes the seller JSON-RPC API: where each method is called, its
// params, and the answer it is decoded into.
type rpcWire interface {
	// path returns where method is called, below SellerBaseURL.
	path(method string) string
	// tokenCall returns the params of v1.tokens.create and the value its
	// result is decoded into.
	tokenCall(creds *Credentials) (params any, result tokenAnswer)
	// listCall returns the params of v1.nomenclatures.list and the value
	// its result is decoded into.
	listCall(req *ListNomenclaturesRequest) (params any, result nomenclatureAnswer)
	// storeCall returns the method, params and result value of a stock and
	// status update, or a *NotSupportedError.
	storeCall(req *StoreRequest) (method string, params any, result updateAnswer, err error)
	// setPricesCall returns the params and result value of
	// v1.nomenclatures.set-prices, or an error for a request the profile
	// cannot express (nothing is sent).
	setPricesCall(req *SetPricesRequest) (params any, result updateAnswer, err error)
	// updateStockCall and updateActivationCall return the params and
	// result value of the filtered writes, or an error when the profile
	// does not send them or the filter is refused (nothing is sent).
	updateStockCall(req *UpdateStockRequest) (params any, result updateAnswer, err error)
	updateActivationCall(req *UpdateActivationRequest) (params any, result updateAnswer, err error)
}

// restWire shapes the seller REST API's return boxes.
type restWire interface {
	returnBoxesQuery(opts *ListReturnBoxesOptions) url.Values
	returnBoxesAnswer() returnBoxAnswer
}

// tokenAnswer is a decoded token result of either profile.
type tokenAnswer interface{ token() tokenResponse }

// nomenclatureAnswer is a decoded nomenclature list of either profile.
type nomenclatureAnswer interface {
	list(req *ListNomenclaturesRequest) *NomenclatureList
}

// updateAnswer is a decoded mass-update result of either profile.
type updateAnswer interface{ result() *UpdateResult }

// returnBoxAnswer is a decoded return box list of either profile.
type returnBoxAnswer interface{ list() *ReturnBoxList }

// newWire returns the wire layer of profile p ("" = contract).
func newWire(p Profile, country string) (wire, error) {
	switch p {
	case ProfileContract, "":
		return wire{profile: ProfileContract, b2b: contractB2B{}, rpc: contractRPC{}, rest: contractREST{}}, nil
	case ProfileLamoda:
		if country == "" {
			country = DefaultCountry
		}
		country = strings.ToUpper(country)
		valid := false
		for _, c := range countries {
			valid = valid || c == country
		}
		if !valid {
			return wire{}, fmt.Errorf("apiclient: Country must be one of %s", strings.Join(countries, ", "))
		}
		return wire{profile: ProfileLamoda, country: country,
			b2b: lamodaB2B{}, rpc: lamodaRPC{country: country}, rest: lamodaREST{}}, nil
	}
	return wire{}, fmt.Errorf("apiclient: unknown Profile %q (want %q or %q)", string(p), ProfileContract, ProfileLamoda)
}

// Profile returns the client's wire profile.
func (c *Client) Profile() Profile { return c.wire.profile }

// Country returns the country the lamoda profile sends ("" in the contract
// profile, which has none).
func (c *Client) Country() string { return c.wire.country }

// PricesByCard reports whether prices are set per product card (the
// lamoda profile: one price per parent SKU, PriceUpdate.ParentSKU
// required, sizes share it) rather than per marketplace SKU.
func (c *Client) PricesByCard() bool { return c.wire.profile == ProfileLamoda }

// StockUpdates reports whether StoreNomenclatures is available. In the
// lamoda profile it is not (it returns a *NotSupportedError): stock and
// status go through UpdateStock and UpdateActivation there (FilterWrites).
func (c *Client) StockUpdates() bool { return c.wire.profile != ProfileLamoda }

// RequestError reports a request the client refused to send because the
// wire profile cannot express it as given (a required value is missing).
// Nothing was sent. It matches ErrValidation; FieldErrors returns Fields.
type RequestError struct {
	Op     string
	Fields []FieldError
}

// Error names the operation and the first problem.
func (e *RequestError) Error() string {
	msg := "apiclient: " + e.Op + ": not sent"
	if len(e.Fields) > 0 {
		msg += ": " + e.Fields[0].Field + ": " + e.Fields[0].Message
	}
	return msg
}

// Is matches ErrValidation.
func (e *RequestError) Is(target error) bool { return target == ErrValidation }
