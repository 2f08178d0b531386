// Package apiclient is a typed Go client for the marketplace's three
// interfaces: the B2B platform API (REST), the seller JSON-RPC API and the
// seller REST API.
//
// # Shape
//
// A [Client] is the shared core: one [http.Client] with timeouts and pooled
// connections, a user agent, a fresh X-Request-ID per request, bounded body
// reads, and one coordinator that collapses concurrent token refreshes. It
// lives as long as the program. An [Account] binds one credential pair to
// the client and is cheap to create (for example per dashboard request, with
// the session's [TokenStore]). Its services are one per interface:
//
//   - [B2BService]: orders, notification resend, gift certificates;
//   - [SellerService]: nomenclature list, mass update, prices (JSON-RPC);
//   - [ReturnBoxesService]: return boxes (seller REST).
//
// Every method takes a context first and returns typed values. Paged lists
// also have iterators ([B2BService.AllOrders], [SellerService.AllNomenclatures],
// [ReturnBoxesService.All]) that fetch pages lazily.
//
// # Wire profiles
//
// [Options].Profile chooses, once, which shapes go on the wire:
// [ProfileContract] (the interface contract and the project's field notes,
// the default) or [ProfileLamoda] (the marketplace's own published shapes).
// The public types are the same in both; each profile is its own small wire
// layer (wire_contract_*.go, wire_lamoda_*.go), and the few differences a
// screen must know are asked of the client: [Client.PricesByCard] (prices
// per product card, [PriceUpdate].ParentSKU) and [Client.StockUpdates]
// (false where the marketplace's shape is not established: the call returns
// a [*NotSupportedError] and sends nothing). docs/CONTRACTS.md lists every
// shape with its sources and confidence.
//
// # Liberal reading
//
// Identifiers are read as JSON strings or numbers, timestamps in every form
// seen in the wild ([ParseTimestamp]), null as absent. A record of a list
// that still cannot be read is left out and counted (Skipped, SkipReason on
// the list, and [WithSkips] across calls), never a failed page.
//
// # Tokens
//
// One credential pair yields two tokens: the B2B token of the pair's
// [Environment] and the seller token (also used by the seller REST API).
// Tokens are cached in the [TokenStore] under a [TokenKey] that holds a
// fingerprint of the secret, never the secret, and are refreshed at
// [Token.RefreshAt], 80 % into their lifetime. The lifetime is the stated
// expires_in when it is between 1 s and 24 h (else [ShortTokenLifetime]),
// shortened by the JWT's own exp when that is earlier. Concurrent refreshes
// of one key collapse into one call; a store that implements
// [TokenRefreshLocker] also serialises refreshes across processes. On a 401
// answer the client obtains one new token and retries once; a second 401 is
// returned as an error matching [ErrUnauthorized]. [Account.Login] obtains
// both tokens at once and reports rejected credentials as a
// [*CredentialsError].
//
// # Retries
//
// 429 and 503 answers are retried after 1 s, 2 s, 4 s, ... capped at 60 s
// (spec §8). A Retry-After header (seconds or HTTP date) can lengthen a wait,
// never shorten it. The total wait of one call is bounded by its context and
// by a budget ([Options.RetryBudget], default 30 s; [WithRetryBudget] per
// call, 0 disables retries); when the next wait would exceed either, the
// call returns a [*RateLimitError] whose RetryAt says when to try again.
// Reads and token requests retry; the mass updates (store, set-prices) retry
// only on 429 and 503, because those answers mean the request was refused
// before it was processed. A write whose outcome is unknown (timeout or
// connection reset after the request was sent, a gateway error, an
// unreadable answer) is never replayed: its error matches
// [ErrOutcomeUnknown]. Resending notifications is never retried
// automatically. [WithRetryObserver] reports each wait, for progress UIs.
//
// # Errors
//
// Each error body of the spec has a type: [*B2BError],
// [*GiftCertificateError], [*RPCError] and [*RESTError]. Each matches the
// sentinel of its status or code with [errors.Is]: [ErrUnauthorized],
// [ErrForbidden], [ErrNotFound], [ErrRateLimited], [ErrUnavailable],
// [ErrValidation]. Answers that cannot be understood (HTML pages, wrong
// content types, invalid, truncated, empty or oversized bodies, JSON-RPC
// answers with a foreign id) are [*UnexpectedResponseError]s matching
// [ErrUnexpectedResponse]; they never quote the body. [FieldErrors] extracts
// field-level details for forms. Every error carries the request id where
// one was sent. No error string or log line contains the client secret or a
// token: known secrets are scrubbed from every answer before it is decoded,
// and [Credentials], [Token] and [Account] print redacted.
//
// Item-level failures of mass updates are data ([UpdateResult.Errors]), not
// errors.
//
// # Money
//
// [Money] is an exact amount in kopecks. It decodes JSON numbers and decimal
// strings, encodes numbers with two decimals, and [ParseMoney] validates
// user input with errors ready for a form.
package apiclient
