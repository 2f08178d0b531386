package massupdate

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// State is what became of one submitted row.
type State string

// The states of a row after a mass update.
const (
	Accepted State = "accepted"
	Rejected State = "rejected"
	Unknown  State = "unknown" // sent, no answer: may or may not have been applied
	Unsent   State = "unsent"
)

// Outcome is one row's state, with the marketplace's messages when it was
// rejected.
type Outcome struct {
	State    State
	Messages i18n.Msgs
	// Applied, for a row not accepted whole, names the parts of it the
	// marketplace applied (PartQuantity, PartStatus): a stock row's
	// parts are written on their own by the filtered writes.
	Applied []string
}

// Report accounts for every row of a mass update exactly once.
type Report struct {
	Outcomes map[string]Outcome
	Accepted int
	Rejected int
	Unknown  int // sent but unanswered: may or may not have been applied
	Unsent   int
	Stopped  error // why sending stopped early, if it did
	// Unmatched holds item errors keyed in the other shape (a set-prices
	// error by warehouse and barcode, say), for the caller to resolve
	// against the catalogue (see Reject).
	Unmatched map[string]i18n.Msgs
	// Fraud holds the marketplace's price-check findings by product card
	// (the lamoda profile's set-prices answer), never dropped, at most
	// maxFindings a card.
	Fraud map[string][]apiclient.FraudValidation

	// copied says the send already wrote the accepted rows into a copy
	// (SendPatching), copyErr the first error that copy returned.
	copied  bool
	copyErr error
}

// maxFindings bounds the price-check findings kept for one card (a card
// has a few at most).
const maxFindings = 8

// Reject turns an accepted row into a rejected one (an error matched late).
func (r *Report) Reject(key string, msgs i18n.Msgs) {
	o, ok := r.Outcomes[key]
	if !ok {
		return
	}
	switch o.State {
	case Accepted:
		r.Accepted--
		r.Rejected++
	case Unsent, Unknown:
		return
	}
	r.Outcomes[key] = Outcome{State: Rejected, Messages: append(o.Messages, msgs...)}
}

// Complete reports whether every row got an answer and none was refused.
func (r *Report) Complete() bool {
	return r.Rejected == 0 && r.Unknown == 0 && r.Unsent == 0 && len(r.Unmatched) == 0
}

// Note says why sending stopped early and what became of the rest, or
// nothing when it did not stop.
func (r *Report) Note() i18n.Msgs {
	if r.Stopped == nil {
		return nil
	}
	out := []i18n.Msg{i18n.M("mass.stopped_early", map[string]any{"Reason": StopReason(r.Stopped)})}
	if r.Unknown > 0 {
		out = append(out, i18n.M("mass.note_unknown", map[string]any{"Count": r.Unknown}))
	}
	if r.Unsent > 0 {
		out = append(out, i18n.M("mass.note_unsent", map[string]any{"Count": r.Unsent}))
	}
	return i18n.Of(out...)
}

// StopReason says why the marketplace stopped a mass update (the pages
// translate it, format.Message).
func StopReason(err error) i18n.Msgs {
	var rl *apiclient.RateLimitError
	switch {
	case errors.As(err, &rl):
		return i18n.Of(i18n.M("mass.busy_until", map[string]any{"RetryAt": rl.RetryAt.UTC().Format(time.RFC3339)}))
	case errors.Is(err, apiclient.ErrRateLimited), errors.Is(err, apiclient.ErrUnavailable):
		return i18n.Of(i18n.M("mass.busy", nil))
	case errors.Is(err, apiclient.ErrOutcomeUnknown):
		return i18n.Of(i18n.M("mass.no_answer", nil))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return i18n.Of(i18n.M("mass.cancelled", nil))
	default:
		return i18n.Of(i18n.M("mass.refused", nil))
	}
}

// Locker takes a seller's lock, held across every instance that shares it
// (sqldb.DB.LockSeller): one request of the seller in flight at a time.
type Locker interface {
	LockSeller(ctx context.Context, seller int64) (unlock func(), err error)
}

// LockError reports that the per-seller lock could not be taken: its store
// failed.
type LockError struct{ Err error }

func (e *LockError) Error() string { return "massupdate: per-seller lock: " + e.Err.Error() }
func (e *LockError) Unwrap() error { return e.Err }

// DefaultChunkSize is the number of rows one set-prices or store request
// carries when Engine.ChunkSize is zero.
const DefaultChunkSize = 500

