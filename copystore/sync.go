package copystore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// Source reads one page of each list of one seller from the marketplace.
type Source interface {
	NomenclaturePage(ctx context.Context, page, limit int) (recs []apiclient.Nomenclature, pages, total int, err error)
	OrdersPage(ctx context.Context, page, limit int) (orders []apiclient.Order, pages, total int, err error)
	BoxesPage(ctx context.Context, page, limit int) (boxes []apiclient.ReturnBox, pages, total int, err error)
}

// AccountSource reads the lists through the API client.
type AccountSource struct {
	Account  *apiclient.Account
	SellerID int64
	// Credential is the fingerprint of the account's credentials
	// (CredentialOf): a sync does not read with credentials the
	// marketplace rejected, and marks them when it is rejected.
	Credential Credential
}

// credentialOf returns the credential fingerprint of src, or "" when it
// names none.
func credentialOf(src Source) Credential {
	if a, ok := src.(AccountSource); ok {
		return a.Credential
	}
	if c, ok := src.(interface{ Credential() Credential }); ok {
		return c.Credential()
	}
	return ""
}

// Renew obtains both tokens of the account anew from its secret, bypassing
// any cached ones: a pass starts only with credentials the marketplace
// accepts now, not with a token a rotated-out secret obtained earlier.
func (a AccountSource) Renew(ctx context.Context) error { return a.Account.Login(ctx) }

// renewer is a Source whose tokens can be obtained anew before a pass
// (AccountSource.Renew).
type renewer interface {
	Renew(ctx context.Context) error
}

// NomenclaturePage reads a page of v1.nomenclatures.list.
func (a AccountSource) NomenclaturePage(ctx context.Context, page, limit int) ([]apiclient.Nomenclature, int, int, error) {
	l, err := a.Account.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: a.SellerID, Page: page, Limit: limit})
	if err != nil {
		return nil, 0, 0, err
	}
	return l.Nomenclatures, l.Pages, l.Total, nil
}

// OrdersPage reads a page of the B2B orders list, without items.
func (a AccountSource) OrdersPage(ctx context.Context, page, limit int) ([]apiclient.Order, int, int, error) {
	l, err := a.Account.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: page, Limit: limit, WithoutItems: true})
	if err != nil {
		return nil, 0, 0, err
	}
	return l.Orders, l.Pages, l.Total, nil
}

// BoxesPage reads a page of the return boxes.
func (a AccountSource) BoxesPage(ctx context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	l, err := a.Account.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: a.SellerID, Page: page, Limit: limit})
	if err != nil {
		return nil, 0, 0, err
	}
	return l.Boxes, l.Pages, l.Total, nil
}

// Locker takes a seller's lock, shared by every instance on the database
// (sqldb.DB.LockSeller). Mass updates take it too, so a sync never has a
// request in flight beside another of the same seller, on any instance.
type Locker interface {
	LockSeller(ctx context.Context, seller int64) (unlock func(), err error)
}

// PageLimit is the page size the sync reads: the marketplace's maximum.
const PageLimit = 100

// maxPages bounds a pass whatever the marketplace says its page count is.
const maxPages = 100_000

// Syncer fills copies from the marketplace, one page at a time under the
// seller's lock. Each step takes the lock, reads where the pass stands
// from the database, reads the next page, stores it with the new position
// and releases the lock: instances syncing one seller take turns on one
// pass (never two requests at once, never a page twice), and an instance
// started after a crash continues from the last stored page. Only one page
// is ever in memory.
type Syncer struct {
	Store *Store
	Lock  Locker
	// Sleep waits d out (429/503) unless ctx ends; nil = a timer. Tests
	// replace it to see the wait recorded without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock; nil = time.Now.
	Now func() time.Time
	// PageLimit overrides the page size (0 = PageLimit, the
	// marketplace's maximum).
	PageLimit int
	// MaxWait caps one wait for a 429/503 (0 = 2 minutes).
	MaxWait time.Duration
	// MinAge: a kind whose last full pass finished less than MinAge ago
	// is not read again by Run (0 = always a new pass: "refresh now").
	MinAge time.Duration
	// Observer, when set, is told of each wait the marketplace asks for
	// and of each run that ends unfinished (metrics); nil observes
	// nothing.
	Observer Observer

	// slice and batchWait override Slice and syncBatchWait (tests that
	// assert on batches, which the clock of a loaded machine must not
	// split).
	slice, batchWait time.Duration
}

