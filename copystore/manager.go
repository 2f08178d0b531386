package copystore

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// DefaultInterval is how often a copy in use is fully refreshed
// (SELLERDESK_SYNC_INTERVAL).
const DefaultInterval = 15 * time.Minute

// Manager runs the syncs of this instance in the background: one at a time
// per copy in this process (the Syncer's lock keeps instances apart), a
// full refresh every Interval for the copies sessions used lately, and
// "refresh now" on demand.
type Manager struct {
	syncer   *Syncer
	interval time.Duration
	keepFor  time.Duration
	log      *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[Key]bool
	again   map[Key]rerun              // a pass asked for while one ran
	stop    map[Key]context.CancelFunc // ends the run of a key (Forget)
	purging map[Key]bool               // the forgets whose rows are being deleted here
	used    map[Key]use
	// lastTick is when the previous scheduled pass ran (zero before the
	// first): a pass refreshes the copies used since.
	lastTick time.Time
	// passes bounds the passes that run at once (see maxPasses); the
	// others wait their turn.
	passes chan struct{}
}

// maxPasses is how many copies are synced at once. A pass is mostly
// writes, and SQLite has one writer: a second pass beside the first only
// queues every session save of every user behind two passes' batches (a
// session with several accounts starts one first copy each). PostgreSQL
// takes a few side by side.
func maxPasses(postgres bool) int {
	if postgres {
		return 4
	}
	return 1
}

// use is how sessions used a copy lately, and what its scheduled passes
// read with.
type use struct {
	// src is the source of the last pass that began with its tokens
	// obtained anew (credentials the marketplace accepted then): the
	// scheduled passes read with it, whoever viewed a page since.
	src Source
	// next is the source of the latest session that used the copy, not
	// known to work yet: the scheduled passes read with it only while no
	// src is known.
	next Source
	at   time.Time
}

// rerun is a pass asked for while one of the same copy ran: it follows
// with src. A page view's (onFailure) follows only a run that failed, so
// that a view after a marketplace hiccup resumes the pass at once instead
// of at the next interval; "refresh now"'s always follows.
type rerun struct {
	src       Source
	minAge    time.Duration
	onFailure bool
}