// Engine sends mass updates: in chunks, one request at a time per seller.
type Engine struct {
	Locker Locker
	// ChunkSize is how many rows one request carries; 0 means
	// DefaultChunkSize.
	ChunkSize int
	// RetryBudget bounds the wait of one chunk on 429/503 answers; 0 means
	// 60 s.
	RetryBudget time.Duration
	// UpstreamTimeout, added to RetryBudget, bounds one chunk; 0 means 30 s.
	UpstreamTimeout time.Duration
	// StoreFailed reports errors of the caller's own stores (the session's
	// token store, say) met while sending: at a form's first chunk they are
	// returned as they are (like apiclient.ErrUnauthorized), and a job
	// waits and tries again. nil means none.
	StoreFailed func(error) bool
	// FilterKey is the FilterItem key the filtered writes select records
	// by (filter_writes.go); "" means DefaultFilterKey.
	FilterKey string
}

// Size is the chunk size in use.
func (e *Engine) Size() int {
	if e.ChunkSize <= 0 {
		return DefaultChunkSize
	}
	return e.ChunkSize
}

func (e *Engine) retryBudget() time.Duration {
	if e.RetryBudget <= 0 {
		return 60 * time.Second
	}
	return e.RetryBudget
}

func (e *Engine) chunkTimeout() time.Duration {
	t := e.UpstreamTimeout
	if t <= 0 {
		t = 30 * time.Second
	}
	return t + e.retryBudget()
}

// lock takes the seller's lock: one request of the seller in flight at a
// time (spec §8: sequential requests), shared by the forms, the bulk jobs
// and the local copy's sync.
func (e *Engine) lock(ctx context.Context, seller int64) (func(), error) {
	unlock, err := e.Locker.LockSeller(ctx, seller)
	if err != nil {
		return nil, &LockError{Err: err}
	}
	return unlock, nil
}

// Kind is one kind of mass update: how its rows are keyed, how an item
// error names its row, and the call that sends a chunk.
type Kind[T any] struct {
	Name     string // "prices" or "stock", as bulk jobs store it
	Key      func(T) string
	ErrorKey func(apiclient.ItemError) string
	// Aliases, when set, are the other keys an item error may name a row
	// by (a product card's sizes): an error whose ErrorKey is one of them
	// is the row's.
	Aliases func(T) []string
	// Group, when set, keeps rows of different groups out of one chunk
	// (cards sent with force travel in requests of their own).
	Group func(T) string
	Send  func(ctx context.Context, acct *apiclient.Account, seller int64, chunk []T) (*apiclient.UpdateResult, error)
	// Change is a row as the local copy takes it once accepted
	// (PatchCopy).
	Change func(T) copystore.Change
}

// Prices sends price updates through set-prices, keyed by marketplace SKU.
var Prices = Kind[apiclient.PriceUpdate]{
	Name: "prices",
	Key:  func(u apiclient.PriceUpdate) string { return u.MarketplaceSKU },
	ErrorKey: func(e apiclient.ItemError) string {
		if e.MarketplaceSKU != "" {
			return e.MarketplaceSKU
		}
		return e.WarehouseCode + "|" + e.Barcode
	},
	Send: func(ctx context.Context, acct *apiclient.Account, _ int64, chunk []apiclient.PriceUpdate) (*apiclient.UpdateResult, error) {
		return acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: chunk})
	},
	Change: func(u apiclient.PriceUpdate) copystore.Change { return priceChange(u.MarketplaceSKU, u) },
}

// Stock sends quantities and statuses through store, keyed by
// warehouse|barcode.
var Stock = Kind[apiclient.StoreItem]{
	Name: "stock",
	Key:  func(i apiclient.StoreItem) string { return i.WarehouseCode + "|" + i.Barcode },
	ErrorKey: func(e apiclient.ItemError) string {
		if e.WarehouseCode != "" || e.Barcode != "" {
			return e.WarehouseCode + "|" + e.Barcode
		}
		return e.MarketplaceSKU
	},
	Send: func(ctx context.Context, acct *apiclient.Account, seller int64, chunk []apiclient.StoreItem) (*apiclient.UpdateResult, error) {
		return acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: seller, Items: chunk})
	},
	Change: copyStock,
}

// sendChunk sends one chunk and matches its item errors to row keys, once
// for both paths: the marketplace's messages, or a fallback naming the
// code when it gave none. An error naming one of a row's aliases is the
// row's. The answer's price-check findings come back as they are.
func (k Kind[T]) sendChunk(ctx context.Context, acct *apiclient.Account, seller int64, chunk []T) (map[string]i18n.Msgs, []apiclient.FraudValidation, error) {
	res, err := k.Send(ctx, acct, seller, chunk)
	if err != nil {
		return nil, nil, err
	}
	var alias map[string]string
	if k.Aliases != nil {
		alias = map[string]string{}
		for _, it := range chunk {
			key := k.Key(it)
			for _, a := range k.Aliases(it) {
				alias[a] = key
			}
		}
	}
	rejected := map[string]i18n.Msgs{}
	for _, ie := range res.Errors {
		var msgs i18n.Msgs
		switch {
		case len(ie.Messages) > 0:
			msgs = marketMessages(ie.Code, ie.Messages)
		case ie.Name == apiclient.HeldByPriceCheck:
			msgs = i18n.Of(i18n.M("mass.held_by_price_check", nil))
		case ie.Name != "":
			msgs = i18n.Of(i18n.M("mass.rejected_code", map[string]any{"Code": ie.Name}))
		default:
			msgs = marketMessages(ie.Code, nil)
		}
		key := k.ErrorKey(ie)
		if to, ok := alias[key]; ok {
			key = to
		}
		rejected[key] = append(rejected[key], msgs...)
	}
	return rejected, res.FraudValidations, nil
}

