// Package browse reads what the dashboard's lists and pages show of one
// seller: the orders, one order, the return boxes, the nomenclature and
// prices, and the overview. Each read decides where it reads from: the
// local copy once a first full copy of the seller exists and the
// seller's credentials are known to work, else the marketplace live,
// under the per-seller lock the copy's sync reads under, so one request
// of a seller is in flight at a time. It returns rows of its own; the
// marketplace's wire types stay in apiclient and the copy's records in
// copystore.
package browse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// ErrStore is returned, wrapped with the cause, when the database behind
// the per-seller lock fails: the read was not attempted.
var ErrStore = errors.New("browse: the seller lock is unavailable")

// Reader reads sellers' lists.
type Reader struct {
	copy *copystore.Manager
	log  *slog.Logger
}

// New is a Reader over the local copies m keeps (required); log takes
// the copy's warnings (nil: discarded).
func New(m *copystore.Manager, log *slog.Logger) *Reader {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reader{copy: m, log: log}
}

// Access is how one request reaches a seller: its account, the source a
// sync reads through, and the contexts its reads run in.
type Access struct {
	// Account is the session's marketplace account.
	Account *apiclient.Account
	// Source is what a background sync of the seller reads through; it
	// must not write the session (it may outlive the request).
	Source copystore.Source
	// Live is the context of a live read: the page's budget for the
	// marketplace.
	Live func() context.Context
	// Enter is called once before the copy is read (the page gate); it
	// returns the context the copy's reads run in. Nil: the caller's.
	Enter func() (context.Context, error)
	// Checks, when set, are the copy's checks the request already read
	// (copystore.Store.ReadRequestChecks, with the session's credential);
	// checks of another copy are ignored.
	Checks *copystore.Checks
}

// Seller is one request's reads of one seller's data. It remembers the
// copy's checks read for the request (copystore.Checks: the sync states,
// the access check, the version and the kept counts, one statement): the
// dispatch and the freshness line must describe the same states, and the
// page's reads of the copy take the rest from them instead of reading
// them again. Not safe for concurrent use.
type Seller struct {
	r      *Reader
	key    copystore.Key
	acc    Access
	checks *copystore.Checks
}

// For is the reads of the seller of k through acc, for one request.
func (r *Reader) For(k copystore.Key, acc Access) *Seller {
	s := &Seller{r: r, key: k, acc: acc}
	if acc.Checks != nil && acc.Checks.Key() == k {
		s.checks = acc.Checks
	}
	return s
}

// Key is the copy the reads are of.
func (s *Seller) Key() copystore.Key { return s.key }

// States are the sync states of the seller's copy, read once per
// request.
func (s *Seller) States(ctx context.Context) (map[string]copystore.SyncState, error) {
	if s.checks != nil {
		return s.checks.States, nil
	}
	c, err := s.r.copy.Store().ReadChecks(ctx, s.key)
	if err != nil {
		return nil, err
	}
	s.checks = c
	return c.States, nil
}

// Complete reports whether a first full copy of every list exists.
func Complete(states map[string]copystore.SyncState) bool {
	for _, kind := range copystore.Kinds {
		if !states[kind].Complete() {
			return false
		}
	}
	return true
}

// FromCopy is the decision every read makes: whether the seller's lists
// are read from the copy (a first full copy exists and the seller's
// credentials are known to work) or live. Either way it
// records the page view, which starts a sync when the copy is due one.
func (s *Seller) FromCopy(ctx context.Context) (bool, error) {
	states, err := s.States(ctx)
	if err != nil {
		return false, err
	}
	complete := Complete(states)
	if complete {
		if err := s.access(); err != nil {
			return false, err
		}
	}
	s.touch(ctx)
	s.r.copy.UseSeen(s.key, s.acc.Source, states)
	return complete, nil
}

// Use records a page view of the copy and starts a sync when the copy
// is older than the interval (or one was left half done). A read that
// does not go through FromCopy (the overview) calls it.
func (s *Seller) Use(ctx context.Context) {
	s.touch(ctx)
	s.r.copy.Use(s.key, s.acc.Source)
}

func (s *Seller) touch(ctx context.Context) {
	if err := s.r.copy.Store().Touch(ctx, s.key); err != nil {
		s.r.log.WarnContext(ctx, "catalogue copy: touch failed", "err", err)
	}
}

// access lets the request read the copy only while the seller's
// credentials are known to work: each of its tokens was obtained within
// its lifetime. A token past it is obtained again first, so rejected
// credentials end the session instead of the copy being served.
func (s *Seller) access() error {
	acct, ctx := s.acc.Account, s.acc.Live()
	for _, kind := range []apiclient.TokenKind{apiclient.KindSeller, apiclient.KindB2B} {
		if _, err := acct.Token(ctx, kind); err != nil {
			return err
		}
	}
	return nil
}

// Access is FromCopy's check of the credentials alone, for a page read
// from the copy whatever its state (the overview).
func (s *Seller) Access() error { return s.access() }

// enter is the context the copy is read in: the page gate's, carrying
// the request's checks when read.
func (s *Seller) enter(ctx context.Context) (context.Context, error) {
	if s.acc.Enter != nil {
		var err error
		if ctx, err = s.acc.Enter(); err != nil {
			return ctx, err
		}
	}
	return copystore.WithChecks(ctx, s.checks), nil
}

// lock takes the per-seller lock the sync reads under, for a read about
// to go to the marketplace.
func (s *Seller) lock(ctx context.Context) (unlock func(), err error) {
	unlock, err = s.r.copy.Lock(ctx, s.key.SellerID)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %w", ErrStore, err)
	}
	return unlock, nil
}

// Lock is the per-seller lock for a live read the caller makes itself
// (a page's export of the whole live catalogue, page by page).
func (s *Seller) Lock(ctx context.Context) (unlock func(), err error) { return s.lock(ctx) }

// pages is the number of pages of total rows, limit a page; at least one.
func pages(total, limit int) int { return max(1, (total+limit-1)/limit) }