// NewManager starts the scheduler. interval <= 0 means DefaultInterval;
// copies no session used for keepFor (the session idle timeout) are no
// longer refreshed on schedule. Close stops it.
func NewManager(y *Syncer, interval, keepFor time.Duration, log *slog.Logger) *Manager {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if keepFor <= 0 {
		keepFor = 8 * time.Hour
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{syncer: y, interval: interval, keepFor: keepFor, log: log, ctx: ctx, cancel: cancel,
		running: map[Key]bool{}, again: map[Key]rerun{}, stop: map[Key]context.CancelFunc{}, purging: map[Key]bool{}, used: map[Key]use{},
		passes: make(chan struct{}, maxPasses(y.Store.Postgres()))}
	m.wg.Add(1)
	go m.schedule()
	return m
}

// Interval is the time between full refreshes.
func (m *Manager) Interval() time.Duration { return m.interval }

// Store is the copy the manager fills.
func (m *Manager) Store() *Store { return m.syncer.Store }

// Use records that a session of k uses the copy now, through src, and
// starts a sync with src unless the last full pass is younger than the
// interval (a sync another instance left half done is resumed). While one
// runs here, a pass with src follows it if it fails. It is what a login
// and every page served from the copy call.
func (m *Manager) Use(k Key, src Source) { m.use(k, src, false) }

// UseAccepted is Use for a source whose credentials the marketplace has
// just accepted (a login): the scheduled passes read with it from now on.
func (m *Manager) UseAccepted(k Key, src Source) { m.use(k, src, true) }

func (m *Manager) use(k Key, src Source, accepted bool) {
	m.mu.Lock()
	m.touch(k, src)
	if accepted {
		u := m.used[k]
		u.src, u.next = src, nil
		m.used[k] = u
	}
	if m.running[k] {
		if r, ok := m.again[k]; !ok || r.onFailure {
			m.again[k] = rerun{src: src, minAge: m.interval, onFailure: true}
		}
		m.mu.Unlock()
		return
	}
	m.mu.Unlock()
	m.start(k, src, m.interval)
}

// touch records a use of k through src now. The caller holds mu.
func (m *Manager) touch(k Key, src Source) {
	u := m.used[k]
	u.at = m.syncer.now()
	if u.src != nil && credentialOf(u.src) == credentialOf(src) {
		u.src, u.next = src, nil
	} else {
		u.next = src
	}
	m.used[k] = u
}

// settle keeps what the run of k with src showed of its credentials:
// renewed, src is known to work and the scheduled passes read with it;
// rejected, neither src nor any kept source with its credentials is used
// again.
func (m *Manager) settle(k Key, src Source, renewed bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.used[k]
	if !ok {
		return
	}
	cred := credentialOf(src)
	switch {
	case errors.Is(err, ErrCredentialRejected), errors.Is(err, apiclient.ErrUnauthorized):
		if u.src != nil && credentialOf(u.src) == cred {
			u.src = nil
		}
		if u.next != nil && credentialOf(u.next) == cred {
			u.next = nil
		}
	case renewed:
		u.src = src
		if u.next != nil && credentialOf(u.next) == cred {
			u.next = nil
		}
	}
	m.used[k] = u
}

// UseSeen is Use for a caller that has just read the sync states of k
// (a page served from the copy): when they show every kind's last full
// pass finished less than the interval ago, none running and none
// stopped, there is nothing to start, and no goroutine, lock or
// transaction is spent finding that out again. Otherwise it is Use.
func (m *Manager) UseSeen(k Key, src Source, states map[string]SyncState) {
	now := m.syncer.now()
	fresh := len(states) >= len(Kinds)
	for _, kind := range Kinds {
		st, ok := states[kind]
		fresh = fresh && ok && st.Complete() && !st.Running && !st.Stopped() && now.Sub(st.CompletedAt) < m.interval
	}
	if !fresh {
		m.Use(k, src)
		return
	}
	m.mu.Lock()
	m.touch(k, src)
	m.mu.Unlock()
}

// Refresh starts a full pass of k now ("refresh now"); one running here is
// followed by another. A forgotten copy is copied again: the user asked.
func (m *Manager) Refresh(k Key, src Source) {
	if err := m.syncer.Store.Remember(m.ctx, k); err != nil && m.ctx.Err() == nil {
		m.log.Warn("catalogue copy: remember failed", "seller_id", k.SellerID, "environment", k.Env, "err", err)
	}
	m.mu.Lock()
	m.touch(k, src)
	if m.running[k] {
		m.again[k] = rerun{src: src}
		m.mu.Unlock()
		return
	}
	m.mu.Unlock()
	m.start(k, src, 0)
}

// Running reports whether this instance is syncing k now.
func (m *Manager) Running(k Key) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.running[k]
}

// Forget stops refreshing k, ends its running pass here (a pass of
// another instance writes nothing more: Store.MarkForgotten) and forgets
// its copy: when it returns nothing of the copy is readable; its rows are
// deleted in the background (Store.Purge). Nothing is copied again until
// Refresh or a login (Store.Grant).
func (m *Manager) Forget(ctx context.Context, k Key) error {
	m.mu.Lock()
	delete(m.used, k)
	delete(m.again, k)
	if stop := m.stop[k]; stop != nil {
		stop()
	}
	m.mu.Unlock()
	if err := m.syncer.Store.MarkForgotten(ctx, k); err != nil {
		return err
	}
	m.purge(k)
	return nil
}

// purge deletes in the background the rows a forget of k left, unless
// this manager is at it already. A purge that fails is taken up again by
// the daily round (resumePurges) or the copy's next pass.
func (m *Manager) purge(k Key) {
	m.mu.Lock()
	if m.purging[k] || m.ctx.Err() != nil {
		m.mu.Unlock()
		return
	}
	m.purging[k] = true
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		if err := m.syncer.Store.Purge(m.ctx, k); err != nil && m.ctx.Err() == nil {
			m.log.Warn("deleting a forgotten catalogue copy failed", "seller_id", k.SellerID, "environment", k.Env, "err", err)
		}
		m.mu.Lock()
		delete(m.purging, k)
		m.mu.Unlock()
	}()
}

// resumePurges finishes the forgets whose deletes were cut short (an
// instance stopped, a failure).
func (m *Manager) resumePurges() {
	keys, err := m.syncer.Store.pendingPurges(m.ctx)
	if err != nil {
		if m.ctx.Err() == nil {
			m.log.Warn("reading the forgotten catalogue copies failed", "err", err)
		}
		return
	}
	for _, k := range keys {
		m.purge(k)
	}
}