// chunks cuts the rows into requests of at most Size rows (and at most
// max, when it is positive), never mixing groups (Kind.Group) in one.
func chunks[T any](e *Engine, kind Kind[T], items []T, max int) [][]T {
	size := e.Size()
	if max > 0 && max < size {
		size = max
	}
	var out [][]T
	start := 0
	for i := range items {
		if i-start == size || (kind.Group != nil && i > start && kind.Group(items[i]) != kind.Group(items[start])) {
			out = append(out, items[start:i])
			start = i
		}
	}
	if start < len(items) {
		out = append(out, items[start:])
	}
	return out
}

// Send sends the rows in chunks, one request at a time for the seller, and
// accounts for every row: accepted, rejected with the marketplace's
// messages, unknown (sent, unanswered) or not sent. A request-level
// failure stops the run. Credentials rejected (or an error
// Engine.StoreFailed names) at the first chunk is returned as the error; so is a *LockError.
//
// alongLast, when not nil, runs in its own goroutine while the last chunk
// is in flight, so that work which does not need the run's outcome (the
// result page's list call) overlaps with that round trip instead of adding
// to it; Send returns only after alongLast has returned. It is started
// only when an earlier chunk already had rows rejected, that is when the
// result page will be shown whatever the last chunk's answer (a run that
// goes through cleanly redirects and needs no list call).
func Send[T any](ctx context.Context, e *Engine, acct *apiclient.Account, seller int64, kind Kind[T], items []T, alongLast func()) (*Report, error) {
	return SendPatching(ctx, e, acct, seller, kind, items, alongLast, CopyAt{})
}

// CopyAt is a local copy and the key of the seller's copy in it, and
// what else is written along a send (SendPatching).
type CopyAt struct {
	Copy Copy
	Key  copystore.Key
	// Log, when set, is told the send's answers as they come (the
	// history's entry written along the send).
	Log ChunkLog
}

// ChunkLog is told, on the goroutine that writes the copy, each answered
// chunk's rows, in the order sent, with their outcomes (after the copy
// took that chunk's accepted rows), before SendPatching returns. Rows not
// answered (unknown, not sent) are not told: the report accounts for
// them once the send has returned. A send that fails (an error, no
// report) tells it nothing.
type ChunkLog interface {
	Chunk(keys []string, outcomes []Outcome)
}

