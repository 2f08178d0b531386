// Package sandbox is an in-process, stateful and deterministic emulator of the
// marketplace's three interfaces: the B2B platform API (REST, production and
// test environments), the seller JSON-RPC API and the seller REST API.
//
// A *Sandbox is an http.Handler. Tests mount it on an httptest.Server (or call
// ServeHTTP directly); cmd/sandbox serves it on a port. All data derives from
// Options.Seed and all times from Options.Start plus Advance, so two sandboxes
// built with the same options answer the same requests identically.
//
// # URL layout (one origin)
//
//	B2B production   POST|GET /auth/token, GET /api/v1/orders,
//	                 POST /api/v1/notifications/resend,
//	                 GET /api/v1/gift-certificates/{code}
//	B2B test         the same under /test
//	Seller JSON-RPC  POST /jsonrpc, POST /jsonrpc/v1/tokens.create
//	Seller REST      GET /api/v2/fbs/return-boxes, GET /api/v2/fbs/return-boxes/{code}
//	Admin            /_sandbox/... (Options.Admin only)
//
// Unknown paths answer 404 in the B2B body, except under /api/v2/ (seller REST
// body) and /jsonrpc/ (JSON-RPC body). A known path with the wrong method
// answers 405 with an Allow header, in the interface's body. An X-Request-ID
// header (1..128 printable ASCII characters) is echoed in the answer.
//
// # Tokens
//
// Tokens are HS256 JWTs with the claims sub (client id), seller_id, iat, exp,
// jti, iss and env ("b2b/production", "b2b/test" or "seller"). Each env is a
// separate token store: a token is only accepted where it was issued, and the
// seller REST API accepts the seller (JSON-RPC) token. Missing header, any
// prefix but "Bearer " with one space, a garbled, forged or unsigned token, a
// token of another environment or sandbox, a revoked and an expired token are
// all 401 in the interface's own error shape (JSON-RPC: business error 401 in
// HTTP 200, data.reason says why).
//
// # House rules for what the specification leaves unshown
//
// Lists (orders, nomenclatures, return boxes): page >= 1 (default 1, at most
// 1000000), limit 1..100 (default 20); a page past the end is an empty list.
// Orders are newest first; nomenclature records go product by product, one
// record per warehouse; return boxes are newest first.
//
// v1.nomenclatures.store: params {seller_id, items: [{warehouse_code, barcode,
// quantity?, status?}]}, 1..1000 items. Structural problems (missing or
// non-string keys, a non-object item) are -32602 naming the param, e.g.
// "items[3].barcode". Item errors (shape A, code + message):
//
//	403 warehouse X does not belong to seller N
//	404 nomenclature not found: warehouse X, barcode Y
//	400 quantity must be a non-negative integer | quantity must not exceed 1000000 |
//	    status must be one of online, in_moderation, rejected, disabled |
//	    nothing to update: give quantity or status   (several joined by "; ")
//
// v1.nomenclatures.set-prices: params {prices: [{marketplaceSku, price,
// salePrice?, saleStartDate?, saleEndDate?}], seller_id?}; the token names the
// seller. Prices are JSON numbers in roubles. Item errors (shape B, code +
// messages, every problem of the item listed):
//
//	404 product SKU not found (also for another seller's SKU)
//	400 price is required | price must be a number | price must be greater than 0 |
//	    price must have at most 2 decimal places | price must not exceed 99999999.99 |
//	    price is out of range (exponent) | the same for salePrice |
//	    salePrice must not exceed price | saleStartDate/saleEndDate must be a date
//	    in YYYY-MM-DD format | saleEndDate must not be before saleStartDate
//	422 price P is more than 90% below the current price C (also for salePrice)
//
// An item is applied completely or not at all; the other items of the request
// are applied. Without salePrice the sale price becomes the price. With
// Options.PriceApplyDelay the change shows priceUpdateStatus PROCESSING (old
// prices) until the clock passes the delay, then OK with the new prices.
//
// Resend: {orderNrs: [1..100 strings], types?: [statusChanged,
// itemStatusChanged, fulfilmentShipmentStatusChanged]} (no types = all). An
// unknown order is 404, another seller's order 403, a notification still
// processing 429 (nothing queued); otherwise 202 and every pair stays
// "processing" for Options.ResendProcessing of sandbox time.
package sandbox
