package apiclient_test

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"net/http"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// The assignments below fail to compile if the public API drifts from
// docs/CONTRACTS.md, which the dashboard is written against.
var (
	_ func(apiclient.Options) (*apiclient.Client, error)                                                                            = apiclient.New
	_ func(*apiclient.Client, apiclient.Credentials, apiclient.TokenStore) *apiclient.Account                                       = (*apiclient.Client).Account
	_ func(*apiclient.Account, context.Context) error                                                                               = (*apiclient.Account).Login
	_ *apiclient.B2BService                                                                                                         = apiclient.Account{}.B2B
	_ *apiclient.SellerService                                                                                                      = apiclient.Account{}.Seller
	_ *apiclient.ReturnBoxesService                                                                                                 = apiclient.Account{}.ReturnBoxes
	_ func(*apiclient.B2BService, context.Context, *apiclient.ListOrdersOptions) (*apiclient.OrderList, error)                      = (*apiclient.B2BService).ListOrders
	_ func(*apiclient.B2BService, context.Context, *apiclient.ListOrdersOptions) iter.Seq2[apiclient.Order, error]                  = (*apiclient.B2BService).AllOrders
	_ func(*apiclient.B2BService, context.Context, *apiclient.ResendRequest) (*apiclient.ResendResult, error)                       = (*apiclient.B2BService).ResendNotifications
	_ func(*apiclient.B2BService, context.Context, string) (*apiclient.GiftCertificate, error)                                      = (*apiclient.B2BService).GiftCertificate
	_ func(*apiclient.SellerService, context.Context, *apiclient.ListNomenclaturesRequest) (*apiclient.NomenclatureList, error)     = (*apiclient.SellerService).ListNomenclatures
	_ func(*apiclient.SellerService, context.Context, *apiclient.ListNomenclaturesRequest) iter.Seq2[apiclient.Nomenclature, error] = (*apiclient.SellerService).AllNomenclatures
	_ func(*apiclient.SellerService, context.Context, *apiclient.StoreRequest) (*apiclient.UpdateResult, error)                     = (*apiclient.SellerService).StoreNomenclatures
	_ func(*apiclient.SellerService, context.Context, *apiclient.SetPricesRequest) (*apiclient.UpdateResult, error)                 = (*apiclient.SellerService).SetPrices
	_ func(*apiclient.ReturnBoxesService, context.Context, *apiclient.ListReturnBoxesOptions) (*apiclient.ReturnBoxList, error)     = (*apiclient.ReturnBoxesService).List
	_ func(*apiclient.ReturnBoxesService, context.Context, *apiclient.ListReturnBoxesOptions) iter.Seq2[apiclient.ReturnBox, error] = (*apiclient.ReturnBoxesService).All
	_ func(apiclient.Token) time.Time                                                                                               = apiclient.Token.RefreshAt
	_ func() apiclient.TokenStore                                                                                                   = apiclient.NewMemoryTokenStore
	_ func(error) []apiclient.FieldError                                                                                            = apiclient.FieldErrors
	_ func(context.Context, time.Duration) context.Context                                                                          = apiclient.WithRetryBudget
	_ func(context.Context, func(apiclient.RetryEvent)) context.Context                                                             = apiclient.WithRetryObserver
	_ slog.LogValuer                                                                                                                = apiclient.Credentials{}
	_ slog.LogValuer                                                                                                                = apiclient.Token{}

	_ = apiclient.Options{B2BBaseURL: "", B2BTestBaseURL: "", SellerBaseURL: "", HTTPClient: (*http.Client)(nil),
		UserAgent: "", Logger: (*slog.Logger)(nil), Now: time.Now, RetryBudget: time.Second, Store: apiclient.TokenStore(nil)}
	_ = apiclient.Credentials{ClientID: "", ClientSecret: "", Environment: apiclient.Production}
	_ = []apiclient.Environment{apiclient.Production, apiclient.Test}
	_ = apiclient.ListOrdersOptions{Page: 1, Limit: 1, Status: ""}
	_ = apiclient.ResendRequest{OrderNrs: []string{}, Types: []string{}}
	_ = apiclient.ListNomenclaturesRequest{SellerID: int64(1), Page: 1, Limit: 1}
	_ = apiclient.StoreRequest{SellerID: int64(1), Items: []apiclient.StoreItem{{WarehouseCode: "", Barcode: "", Quantity: (*int)(nil), Status: ""}}}
	_ = apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: "", Price: apiclient.Money(1), SalePrice: (*apiclient.Money)(nil), SaleStartDate: "", SaleEndDate: ""}}}
	_ = apiclient.ListReturnBoxesOptions{SellerID: int64(1), Page: 1, Limit: 1, Status: ""}
	_ = apiclient.OrderList{Page: 1, Limit: 1, Pages: 1, Total: 1, Orders: []apiclient.Order{}}
	_ = apiclient.Order{ID: apiclient.OrderID("1"), OrderNr: "", Status: "", PaymentMethod: "", Currency: "", FullSum: apiclient.Money(0), DeliveryPrice: apiclient.Money(0),
		CreatedAt: time.Time{}, UpdatedAt: time.Time{}, IsConfirmed: true, ItemQuantity: 1, Items: []apiclient.OrderItem{}}
	_ = apiclient.OrderItem{ID: apiclient.OrderItemID("1"), SKU: "", MarketplaceSKU: "", Description: "", Size: "", Status: "", SalePrice: apiclient.Money(0), PaidPrice: apiclient.Money(0)}
	_ = apiclient.ResendResult{Queued: 1, Notifications: []apiclient.Notification{{ID: "", OrderNr: "", Type: "", Status: ""}}}
	_ = apiclient.NomenclatureList{Page: 1, Limit: 1, Pages: 1, Total: 1, Nomenclatures: []apiclient.Nomenclature{}}
	_ = apiclient.Nomenclature{SellerID: int64(1), WarehouseCode: "", Barcode: "", MarketplaceSKU: "", SellerSKU: "", Name: "", Brand: "", Size: "",
		Price: apiclient.Money(0), SalePrice: apiclient.Money(0), Quantity: 1, Status: "", PriceUpdateStatus: "", UpdatedAt: time.Time{}}
	_                              = apiclient.UpdateResult{Updated: 1, ErrorCount: 1, Errors: []apiclient.ItemError{{WarehouseCode: "", Barcode: "", MarketplaceSKU: "", Code: 1, Messages: []string{}}}}
	_                              = apiclient.ReturnBoxList{Page: 1, Limit: 1, Pages: 1, Total: 1, Boxes: []apiclient.ReturnBox{}}
	_                              = apiclient.ReturnBox{Code: "", Status: "", DimensionSymbol: "", ItemQuantity: 1, CreatedAt: time.Time{}, UpdatedAt: time.Time{}, ShippedAt: (*time.Time)(nil)}
	_                              = []apiclient.TokenKind{apiclient.TokenKind("b2b"), apiclient.TokenKind("seller")}
	_                              = apiclient.TokenKey{ClientID: "", Fingerprint: "", Environment: apiclient.Test, Kind: apiclient.KindB2B}
	_                              = apiclient.Token{AccessToken: "", RefreshToken: "", IssuedAt: time.Time{}, ExpiresAt: time.Time{}}
	_ apiclient.TokenRefreshLocker = (*lockingStore)(nil)
	_                              = []error{apiclient.ErrUnauthorized, apiclient.ErrForbidden, apiclient.ErrNotFound, apiclient.ErrRateLimited, apiclient.ErrUnavailable,
		apiclient.ErrValidation, apiclient.ErrUnexpectedResponse, apiclient.ErrOutcomeUnknown}
	_ error = &apiclient.B2BError{Status: 1, Code: 1, Description: "", Message: "", Errors: []apiclient.FieldError{{Field: "", Message: ""}}, RequestID: ""}
	_ error = &apiclient.GiftCertificateError{Status: 1, Code: 1, Message: "", Description: "", Errors: []string{}}
	_ error = &apiclient.RPCError{Code: 1, Message: "", Data: json.RawMessage(nil)}
	_ error = &apiclient.RESTError{Status: 1, Code: "", Message: "", Details: []apiclient.RESTErrorDetail{{Field: "", Issue: ""}}}
	_ error = &apiclient.RateLimitError{RetryAt: time.Time{}, Attempts: 1}
	_       = apiclient.RetryEvent{Attempt: 1, Wait: time.Second, Status: 429}
	_       = apiclient.Money(0).String

	// Wire profiles.
	_                                           = apiclient.Options{Profile: apiclient.ProfileLamoda, Country: apiclient.DefaultCountry}
	_                                           = []apiclient.Profile{apiclient.ProfileContract, apiclient.ProfileLamoda}
	_ func(*apiclient.Client) apiclient.Profile = (*apiclient.Client).Profile
	_ func(*apiclient.Client) string            = (*apiclient.Client).Country
	_ func(*apiclient.Client) bool              = (*apiclient.Client).PricesByCard
	_ func(*apiclient.Client) bool              = (*apiclient.Client).StockUpdates
	_ error                                     = &apiclient.NotSupportedError{Profile: apiclient.ProfileLamoda, Operation: "", Reason: ""}
	_ error                                     = &apiclient.RequestError{Op: "", Fields: []apiclient.FieldError{}}
	_                                           = []error{apiclient.ErrNotSupported}
	_                                           = apiclient.SetPricesRequest{Prices: nil, SellerID: 1, Force: false}
	_                                           = apiclient.PriceUpdate{ParentSKU: ""}
	_                                           = apiclient.UpdateResult{FraudValidations: []apiclient.FraudValidation{{ParentSKU: "", ChangedValue: "", Status: "", Promotions: json.RawMessage(nil)}}}
	_                                           = apiclient.ItemError{ParentSKU: ""}
	_                                           = apiclient.Nomenclature{ParentSKU: ""}

	// Liberal reading.
	_ func(string) (time.Time, error)                         = apiclient.ParseTimestamp
	_ func(context.Context, *apiclient.Skips) context.Context = apiclient.WithSkips
	_                                                         = apiclient.OrderList{Skipped: 1, SkipReason: "", RequestID: ""}
)