// Lock takes the per-seller lock the sync reads under (Locker), for a
// caller about to send a request of the seller itself: one request of a
// seller is in flight at a time, whoever sends it.
func (m *Manager) Lock(ctx context.Context, sellerID int64) (unlock func(), err error) {
	return m.syncer.Lock.LockSeller(ctx, sellerID)
}

func (m *Manager) start(k Key, src Source, minAge time.Duration) {
	m.mu.Lock()
	if m.running[k] || m.ctx.Err() != nil {
		m.mu.Unlock()
		return
	}
	m.running[k] = true
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		for {
			ctx, cancel := context.WithCancel(m.ctx)
			m.mu.Lock()
			m.stop[k] = cancel
			m.mu.Unlock()
			y := *m.syncer
			y.MinAge = minAge
			var failed bool
			select {
			case m.passes <- struct{}{}:
				renewed, err := y.run(ctx, k, src)
				if err != nil && ctx.Err() == nil {
					failed = true
					m.log.Warn("catalogue sync stopped", "seller_id", k.SellerID, "environment", k.Env, "err", err)
					if o := m.syncer.Observer; o != nil {
						o.SyncStopped(StopReason(err))
					}
				} else if ps, ok := src.(PromotionSource); ok && err == nil {
					// The promotions after the catalogue; a profile without
					// them reads nothing.
					if err := y.Store.SyncPromotions(ctx, k, y.Lock, ps); err != nil && ctx.Err() == nil && !errors.Is(err, apiclient.ErrNotSupported) {
						m.log.Warn("promotions sync failed", "seller_id", k.SellerID, "environment", k.Env, "err", err)
					}
				}
				<-m.passes
				if ctx.Err() == nil {
					m.settle(k, src, renewed, err)
				}
			case <-ctx.Done(): // forgotten or closed while waiting its turn
			}
			cancel()
			m.mu.Lock()
			delete(m.stop, k)
			r, again := m.again[k]
			delete(m.again, k)
			if !again || (r.onFailure && !failed) || m.ctx.Err() != nil {
				delete(m.running, k)
				m.mu.Unlock()
				return
			}
			m.mu.Unlock()
			src, minAge = r.src, r.minAge
		}
	}()
}

// schedule refreshes the copies in use every interval and, at start and
// once a day, finishes the forgets cut short, deletes the copies unused
// for UnusedFor and prunes the observed prices.
func (m *Manager) schedule() {
	defer m.wg.Done()
	tick := time.NewTicker(m.interval)
	defer tick.Stop()
	lastExpiry := time.Time{}
	for {
		if now := m.syncer.now(); now.Sub(lastExpiry) >= 24*time.Hour {
			lastExpiry = now
			m.resumePurges()
			if n, err := m.syncer.Store.DeleteUnused(m.ctx); err != nil && m.ctx.Err() == nil {
				m.log.Warn("deleting unused catalogue copies failed", "err", err)
			} else if n > 0 {
				m.log.Info("deleted catalogue copies unused for 30 days", "copies", n)
			}
			if _, err := m.syncer.Store.PrunePricePoints(m.ctx); err != nil && m.ctx.Err() == nil {
				m.log.Warn("pruning observed prices failed", "err", err)
			}
		}
		select {
		case <-m.ctx.Done():
			return
		case <-tick.C:
		}
		m.tick()
	}
}

// tick starts the refresh of every copy used within the last interval.
func (m *Manager) tick() {
	now := m.syncer.now()
	m.mu.Lock()
	since := m.lastTick
	m.lastTick = now
	var due []Key
	var srcs []Source
	for k, u := range m.used {
		if now.Sub(u.at) > m.keepFor {
			delete(m.used, k)
			continue
		}
		// Only the copies used since the previous pass (within the last
		// interval) are refreshed on schedule: a session holding many
		// accounts keeps syncing just those it works on; the others catch
		// up when next opened (Use).
		if u.at.Before(since) {
			continue
		}
		// The credentials known to work, whichever session viewed a
		// page last; the latest viewer's only while none is known.
		src := u.src
		if src == nil {
			src = u.next
		}
		if src == nil {
			continue
		}
		due = append(due, k)
		srcs = append(srcs, src)
	}
	m.mu.Unlock()
	for i, k := range due {
		// A little under the interval: the pass that finished one tick
		// ago is due again.
		m.start(k, srcs[i], m.interval*9/10)
	}
}

// Close stops the scheduler and the running syncs (they resume from the
// database next time) and waits for them.
func (m *Manager) Close() {
	m.cancel()
	m.wg.Wait()
}
