package handlers

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// outcome is what became of one submitted row.
type outcome struct {
	state    string // accepted, rejected, unknown (sent, no answer), unsent
	messages []string
}

// bulkReport accounts for every row of a mass update exactly once.
type bulkReport struct {
	outcomes map[string]outcome
	accepted int
	rejected int
	unknown  int // sent but unanswered: may or may not have been applied
	unsent   int
	stopped  error // why sending stopped early, if it did
	// unmatched holds item errors keyed in the other shape (a set-prices
	// error by warehouse and barcode, say), for the caller to resolve.
	unmatched map[string][]string
}

// reject turns an accepted row into a rejected one (an error matched late).
func (b *bulkReport) reject(key string, msgs []string) {
	o, ok := b.outcomes[key]
	if !ok {
		return
	}
	switch o.state {
	case "accepted":
		b.accepted--
		b.rejected++
	case "unsent", "unknown":
		return
	}
	b.outcomes[key] = outcome{state: "rejected", messages: append(o.messages, msgs...)}
}

// complete reports whether every row got an answer and none was refused.
func (b *bulkReport) complete() bool {
	return b.rejected == 0 && b.unknown == 0 && b.unsent == 0 && len(b.unmatched) == 0
}

func (b *bulkReport) note() string {
	if b.stopped == nil {
		return ""
	}
	out := "Sending stopped early (" + stopReason(b.stopped) + ")."
	if b.unknown > 0 {
		out += fmt.Sprintf(" %s no answer: reload the page to see whether they were applied.", format.Count(b.unknown, "row got", "rows got"))
	}
	if b.unsent > 0 {
		out += fmt.Sprintf(" %s not sent: submit again to send them.", format.Count(b.unsent, "row was", "rows were"))
	}
	return out
}

func stopReason(err error) string {
	var rl *apiclient.RateLimitError
	switch {
	case errors.As(err, &rl):
		return "the marketplace is busy until " + format.Clock(rl.RetryAt)
	case errors.Is(err, apiclient.ErrRateLimited), errors.Is(err, apiclient.ErrUnavailable):
		return "the marketplace is busy"
	case errors.Is(err, apiclient.ErrOutcomeUnknown):
		return "no answer came for the last batch"
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "the request was cancelled"
	default:
		return "the marketplace refused the request"
	}
}

// sendChunks sends keyed items in chunks, one request at a time for the
// seller, and accounts for every key: accepted, rejected with the
// marketplace's messages, or not sent. keyOf maps an item error back to its
// row key. A request-level failure stops the run; credentials rejected (or a
// lost session store) is returned as an error for the central handler.
//
// alongLast, when not nil, runs in its own goroutine while the last chunk
// is in flight, so that work which does not need the run's outcome (the
// result page's list call) overlaps with that round trip instead of adding
// to it; sendChunks returns only after alongLast has returned. It is
// started only when an earlier chunk already had rows rejected, that is
// when the result page will be shown whatever the last chunk's answer (a
// run that goes through cleanly redirects and needs no list call).
func sendChunks[T any](ctx context.Context, a *App, seller int64, items []T, keyOfItem func(T) string,
	send func(context.Context, []T) (*apiclient.UpdateResult, error), keyOfError func(apiclient.ItemError) string,
	alongLast func()) (*bulkReport, error) {
	rep := &bulkReport{outcomes: make(map[string]outcome, len(items))}
	// One mass-update request in flight per seller (spec §8: sequential
	// requests), across every instance that shares the session database.
	unlock, err := a.deps.Sessions.Lock(ctx, "mass-update/"+strconv.FormatInt(seller, 10))
	if err != nil {
		return nil, errSessionStore(err)
	}
	defer unlock()
	var along sync.WaitGroup
	defer along.Wait()
	ctx = apiclient.WithRetryBudget(ctx, a.deps.BulkRetryBudget)
	size := a.deps.ChunkSize
	for start := 0; start < len(items); start += size {
		chunk := items[start:min(start+size, len(items))]
		if alongLast != nil && start+size >= len(items) && (rep.rejected > 0 || len(rep.unmatched) > 0) {
			along.Go(alongLast)
		}
		// Each chunk is bounded on its own: a hanging marketplace stops the
		// run with the rest accounted for as not sent.
		cctx, cancel := context.WithTimeout(ctx, a.deps.UpstreamTimeout+a.deps.BulkRetryBudget)
		res, err := send(cctx, chunk)
		cancel()
		if err != nil {
			var ss *sessionStoreError
			if errors.Is(err, apiclient.ErrUnauthorized) || errors.As(err, &ss) {
				if start == 0 {
					return nil, err
				}
			}
			rep.stopped = err
			rest := items[start:]
			if errors.Is(err, apiclient.ErrOutcomeUnknown) {
				// This chunk was sent and may have been applied: say so,
				// rather than "not sent".
				for _, it := range chunk {
					rep.outcomes[keyOfItem(it)] = outcome{state: "unknown"}
					rep.unknown++
				}
				rest = items[start+len(chunk):]
			}
			for _, it := range rest {
				rep.outcomes[keyOfItem(it)] = outcome{state: "unsent"}
				rep.unsent++
			}
			return rep, nil
		}
		rejected := map[string][]string{}
		for _, ie := range res.Errors {
			k := keyOfError(ie)
			msgs := ie.Messages
			if len(msgs) == 0 {
				msgs = []string{fmt.Sprintf("Rejected by the marketplace (code %d).", ie.Code)}
			}
			rejected[k] = append(rejected[k], msgs...)
		}
		for _, it := range chunk {
			k := keyOfItem(it)
			if msgs, ok := rejected[k]; ok {
				rep.outcomes[k] = outcome{state: "rejected", messages: msgs}
				rep.rejected++
			} else {
				rep.outcomes[k] = outcome{state: "accepted"}
				rep.accepted++
			}
		}
		for k, msgs := range rejected {
			if _, ok := rep.outcomes[k]; !ok {
				if rep.unmatched == nil {
					rep.unmatched = map[string][]string{}
				}
				rep.unmatched[k] = append(rep.unmatched[k], msgs...)
			}
		}
	}
	return rep, nil
}

func priceKey(u apiclient.PriceUpdate) string { return u.MarketplaceSKU }

func priceErrorKey(e apiclient.ItemError) string {
	if e.MarketplaceSKU != "" {
		return e.MarketplaceSKU
	}
	return e.WarehouseCode + "|" + e.Barcode
}

func stockKey(i apiclient.StoreItem) string { return i.WarehouseCode + "|" + i.Barcode }

func stockErrorKey(e apiclient.ItemError) string {
	if e.WarehouseCode != "" || e.Barcode != "" {
		return e.WarehouseCode + "|" + e.Barcode
	}
	return e.MarketplaceSKU
}
