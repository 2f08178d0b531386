package massupdate

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// Accounts gives the marketplace account a job sends with: the
// credentials of the session that submitted it, read at every chunk (the
// user may have navigated away, and a logout stops the job). Errors:
// bulkjobs.ErrLoggedOut, or a *bulkjobs.RetryLater while the session store
// is unreachable.
type Accounts func(ctx context.Context, job bulkjobs.Job) (*apiclient.Account, error)

// Executor is what the bulk job runner runs: it sends a job's chunks
// through the engine, under the same per-seller lock as the forms.
type Executor struct {
	Engine   *Engine
	Accounts Accounts
	// PricesByCard sends price jobs as Cards (the lamoda wire profile,
	// apiclient.Client.PricesByCard): their rows are CardPrice payloads,
	// made by Previewer.CardPriceItems.
	PricesByCard bool
	// FilterWrites sends stock jobs through the filtered writes (the
	// lamoda wire profile, apiclient.Client.FilterWrites): their rows are
	// SKUStock payloads, made by Previewer.FilterStockItems.
	FilterWrites bool
	// Copy, when set, takes each chunk's accepted rows at once
	// (PatchCopy), as the forms' do, and the rows a read-back confirmed;
	// Log hears of a copy that could not take them (nil: not logged), the
	// change itself being made.
	Copy Copy
	Log  *slog.Logger
}

var _ bulkjobs.Executor = (*Executor)(nil)

// Send sends one chunk under the seller's mass-update lock (one request in
// flight per seller, shared with the prices and nomenclature forms).
func (x *Executor) Send(ctx context.Context, job bulkjobs.Job, items []bulkjobs.Item, wait func(time.Time, int)) ([]bulkjobs.Result, error) {
	acct, err := x.Accounts(ctx, job)
	if err != nil {
		return nil, err
	}
	unlock, err := x.Engine.lock(ctx, job.SellerID)
	if err != nil {
		return nil, &bulkjobs.RetryLater{At: time.Now().Add(2 * time.Second)}
	}
	defer unlock()
	ctx = apiclient.WithRetryBudget(ctx, x.Engine.retryBudget())
	ctx = apiclient.WithRetryObserver(ctx, func(ev apiclient.RetryEvent) { wait(time.Now().Add(ev.Wait), ev.Status) })
	if job.Kind == Stock.Name && x.FilterWrites {
		return sendFilteredJobChunk(ctx, x, acct, job, items)
	}
	if job.Kind == Stock.Name {
		return sendJobChunk(ctx, x, acct, job, Stock, items)
	}
	if x.PricesByCard {
		return sendJobChunk(ctx, x, acct, job, Cards, items)
	}
	return sendJobChunk(ctx, x, acct, job, Prices, items)
}

// patchCopy writes a chunk's accepted rows into the job's copy.
func patchCopy[T any](ctx context.Context, x *Executor, job bulkjobs.Job, kind Kind[T], rep *Report, rows []T) {
	if x.Copy == nil {
		return
	}
	k := copystore.Key{SellerID: job.SellerID, Env: job.Environment}
	if err := PatchCopy(context.WithoutCancel(ctx), x.Copy, k, kind, rep, rows); err != nil && x.Log != nil {
		x.Log.Warn("catalogue copy: writing accepted changes failed", "job", job.ID, "err", err)
	}
}

// sendJobChunk decodes a chunk's stored rows, sends them and reports each
// row's outcome by Seq. A row is matched by its kind's key of the stored
// payload (for a card, the card), which an empty key makes unreadable.
func sendJobChunk[T any](ctx context.Context, x *Executor, acct *apiclient.Account, job bulkjobs.Job, kind Kind[T], items []bulkjobs.Item) ([]bulkjobs.Result, error) {
	e := x.Engine
	chunk := make([]T, 0, len(items))
	keys := make([]string, 0, len(items))
	for _, it := range items {
		var v T
		if err := json.Unmarshal([]byte(it.Payload), &v); err != nil || kind.Key(v) == "" {
			return nil, &bulkjobs.StopError{Message: i18n.Of(i18n.M("mass.stored_row_unreadable", nil))}
		}
		chunk = append(chunk, v)
		keys = append(keys, kind.Key(v))
	}
	rejected, _, err := kind.sendChunk(ctx, acct, job.SellerID, chunk)
	if err != nil {
		return nil, e.jobError(err)
	}
	out := make([]bulkjobs.Result, 0, len(items))
	rep := &Report{Outcomes: make(map[string]Outcome, len(items))}
	for i, it := range items {
		if msgs, ok := rejected[keys[i]]; ok {
			out = append(out, bulkjobs.Result{Seq: it.Seq, State: bulkjobs.ItemRejected, Message: msgs})
			rep.Outcomes[keys[i]] = Outcome{State: Rejected}
			continue
		}
		out = append(out, bulkjobs.Result{Seq: it.Seq, State: bulkjobs.ItemAccepted})
		rep.Outcomes[keys[i]] = Outcome{State: Accepted}
	}
	patchCopy(ctx, x, job, kind, rep, chunk)
	return out, nil
}

