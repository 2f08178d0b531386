package copystore

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// boxesHook is an AccountSource that runs before ahead of every page of
// return boxes it reads (an error it returns is the page's answer).
type boxesHook struct {
	AccountSource
	before func(page int) error
}

func (h boxesHook) Credential() Credential { return h.AccountSource.Credential }

func (h boxesHook) BoxesPage(ctx context.Context, page, limit int) ([]apiclient.ReturnBox, int, int, error) {
	if err := h.before(page); err != nil {
		return nil, 0, 0, err
	}
	return h.AccountSource.BoxesPage(ctx, page, limit)
}

// rotated is seller's lists read with secret, which need not be the one
// the marketplace accepts.
func (m *market) rotated(seller int64, secret string) AccountSource {
	src := m.source(seller)
	cred := src.Account.Credentials()
	cred.ClientSecret = secret
	src.Account = m.api.Account(cred, nil)
	src.Credential = CredentialOf(cred.ClientID, string(cred.Environment), secret)
	return src
}

// TestRotatedSecretRefusedAlone: after a client's secret is rotated, a
// session still holding the former secret asks for a pass ("refresh now"):
// no pass begins with it (the copy's states are left as they were), the
// former secret alone is marked rejected, the new one is not, and the
// scheduled passes go on reading with the secret known to work.
func TestRotatedSecretRefusedAlone(t *testing.T) {
	t.Parallel()
	mk := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	old := mk.source(1001)
	mk.sb.RotateSecret("demo-1001", "rotated-secret-1001")
	fresh := mk.rotated(1001, "rotated-secret-1001")
	if old.Credential == fresh.Credential {
		t.Fatal("two secrets of one client have one fingerprint")
	}
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		s.SetClock(clock)
		m := NewManager(&Syncer{Store: s, Lock: b.lock, Now: clock}, time.Hour, 0, nil)
		defer m.Close()
		k := testKey(1001)
		settled := func(gen int64) {
			t.Helper()
			waitFor(t, func() bool {
				st, err := s.SyncStates(ctx, k)
				if err != nil {
					t.Fatal(err)
				}
				for _, kind := range Kinds {
					if st[kind].Gen != gen || !st[kind].Complete() || st[kind].Running {
						return false
					}
				}
				return !m.Running(k)
			})
		}
		m.Use(k, fresh)
		settled(1)

		m.Refresh(k, old)
		waitFor(t, func() bool { return !m.Running(k) })
		if rejected, err := s.CredentialRejected(ctx, old.Credential); err != nil || !rejected {
			t.Errorf("the former secret is not marked rejected (%v)", err)
		}
		if rejected, err := s.CredentialRejected(ctx, fresh.Credential); err != nil || rejected {
			t.Errorf("the working secret is marked rejected (%v): every session holding it would be ended", err)
		}
		st, err := s.SyncStates(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range Kinds {
			if got := st[kind]; got.Gen != 1 || got.Stopped() || got.Running {
				t.Errorf("%s after a refresh with the former secret: %+v, want the pass of the working one untouched", kind, got)
			}
		}

		// The schedule reads with the secret known to work, though the
		// former one asked last.
		offset.Store(int64(2 * time.Hour))
		m.tick()
		settled(2)
		if rejected, _ := s.CredentialRejected(ctx, fresh.Credential); rejected {
			t.Error("the scheduled pass marked the working secret rejected")
		}
	})
}

// TestViewAfterFailedPassResumes: a page view while a pass runs, after the
// marketplace failed a read of it, resumes the pass once it has failed,
// instead of leaving the copy incomplete until the next interval.
func TestViewAfterFailedPassResumes(t *testing.T) {
	t.Parallel()
	mk := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open()
		m := NewManager(&Syncer{Store: s, Lock: b.lock}, time.Hour, 0, nil)
		defer m.Close()
		k := testKey(1001)
		reached, proceed := make(chan struct{}), make(chan struct{})
		var calls atomic.Int32
		src := boxesHook{AccountSource: mk.source(1001), before: func(int) error {
			if calls.Add(1) > 1 {
				return nil
			}
			close(reached)
			<-proceed
			return errors.New("return boxes: 500 internal error")
		}}
		m.Use(k, src)
		<-reached
		// The marketplace recovered; the user opens a page while the pass
		// is still meeting the failure.
		m.Use(k, src)
		close(proceed)
		waitFor(t, func() bool {
			st, err := s.SyncStates(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			return st[KindBoxes].Complete() && !m.Running(k)
		})
		if n := calls.Load(); n < 2 {
			t.Errorf("the return boxes were read %d times, want the failed read and the resumed one", n)
		}
	})
}

// TestLoginSourceReadsOnSchedule: after a client's secret is rotated, a
// login with the new secret (UseAccepted) gives the copy's scheduled
// passes their source at once: the next one reads with the new secret,
// never trying the former one a session logged in with earlier.
func TestLoginSourceReadsOnSchedule(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		mk := newMarket(t, sandbox.Options{ProductsPerSeller: 20})
		ctx := context.Background()
		s := b.open()
		var offset atomic.Int64
		clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		s.SetClock(clock)
		m := NewManager(&Syncer{Store: s, Lock: b.lock, Now: clock}, time.Hour, 0, nil)
		defer m.Close()
		k := testKey(1001)
		settled := func(gen int64) {
			t.Helper()
			waitFor(t, func() bool {
				st, err := s.SyncStates(ctx, k)
				if err != nil {
					t.Fatal(err)
				}
				return st[KindBoxes].Gen == gen && st[KindBoxes].Complete() && !st[KindBoxes].Running && !m.Running(k)
			})
		}
		old := mk.source(1001)
		m.UseAccepted(k, old)
		settled(1)
		mk.sb.RotateSecret("demo-1001", "rotated-secret-1001")
		m.UseAccepted(k, mk.rotated(1001, "rotated-secret-1001"))
		waitFor(t, func() bool { return !m.Running(k) })

		offset.Store(int64(2 * time.Hour))
		before := mk.sb.Counters().TokensIssued
		m.tick()
		settled(2)
		if rejected, err := s.CredentialRejected(ctx, old.Credential); err != nil || rejected {
			t.Errorf("the scheduled pass tried the former secret (marked %v, %v)", rejected, err)
		}
		if after := mk.sb.Counters().TokensIssued; after["seller"]-before["seller"] != 1 {
			t.Errorf("the scheduled pass obtained %d seller tokens, want 1 (its renewal)", after["seller"]-before["seller"])
		}
	})
}