func (y *Syncer) now() time.Time {
	if y.Now != nil {
		return y.Now()
	}
	return time.Now()
}

func (y *Syncer) sleep(ctx context.Context, d time.Duration) error {
	if y.Sleep != nil {
		return y.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run brings the copy of k up to date: it resumes a pass an interrupted
// instance left running, or starts a full pass, for every kind in turn.
// A refusal of the marketplace stops the pass (Stopped, with its reason)
// and ends the run with its error: a 403 (apiclient.ErrForbidden) revokes
// access to the copy; a 401 a new token did not cure
// (apiclient.ErrUnauthorized) marks src's credentials rejected, and no
// run reads with them again (ErrCredentialRejected, without a request)
// until a login with them succeeds. A pass whose copy is forgotten
// meanwhile ends without error and without writing.
//
// Before a pass begins, src's tokens are obtained anew (a Source with a
// Renew method): credentials whose token cannot be renewed begin no pass
// (the copy's sync states are left as they were, so no other session
// sees a refusal that was not its own); they are marked rejected and the
// run ends with ErrCredentialRejected.
func (y *Syncer) Run(ctx context.Context, k Key, src Source) error {
	_, err := y.run(ctx, k, src)
	return err
}

// run is Run; renewed reports that src's tokens were obtained anew, so its
// credentials are known to work (Manager keeps such a source for the
// scheduled passes).
func (y *Syncer) run(ctx context.Context, k Key, src Source) (renewed bool, _ error) {
	cred := credentialOf(src)
	if cred != "" {
		rejected, err := y.Store.CredentialRejected(ctx, cred)
		if err != nil {
			return false, err
		}
		if rejected {
			return false, ErrCredentialRejected
		}
	}
	if r, ok := src.(renewer); ok {
		due, err := y.passDue(ctx, k)
		if err != nil || !due {
			return false, err
		}
		err = r.Renew(ctx)
		if errors.Is(err, apiclient.ErrUnauthorized) {
			if cred != "" {
				if rerr := y.Store.RejectCredential(context.WithoutCancel(ctx), cred); rerr != nil {
					return false, errors.Join(ErrCredentialRejected, rerr)
				}
			}
			return false, fmt.Errorf("%w: %w", ErrCredentialRejected, err)
		}
		// Any other failure (the token service down) is the pass's to
		// meet and record, as a failed read.
		renewed = err == nil
	}
	// A pass another instance finishes after this point is the one asked
	// for; it is not repeated.
	since := y.Store.now().Truncate(time.Millisecond)
	for _, kind := range Kinds {
		if err := y.runKind(ctx, k, kind, src, since); err != nil {
			return renewed, err
		}
	}
	return renewed, nil
}

// passDue reports whether Run would begin or resume a pass of some kind
// of k: a kind never copied, running (to resume), stopped, or older than
// MinAge. It reads the states only; beginPass decides under the lock.
func (y *Syncer) passDue(ctx context.Context, k Key) (bool, error) {
	states, err := y.Store.SyncStates(ctx, k)
	if err != nil {
		return false, err
	}
	for _, kind := range Kinds {
		st, ok := states[kind]
		if !ok || st.Running || st.Stopped() || !st.Complete() || y.MinAge <= 0 || y.Store.now().Sub(st.CompletedAt) >= y.MinAge {
			return true, nil
		}
	}
	return false, nil
}

func (y *Syncer) runKind(ctx context.Context, k Key, kind string, src Source, since time.Time) error {
	var pass *SyncState // nil: not begun
	for {
		done, st, err := y.step(ctx, k, kind, pass, src, since)
		if errors.Is(err, errPassGone) {
			return nil
		}
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		pass = &st
	}
}

// Slice is how long one turn under the seller's lock may go on reading
// pages before it lets others (a mass update, another instance) in.
const Slice = 2 * time.Second

// page is one page read, or why it could not be.
type page struct {
	num          int // the page's number
	data         any
	pages, total int
	n            int
	err          error
}

// last reports whether p ends the pass.
func (p *page) last() bool { return p.err == nil && (p.n == 0 || p.num >= min(p.pages, maxPages)) }

// Bounds of the pages a turn holds in memory: fetched and waiting to be
// stored (syncQueue), and stored in one transaction (syncBatch). The
// storer waits for syncBatchMin pages (or the end of the turn, or
// syncBatchWait) before it stores: a transaction of four pages costs
// about 40 % less per page than four of one (BenchmarkStorePages), and
// the reader does not wait for it meanwhile.
const (
	syncQueue     = 4
	syncBatch     = 8
	syncBatchMin  = 4
	syncBatchWait = time.Second
)

// step does one turn under the lock: it begins (gen < 0) or continues the
// pass, and reads and stores pages for Slice, and past it only until the
// store has caught up (at most syncQueue pages more), so the turn ends
// with one page to store. A reader reads the
// pages one request at a time, without waiting for them to be stored;
// this goroutine stores them in batches (syncBatchMin to syncBatch
// pages), each in one transaction with the page the pass resumes from,
// so a restart never loses a stored page nor stores one twice, and
// storing costs no time of the pass. done reports that the pass is
// finished, by this instance or another. pass is the pass as the last
// step left it (nil: begin one).
func (y *Syncer) step(ctx context.Context, k Key, kind string, pass *SyncState, src Source, since time.Time) (done bool, st SyncState, err error) {
	unlock, err := y.Lock.LockSeller(ctx, k.SellerID)
	if err != nil {
		return false, st, fmt.Errorf("copystore: sync lock: %w", err)
	}
	defer unlock()
	if pass == nil {
		var skip bool
		if st, skip, err = y.Store.beginPass(ctx, k, kind, y.MinAge, since); err != nil || skip {
			return skip, st, err
		}
	} else {
		states, err := y.Store.SyncStates(ctx, k)
		if err != nil {
			return false, st, err
		}
		st = states[kind]
		if st.Gen != pass.Gen || !st.Running {
			return true, st, nil // finished (or superseded) elsewhere
		}
		st.epoch = pass.epoch
	}
	limit := PageLimit
	if y.PageLimit > 0 {
		limit = y.PageLimit
	}
	end := y.now().Add(Slice)
	if y.slice > 0 {
		end = y.now().Add(y.slice)
	}
	queue := make(chan page, syncQueue)
	// unstored counts the pages handed to the storer and not yet stored.
	var unstored atomic.Int32
	readCtx, stopReading := context.WithCancel(ctx)
	go func(n int) {
		defer close(queue)
		over := 0 // pages read after the slice ended
		for {
			p := y.readPage(readCtx, k, kind, src, n, limit)
			p.num = n
			unstored.Add(1)
			queue <- p
			if p.err != nil || p.last() || readCtx.Err() != nil {
				return
			}
			// The slice is over: the turn ends once the storer has
			// caught up (the page just handed over is all it has left),
			// so what it still had to store is stored while the next
			// page is read, not after the last read with no request in
			// flight; at most syncQueue pages past the slice.
			if !y.now().Before(end) {
				if unstored.Load() <= 1 || over >= syncQueue {
					return
				}
				over++
			}
			n++
		}
	}(st.NextPage)
	// Deferred after unlock, so it runs first: the lock is never
	// released with a request of the reader in flight.
	defer func() {
		stopReading()
		for range queue {
		}
	}()
	batch := make([]page, 0, syncBatch)
	batchWait := syncBatchWait
	if y.batchWait > 0 {
		batchWait = y.batchWait
	}
	wait := time.NewTimer(batchWait)
	wait.Stop()
	for {
		p, ok := <-queue
		if !ok {
			return false, st, nil // the slice is over; the pass goes on
		}
		batch = append(batch[:0], p)
		wait.Reset(batchWait)
	collect:
		for len(batch) < syncBatch && batch[len(batch)-1].err == nil && !batch[len(batch)-1].last() {
			if len(batch) < syncBatchMin && y.now().Before(end) {
				// Wait for more, but not through a long 429 wait, nor
				// once the slice is over (the turn ends when the store
				// has caught up).
				select {
				case q, ok := <-queue:
					if !ok {
						break collect
					}
					batch = append(batch, q)
				case <-wait.C:
					break collect
				}
				continue
			}
			select {
			case q, ok := <-queue:
				if !ok {
					break collect
				}
				batch = append(batch, q)
			default:
				break collect
			}
		}
		wait.Stop()
		good := batch
		var readErr error
		if b := batch[len(batch)-1]; b.err != nil {
			good, readErr = batch[:len(batch)-1], b.err
		}
		if len(good) > 0 {
			if err := y.Store.putPages(ctx, k, &st, good); err != nil {
				return false, st, err
			}
			unstored.Add(-int32(len(good)))
		}
		if readErr != nil {
			return false, st, y.refused(ctx, k, st, src, readErr)
		}
		if good[len(good)-1].last() {
			return true, st, y.Store.finishPass(ctx, k, st)
		}
		clear(batch) // the stored pages' records are not kept
	}
}

// refused stops pass st when err is a refusal of the marketplace (a 403
// for the seller's list, a 401 a new token did not cure), revoking the
// copy or marking the credentials, and returns err.
func (y *Syncer) refused(ctx context.Context, k Key, st SyncState, src Source, err error) error {
	ctx = context.WithoutCancel(ctx)
	var reason string
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		reason = StopUnauthorized
		if cred := credentialOf(src); cred != "" {
			if rerr := y.Store.RejectCredential(ctx, cred); rerr != nil {
				return errors.Join(err, rerr)
			}
		}
	case errors.Is(err, apiclient.ErrForbidden):
		reason = StopForbidden
		if rerr := y.Store.Revoke(ctx, k); rerr != nil {
			return errors.Join(err, rerr)
		}
	default:
		return err
	}
	if serr := y.Store.stopPass(ctx, k, st, reason); serr != nil && !errors.Is(serr, errPassGone) {
		return errors.Join(err, serr)
	}
	return err
}

// readPage reads page n, waiting out 429 and 503 answers (the wait is
// recorded for the pages to show). A refusal is the step's to record
// (refused).
func (y *Syncer) readPage(ctx context.Context, k Key, kind string, src Source, n, limit int) page {
	for {
		var p page
		p.data, p.pages, p.total, p.n, p.err = y.read(ctx, kind, src, n, limit)
		var rl *apiclient.RateLimitError
		switch {
		case errors.As(p.err, &rl):
			wait := rl.RetryAt.Sub(y.now())
			wait = min(max(wait, time.Second), y.maxWait())
			if y.Observer != nil {
				y.Observer.SyncWaited(rl.Status, wait)
			}
			if err := y.Store.recordWait(ctx, k, kind, y.now().Add(wait)); err != nil {
				return page{err: err}
			}
			if err := y.sleep(ctx, wait); err != nil {
				return page{err: err}
			}
			continue
		case errors.Is(p.err, apiclient.ErrForbidden), errors.Is(p.err, apiclient.ErrUnauthorized):
			// A refusal: the step stops the pass with it (refused).
		case p.err != nil && ctx.Err() == nil:
			_ = y.Store.recordError(context.WithoutCancel(ctx), k, kind, "reading page "+strconv.Itoa(n)+" failed")
		}
		return p
	}
}

func (y *Syncer) maxWait() time.Duration {
	if y.MaxWait > 0 {
		return y.MaxWait
	}
	return 2 * time.Minute
}

// read reads one page with the client's own 429/503 retries off, so the
// wait is the syncer's: recorded, shown and taken under the lock. The
// page is returned as the copy's records ([]Record, []Order, []Box).
func (y *Syncer) read(ctx context.Context, kind string, src Source, page, limit int) (data any, pages, total, n int, err error) {
	ctx = apiclient.WithRetryBudget(ctx, 0)
	switch kind {
	case KindNomenclature:
		var d []apiclient.Nomenclature
		d, pages, total, err = src.NomenclaturePage(ctx, page, limit)
		data, n = mapAll(d, recordOf), len(d)
	case KindOrders:
		var d []apiclient.Order
		d, pages, total, err = src.OrdersPage(ctx, page, limit)
		data, n = mapAll(d, orderOf), len(d)
	case KindBoxes:
		var d []apiclient.ReturnBox
		d, pages, total, err = src.BoxesPage(ctx, page, limit)
		data, n = mapAll(d, boxOf), len(d)
	}
	return data, pages, total, n, err
}