// sendFilteredJobChunk sends a stock chunk through the filtered writes
// (grouped, each with its dry run) and reports each row by Seq. A failure
// before anything of the chunk was written is the chunk's (waited out,
// retried or stopping the job as any chunk's); after a write, the rows
// already answered keep their answers, the failing write's rows are
// unknown when it was sent, and the rest are not sent, so that nothing is
// ever sent twice blindly.
func sendFilteredJobChunk(ctx context.Context, x *Executor, acct *apiclient.Account, job bulkjobs.Job, items []bulkjobs.Item) ([]bulkjobs.Result, error) {
	e := x.Engine
	rows := make([]SKUStock, 0, len(items))
	keys := make([]string, 0, len(items))
	for _, it := range items {
		var v SKUStock
		if err := json.Unmarshal([]byte(it.Payload), &v); err != nil || v.Key() == "|" {
			return nil, &bulkjobs.StopError{Message: i18n.Of(i18n.M("mass.stored_row_unreadable", nil))}
		}
		rows = append(rows, v)
		keys = append(keys, v.Key())
	}
	writes, refused := planWrites(rows, e.filterSize())
	parts := partStates{}
	for k, msgs := range refused {
		parts.add(k, "", SKUStock{}, Outcome{State: Rejected, Messages: msgs})
	}
	n, err := e.runWrites(ctx, acct, job.SellerID, writes, parts, map[string]i18n.Msgs{})
	if err != nil && n == 0 && !errors.Is(err, apiclient.ErrOutcomeUnknown) {
		return nil, e.jobError(err)
	}
	rep := &Report{Outcomes: map[string]Outcome{}}
	parts.fold(rep)
	patchCopy(ctx, x, job, Stock, rep, storeItems(rows))
	var why i18n.Msgs
	if err != nil {
		why = i18n.Of(i18n.M("mass.sentence", map[string]any{"Reason": StopReason(err)}))
	}
	out := make([]bulkjobs.Result, 0, len(items))
	for i, it := range items {
		o := rep.Outcomes[keys[i]]
		res := bulkjobs.Result{Seq: it.Seq}
		switch o.State {
		case Rejected:
			res.State, res.Message = bulkjobs.ItemRejected, o.Messages
		case Unknown:
			res.State, res.Message = bulkjobs.ItemUnknown, why
		case Unsent:
			res.State, res.Message = bulkjobs.ItemUnsent, why
		default:
			res.State = bulkjobs.ItemAccepted
		}
		out = append(out, res)
	}
	return out, nil
}

// storeItems are the changes of rows, keyed as Stock keys them.
func storeItems(rows []SKUStock) []apiclient.StoreItem {
	out := make([]apiclient.StoreItem, len(rows))
	for i, r := range rows {
		out[i] = r.StoreItem
	}
	return out
}

