package copystore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

func TestStopReason(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", ErrCredentialRejected), StopReasonUnauthorized},
		{fmt.Errorf("x: %w", apiclient.ErrUnauthorized), StopReasonUnauthorized},
		{fmt.Errorf("x: %w", apiclient.ErrForbidden), StopReasonForbidden},
		{fmt.Errorf("x: %w", apiclient.ErrRateLimited), StopReasonRateLimited},
		{fmt.Errorf("x: %w", apiclient.ErrUnavailable), StopReasonUnavailable},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), StopReasonUnavailable},
		{errors.New("disk full"), StopReasonOther},
	} {
		if got := StopReason(c.err); got != c.want {
			t.Errorf("StopReason(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// syncRecorder is an Observer that keeps what it was told.
type syncRecorder struct {
	mu      sync.Mutex
	stopped []string
	waits   []int
	waited  time.Duration
}

func (r *syncRecorder) SyncStopped(reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = append(r.stopped, reason)
}

func (r *syncRecorder) SyncWaited(status int, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, status)
	r.waited += d
}

func (r *syncRecorder) stops() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.stopped...)
}

// CopyAges counts a copy once every kind has finished a pass, as old as
// its oldest pass, and one stopped before that as incomplete; it names no
// seller.
func TestCopyAges(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	b := newBackend(t, filepath.Join(t.TempDir(), "catalog.db"))
	ctx := context.Background()
	s := b.open()
	if ages, incomplete, err := s.CopyAges(ctx); err != nil || len(ages) != 0 || incomplete != 0 {
		t.Fatalf("an empty database: %v, %d incomplete, %v", ages, incomplete, err)
	}
	y := &Syncer{Store: s, Lock: b.lock}
	if err := y.Run(ctx, testKey(1001), m.source(1001)); err != nil {
		t.Fatal(err)
	}
	forbidden := hookSource{AccountSource: m.source(1002), reads: &atomic.Int32{}, before: func(int) error {
		return fmt.Errorf("list: %w", apiclient.ErrForbidden)
	}}
	if err := y.Run(ctx, testKey(1002), forbidden); !errors.Is(err, apiclient.ErrForbidden) {
		t.Fatalf("run: %v, want forbidden", err)
	}
	s.now = func() time.Time { return time.Now().Add(time.Hour) }
	ages, incomplete, err := s.CopyAges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ages) != 1 || ages[0] < 59*time.Minute || ages[0] > 2*time.Hour || incomplete != 1 {
		t.Errorf("ages %v, %d incomplete; want one of about an hour and one incomplete", ages, incomplete)
	}
}

// The syncer tells its Observer of a 429 it waits out, and the manager of
// a run that ends on a refusal, by reason.
func TestSyncObserver(t *testing.T) {
	t.Parallel()
	m := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	b := newBackend(t, filepath.Join(t.TempDir(), "catalog.db"))
	ctx := context.Background()
	s := b.open()
	rec := &syncRecorder{}
	var limited atomic.Bool
	src := hookSource{AccountSource: m.source(1001), reads: &atomic.Int32{}, before: func(int) error {
		if limited.CompareAndSwap(false, true) {
			return &apiclient.RateLimitError{RetryAt: time.Now().Add(3 * time.Second), Status: 429}
		}
		return nil
	}}
	y := &Syncer{Store: s, Lock: b.lock, Observer: rec, Sleep: func(context.Context, time.Duration) error { return nil }}
	if err := y.Run(ctx, testKey(1001), src); err != nil {
		t.Fatal(err)
	}
	if len(rec.waits) != 1 || rec.waits[0] != 429 || rec.waited < 2*time.Second {
		t.Errorf("waits %v (%s), want one 429 of about 3s", rec.waits, rec.waited)
	}

	forbidden := hookSource{AccountSource: m.source(1002), reads: &atomic.Int32{}, before: func(int) error {
		return fmt.Errorf("list: %w", apiclient.ErrForbidden)
	}}
	mgr := NewManager(y, time.Hour, time.Hour, nil)
	defer mgr.Close()
	mgr.Use(testKey(1002), forbidden)
	deadline := time.Now().Add(30 * time.Second)
	for len(rec.stops()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := rec.stops(); len(got) != 1 || got[0] != StopReasonForbidden {
		t.Errorf("stops %v, want [forbidden]", got)
	}
}