// SendPatching is Send that also writes each chunk's accepted rows into
// the copy to (as PatchCopy would) while the next chunk is in flight, so
// the copy's writes overlap with the marketplace's round trips instead of
// following the last one. It returns once every chunk's rows are written
// (or refused by the copy), before the seller's lock is released. A copy
// that fails does not stop the send: the change was made at the
// marketplace; PatchCopy on the report, in the step that records the
// change, returns the copy's first error and writes nothing again. With
// no copy (to.Copy nil) or a kind without Change it is Send.
func SendPatching[T any](ctx context.Context, e *Engine, acct *apiclient.Account, seller int64, kind Kind[T], items []T, alongLast func(), to CopyAt) (*Report, error) {
	rep := &Report{Outcomes: make(map[string]Outcome, len(items))}
	unlock, err := e.lock(ctx, seller)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var along sync.WaitGroup
	defer along.Wait()
	patch := startPatcher(ctx, to, kind)
	defer patch.wait(rep)
	ctx = apiclient.WithRetryBudget(ctx, e.retryBudget())
	limit := 0
	if kind.Name == Prices.Name {
		limit = acct.MaxPricesPerRequest() // the v2 price write's 100 cards
	}
	all := chunks(e, kind, items, limit)
	for n, chunk := range all {
		if alongLast != nil && n == len(all)-1 && (rep.Rejected > 0 || len(rep.Unmatched) > 0) {
			along.Go(alongLast)
		}
		// Each chunk is bounded on its own: a hanging marketplace stops the
		// run with the rest accounted for as not sent.
		cctx, cancel := context.WithTimeout(ctx, e.chunkTimeout())
		rejected, fraud, err := kind.sendChunk(cctx, acct, seller, chunk)
		cancel()
		if err != nil {
			if n == 0 && (errors.Is(err, apiclient.ErrUnauthorized) || (e.StoreFailed != nil && e.StoreFailed(err))) {
				return nil, err
			}
			rep.Stopped = err
			rest := all[n:]
			if errors.Is(err, apiclient.ErrOutcomeUnknown) {
				// This chunk was sent and may have been applied: say so,
				// rather than "not sent".
				for _, it := range chunk {
					rep.Outcomes[kind.Key(it)] = Outcome{State: Unknown}
					rep.Unknown++
				}
				rest = all[n+1:]
			}
			for _, r := range rest {
				for _, it := range r {
					rep.Outcomes[kind.Key(it)] = Outcome{State: Unsent}
					rep.Unsent++
				}
			}
			return rep, nil
		}
		for _, f := range fraud {
			if rep.Fraud == nil {
				rep.Fraud = map[string][]apiclient.FraudValidation{}
			}
			if len(rep.Fraud[f.ParentSKU]) < maxFindings {
				rep.Fraud[f.ParentSKU] = append(rep.Fraud[f.ParentSKU], f)
			}
		}
		var done answered
		if patch.copies() {
			done.changes = make([]copystore.Change, 0, len(chunk))
		}
		if patch.logs() {
			done.keys, done.outcomes = make([]string, 0, len(chunk)), make([]Outcome, 0, len(chunk))
		}
		for _, it := range chunk {
			k := kind.Key(it)
			o := Outcome{State: Accepted}
			if msgs, ok := rejected[k]; ok {
				o = Outcome{State: Rejected, Messages: msgs}
				rep.Rejected++
			} else {
				rep.Accepted++
				if done.changes != nil {
					done.changes = append(done.changes, kind.Change(it))
				}
			}
			rep.Outcomes[k] = o
			if done.keys != nil {
				done.keys, done.outcomes = append(done.keys, k), append(done.outcomes, o)
			}
		}
		patch.give(done)
		for k, msgs := range rejected {
			if _, ok := rep.Outcomes[k]; !ok {
				if rep.Unmatched == nil {
					rep.Unmatched = map[string]i18n.Msgs{}
				}
				rep.Unmatched[k] = append(rep.Unmatched[k], msgs...)
			}
		}
	}
	return rep, nil
}

// marketMessages are the marketplace's messages about one item of an
// error of code, each read by Refusal; a refusal with no message names its
// code.
func marketMessages(code int, ms []string) i18n.Msgs {
	var out i18n.Msgs
	for _, m := range ms {
		out = append(out, Refusal(code, m)...)
	}
	if len(out) == 0 {
		out = i18n.Of(i18n.M("mass.rejected_code", map[string]any{"Code": strconv.Itoa(code)}))
	}
	return out
}

// patcher writes chunks' accepted rows into a copy, and tells a log
// their outcomes, on a goroutine of its own, in the order given, while the
// send goes on.
type patcher struct {
	to      CopyAt
	ctx     context.Context
	write   bool // to.Copy takes the kind's changes
	pending chan answered
	done    chan error
}

// answered is one chunk as the patcher takes it: the accepted rows as the
// copy takes them, and every row's key and outcome for the log.
type answered struct {
	changes  []copystore.Change
	keys     []string
	outcomes []Outcome
}

// startPatcher starts the writer of to, or returns nil when there is
// nothing to write: no log, and no copy or a kind without Change.
func startPatcher[T any](ctx context.Context, to CopyAt, kind Kind[T]) *patcher {
	write := to.Copy != nil && kind.Change != nil
	if !write && to.Log == nil {
		return nil
	}
	p := &patcher{to: to, ctx: context.WithoutCancel(ctx), write: write, pending: make(chan answered, 64), done: make(chan error, 1)}
	go func() {
		var first error
		for a := range p.pending {
			if len(a.changes) > 0 {
				if err := p.to.Copy.Accept(p.ctx, p.to.Key, a.changes); err != nil && first == nil {
					first = err
				}
			}
			if p.to.Log != nil && len(a.keys) > 0 {
				p.to.Log.Chunk(a.keys, a.outcomes)
			}
		}
		p.done <- first
	}()
	return p
}

// copies reports whether the patcher writes a copy; logs, whether it
// tells a log.
func (p *patcher) copies() bool { return p != nil && p.write }
func (p *patcher) logs() bool   { return p != nil && p.to.Log != nil }

// give hands a chunk's rows to the writer.
func (p *patcher) give(a answered) {
	if p == nil || (len(a.changes) == 0 && len(a.keys) == 0) {
		return
	}
	p.pending <- a
}

// wait lets the writer finish and notes on rep that its rows are written.
func (p *patcher) wait(rep *Report) {
	if p == nil {
		return
	}
	close(p.pending)
	err := <-p.done
	if rep != nil && p.write {
		rep.copied, rep.copyErr = true, err
	}
}