// jobError maps a failed chunk to what the runner does next.
func (e *Engine) jobError(err error) error {
	var rl *apiclient.RateLimitError
	switch {
	case errors.As(err, &rl):
		status := http.StatusTooManyRequests
		if errors.Is(err, apiclient.ErrUnavailable) {
			status = http.StatusServiceUnavailable
		}
		at := rl.RetryAt
		if time.Until(at) < time.Second {
			at = time.Now().Add(time.Second)
		}
		return &bulkjobs.RetryLater{At: at, Status: status}
	case errors.Is(err, apiclient.ErrRateLimited), errors.Is(err, apiclient.ErrUnavailable), e.StoreFailed != nil && e.StoreFailed(err):
		return &bulkjobs.RetryLater{At: time.Now().Add(5 * time.Second), Status: http.StatusServiceUnavailable}
	case errors.Is(err, apiclient.ErrOutcomeUnknown):
		return bulkjobs.ErrOutcomeUnknown
	case errors.Is(err, apiclient.ErrUnauthorized):
		return &bulkjobs.StopError{Message: i18n.Of(i18n.M("mass.stop_credentials", nil))}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	return &bulkjobs.StopError{Message: i18n.Of(i18n.M("mass.sentence", map[string]any{"Reason": StopReason(err)}))}
}

// ReadBack re-reads the records of the sent rows and compares each row
// with what the marketplace shows now. It reads the catalogue live, each
// page under the seller's lock, only until every row's record is found
// (FetchWanted), not the whole catalogue.
func (x *Executor) ReadBack(ctx context.Context, job bulkjobs.Job, items []bulkjobs.Item) ([]bulkjobs.Result, error) {
	acct, err := x.Accounts(ctx, job)
	if err != nil {
		return nil, err
	}
	ctx = apiclient.WithRetryBudget(ctx, x.Engine.retryBudget())
	readAt := time.Now()
	cat, err := x.Engine.FetchWanted(ctx, acct, job.SellerID, WantItems(job.Kind, items))
	if err != nil {
		return nil, err
	}
	out := make([]bulkjobs.Result, 0, len(items))
	for _, it := range items {
		res := readBackOne(job.Kind, it, cat)
		_, changed := CurrentChanged(job.Kind, it, cat)
		res.Unchanged = !changed
		out = append(out, res)
	}
	x.confirmCopy(ctx, job, readAt, items, out, cat)
	return out, nil
}

// confirmCopy gives the job's copy the records of the rows the read-back
// (started at readAt) settled (Copy.Confirm): their pending marks are
// cleared at once, without waiting for the next pass.
func (x *Executor) confirmCopy(ctx context.Context, job bulkjobs.Job, readAt time.Time, items []bulkjobs.Item, out []bulkjobs.Result, cat *Catalog) {
	if x.Copy == nil {
		return
	}
	// A row read back confirmed, or different (the marketplace's word
	// since), is settled; one still processing, or gone, is the next
	// pass's.
	confirmed := map[string]bool{}
	for i, res := range out {
		if res.State == bulkjobs.ReadConfirmed || res.State == bulkjobs.ReadDifferent {
			confirmed[items[i].Key] = true
		}
	}
	if len(confirmed) == 0 {
		return
	}
	// A row's key is a record's warehouse|barcode (stock), a product's
	// SKU or a card's (prices): every record it names.
	var recs []apiclient.Nomenclature
	for key, rec := range cat.ByKey {
		if confirmed[key] || confirmed[rec.MarketplaceSKU] || rec.ParentSKU != "" && confirmed[rec.ParentSKU] {
			recs = append(recs, rec)
		}
	}
	k := copystore.Key{SellerID: job.SellerID, Env: job.Environment}
	if err := x.Copy.Confirm(context.WithoutCancel(ctx), k, readAt, recs); err != nil && x.Log != nil {
		x.Log.Warn("catalogue copy: confirming read-back failed", "job", job.ID, "err", err)
	}
}

func readBackOne(kind string, it bulkjobs.Item, cat *Catalog) bulkjobs.Result {
	res := bulkjobs.Result{Seq: it.Seq}
	if kind == "stock" {
		var sent apiclient.StoreItem
		_ = json.Unmarshal([]byte(it.Payload), &sent)
		rec, ok := cat.ByKey[it.Key]
		if !ok {
			res.State, res.Message = bulkjobs.ReadMissing, i18n.Of(i18n.M("mass.no_longer", nil))
			return res
		}
		now := StockNow{Quantity: rec.Quantity, Status: rec.Status}
		res.Message = now.Text()
		same := (sent.Quantity == nil || *sent.Quantity == rec.Quantity) && (sent.Status == "" || sent.Status == rec.Status)
		res.State = bulkjobs.ReadConfirmed
		if !same {
			res.State = bulkjobs.ReadDifferent
		}
		return res
	}
	var sent apiclient.PriceUpdate
	_ = json.Unmarshal([]byte(it.Payload), &sent)
	rec, ok := cat.BySKU[it.Key]
	if !ok {
		res.State, res.Message = bulkjobs.ReadMissing, i18n.Of(i18n.M("mass.no_longer", nil))
		return res
	}
	now := CurrentPrice(rec)
	res.Message = now.Text()
	switch {
	case rec.PriceUpdateStatus == "PROCESSING":
		res.State, res.Message = bulkjobs.ReadProcessing, i18n.Of(i18n.M("mass.still_processing", map[string]any{"Now": now.Text()}))
	case rec.PriceUpdateStatus == apiclient.PriceStatusQuarantine:
		res.State, res.Message = bulkjobs.ReadQuarantine, i18n.Of(i18n.M("mass.quarantined", map[string]any{"Now": now.Text()}))
	case rec.Price == sent.Price && (sent.SalePrice == nil || rec.SalePrice == *sent.SalePrice):
		res.State = bulkjobs.ReadConfirmed
	default:
		res.State = bulkjobs.ReadDifferent
	}
	return res
}
