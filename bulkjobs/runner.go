package bulkjobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Executor talks to the marketplace for the runner. The dashboard provides
// it: it builds the client from the job's session, holds the per-seller
// lock around each request and maps the marketplace's answers.
type Executor interface {
	// Send sends one chunk and reports each row's outcome by Seq. wait is
	// called (without blocking) whenever the client waits out a 429 or 503.
	// Errors: ErrLoggedOut, *RetryLater, ErrOutcomeUnknown, or any other
	// error (the job stops; its message is shown).
	Send(ctx context.Context, job Job, items []Item, wait func(until time.Time, status int)) ([]Result, error)
	// ReadBack re-reads the rows from the marketplace and compares them with
	// what was sent.
	ReadBack(ctx context.Context, job Job, items []Item) ([]Result, error)
}

// Result is the marketplace's answer about one row.
type Result struct {
	Seq     int
	State   string    // item state (Send) or read-back result (ReadBack)
	Message i18n.Msgs // marketplace message, or what the read-back found
	// Unchanged (ReadBack) is true when the marketplace still shows the
	// value the preview found: nobody changed the row since, so sending it
	// again overwrites nothing.
	Unchanged bool
}

// ErrLoggedOut means the job's session is gone: the job stops.
var ErrLoggedOut = errors.New("not sent: logged out")

// ErrOutcomeUnknown means a chunk was sent but no answer came back.
var ErrOutcomeUnknown = errors.New("sent, but no answer came back")

// RetryLater means the marketplace refused the chunk before processing it
// (429/503) and named when to come back.
type RetryLater struct {
	At     time.Time
	Status int
}

func (e *RetryLater) Error() string {
	return "the marketplace is busy until " + e.At.Format(time.TimeOnly)
}

// StopError carries the message shown for a job stopped by a failure.
type StopError struct{ Message i18n.Msgs }

func (e *StopError) Error() string { return e.Message.String() }

// RunnerOptions tune the runner.
type RunnerOptions struct {
	// ReadBackDelay is how long after a job the rows are re-read
	// (marketplaces apply prices asynchronously). Zero means at once.
	ReadBackDelay time.Duration
	// GuardPercent is the fat-finger guard of previews: a change beyond
	// ± this percentage needs an explicit confirmation. Zero means 50;
	// negative turns the guard off.
	GuardPercent int
	// Poll is how often a waiting job looks for a cancel; default 250 ms.
	Poll time.Duration
	// Lease is how long a runner holds a job without renewing its lease
	// (renewed before every chunk and while waiting). It must exceed the
	// longest a chunk can take (the retry budget, 60 s by default, plus
	// the request timeout): another dashboard on the same database takes
	// the job over only once the lease has expired. Default 3 minutes.
	Lease time.Duration
	// Owner names this dashboard instance in job leases. It must be stable
	// across restarts of one instance, so that a restarted instance takes
	// back its own jobs at once instead of waiting for its dead lease to
	// expire, and unique among the instances sharing a database. Empty
	// means a random name (a restart then waits for the lease).
	Owner string
	// Sweep is how often the runner looks for work left by a dashboard
	// that stopped without releasing its jobs (a crash), and removes old
	// previews. Default 30 s.
	Sweep time.Duration
	// PreviewMaxAge is how long a preview never submitted is kept; the
	// sweep deletes older ones in batches. Zero means 7 days; negative
	// keeps them.
	PreviewMaxAge time.Duration
	// Now is the clock the dashboard stamps jobs with (Job.CreatedAt): a
	// preview's age is measured on it, so a dashboard on the sandbox's
	// clock (demo mode, tests) never finds its fresh previews weeks old.
	// Nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
	// Observer, when set, is told of the rows' outcomes as they are
	// stored and of each wait the marketplace asks a job for (metrics);
	// nil observes nothing.
	Observer Observer
}

// previewBatch bounds one cleanup transaction.
const previewBatch = 200

// Live is what the runner knows about a job beyond the database: whether a
// goroutine works on it and the wait it is in, if any.
type Live struct {
	Running   bool
	WaitUntil time.Time
	Status    int
}

// Runner sends submitted jobs in the background, one goroutine per job;
// sequencing per seller is the Executor's lock. State is in the Store after
// every chunk, so a new Runner on the same database resumes where the last
// one stopped, from the first chunk not acknowledged.
type Runner struct {
	store *Store
	opts  RunnerOptions
	log   *slog.Logger

	mu      sync.Mutex
	exec    Executor
	observe func(ctx context.Context, event string, j Job, items []Item)
	live    map[string]*Live
	started bool
	closing bool
	hard    context.Context // cancelled when Close gives up waiting
	kill    context.CancelFunc
	stop    chan struct{} // closed by Close: finish the current chunk and return
	wg      sync.WaitGroup
	owner   string // this runner's name in job leases
}

// NewRunner returns a runner over store. It does nothing until Bind and
// Start.
func NewRunner(store *Store, opts RunnerOptions) *Runner {
	if opts.Poll <= 0 {
		opts.Poll = 250 * time.Millisecond
	}
	if opts.GuardPercent == 0 {
		opts.GuardPercent = 50
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Lease <= 0 {
		opts.Lease = 3 * time.Minute
	}
	if opts.Sweep <= 0 {
		opts.Sweep = 30 * time.Second
	}
	if opts.PreviewMaxAge == 0 {
		opts.PreviewMaxAge = 7 * 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	owner := opts.Owner
	if owner == "" {
		var b [12]byte
		_, _ = rand.Read(b[:])
		owner = hex.EncodeToString(b[:])
	}
	hard, kill := context.WithCancel(context.Background())
	return &Runner{store: store, opts: opts, log: log, live: map[string]*Live{}, hard: hard, kill: kill, stop: make(chan struct{}),
		owner: owner}
}

// Events passed to an observer (see Observe).
const (
	EventFinished = "finished" // a run ended: done, cancelled or stopped
	EventReadBack = "readback" // a read-back was done
)

// Observe sets fn to be called after a run ends and after a read-back,
// with the job and all its rows (the audit trail records them). fn runs
// on the job's goroutine and must not block for long.
func (r *Runner) Observe(fn func(ctx context.Context, event string, j Job, items []Item)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.observe = fn
}

// notify passes a job and its rows to the observer, if there is one.
func (r *Runner) notify(ctx context.Context, event string, j Job) {
	r.mu.Lock()
	fn := r.observe
	r.mu.Unlock()
	if fn == nil {
		return
	}
	items, err := r.store.Items(ctx, j.ID)
	if err != nil {
		r.log.Warn("bulk job: rows not read for the audit trail", "job", j.ID, "err", err)
		return
	}
	fn(ctx, event, j, items)
}

// GuardPercent is the fat-finger guard of previews (0 = off).
func (r *Runner) GuardPercent() int { return max(r.opts.GuardPercent, 0) }

// Store returns the runner's job store.
func (r *Runner) Store() *Store { return r.store }

// Bind sets the executor (the dashboard calls it when it registers its
// routes).
func (r *Runner) Bind(e Executor) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exec = e
}

// Start resumes every unfinished job and read-back found in the store.
func (r *Runner) Start(ctx context.Context) error {
	r.mu.Lock()
	if r.exec == nil {
		r.mu.Unlock()
		return errors.New("bulkjobs: runner started before an executor was bound")
	}
	r.started = true
	r.mu.Unlock()
	if err := r.resume(ctx, true); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return nil
	}
	r.wg.Add(1)
	go r.sweepLoop()
	return nil
}

// resume kicks every pending job no goroutine of this runner works on;
// those leased by another dashboard are left to it (the claim fails).
func (r *Runner) resume(ctx context.Context, starting bool) error {
	jobs, err := r.store.Pending(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if r.Live(j.ID).Running {
			continue
		}
		if starting {
			r.log.Info("resuming bulk job", "job", j.ID, "state", j.State, "next_chunk", j.NextChunk, "chunks", j.Chunks)
		}
		r.Kick(j.ID)
	}
	return nil
}

// sweepLoop, every Sweep, resumes jobs whose lease expired (their
// dashboard died) and deletes old previews.
func (r *Runner) sweepLoop() {
	defer r.wg.Done()
	t := time.NewTicker(r.opts.Sweep)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
		}
		if err := r.resume(r.hard, false); err != nil && r.hard.Err() == nil {
			r.log.Warn("bulk jobs: sweep", "err", err)
		}
		if _, err := r.CleanPreviews(r.hard); err != nil && r.hard.Err() == nil {
			r.log.Warn("bulk jobs: preview cleanup", "err", err)
		}
	}
}

// CleanPreviews deletes previews never submitted older than
// PreviewMaxAge, in batches, stopping early when the runner closes. The
// sweep calls it; it reports how many it removed.
func (r *Runner) CleanPreviews(ctx context.Context) (int, error) {
	if r.opts.PreviewMaxAge < 0 {
		return 0, nil
	}
	before := r.opts.Now().Add(-r.opts.PreviewMaxAge)
	total := 0
	for !r.stopping() {
		n, err := r.store.DeletePreviewsBefore(ctx, before, previewBatch)
		total += n
		if err != nil || n < previewBatch {
			if total > 0 {
				r.log.Info("bulk jobs: old previews deleted", "count", total)
			}
			return total, err
		}
	}
	return total, nil
}

// Kick makes sure a goroutine works on the job (after a submit, a retry or
// a read-back request).
func (r *Runner) Kick(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started || r.closing {
		return
	}
	if l, ok := r.live[id]; ok && l.Running {
		return
	}
	r.live[id] = &Live{Running: true}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.live, id)
			r.mu.Unlock()
		}()
		if err := r.run(id); errors.Is(err, errLeaseLost) {
			r.log.Warn("bulk job taken over by another dashboard", "job", id)
		} else if err != nil && !errors.Is(err, errStopping) {
			r.log.Error("bulk job failed", "job", id, "err", err)
		}
	}()
}

// Live reports the in-memory state of a job.
func (r *Runner) Live(id string) Live {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l, ok := r.live[id]; ok {
		return *l
	}
	return Live{}
}

func (r *Runner) setWait(id string, until time.Time, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l, ok := r.live[id]; ok {
		l.WaitUntil, l.Status = until, status
	}
}

// Close stops the runner: every job finishes (and records) the chunk in
// flight and stops there, to be resumed by the next Start. When ctx ends
// first, requests in flight are cancelled (their chunks stay unacknowledged
// and are sent again on resume).
func (r *Runner) Close(ctx context.Context) error {
	r.mu.Lock()
	if !r.closing {
		r.closing = true
		close(r.stop)
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		r.kill()
		return nil
	case <-ctx.Done():
		r.kill()
		<-done
		return ctx.Err()
	}
}

var errStopping = errors.New("bulkjobs: runner stopping")

func (r *Runner) stopping() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// sleep waits for d, a stop, or (checked every Poll, when id is set) a
// cancel request, keeping the lease.
func (r *Runner) sleep(id string, until time.Time, l *lease) error {
	for {
		d := time.Until(until)
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(min(d, r.opts.Poll, r.opts.Lease/4))
		select {
		case <-r.stop:
			t.Stop()
			return errStopping
		case <-t.C:
		}
		if err := l.renew(false); err != nil {
			return err
		}
		if id != "" {
			j, err := r.store.Job(r.hard, id)
			if err == nil && j.CancelRequested && j.Active() {
				return nil
			}
		}
	}
}

var errLeaseLost = errors.New("bulkjobs: lease lost to another dashboard")

// lease is a runner goroutine's hold on one job.
type lease struct {
	r     *Runner
	id    string
	until time.Time
}

// renew extends the lease when less than half of it is left (or always
// with force); it fails with errLeaseLost when another owner took it.
func (l *lease) renew(force bool) error {
	now := time.Now()
	if !force && l.until.Sub(now) > l.r.opts.Lease/2 {
		return nil
	}
	until := now.Add(l.r.opts.Lease)
	ok, err := l.r.store.Claim(l.r.hard, l.id, l.r.owner, now, until)
	if err != nil {
		return err
	}
	if !ok {
		return errLeaseLost
	}
	l.until = until
	return nil
}

func (r *Runner) run(id string) error {
	ctx := r.hard
	l := &lease{r: r, id: id}
	if err := l.renew(true); err != nil {
		if errors.Is(err, errLeaseLost) {
			r.log.Debug("bulk job leased by another dashboard", "job", id)
			return nil
		}
		return err
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := r.store.Release(rctx, id, r.owner); err != nil {
			r.log.Warn("bulk job: release lease", "job", id, "err", err)
		}
	}()
	j, err := r.store.Job(ctx, id)
	if err != nil {
		return err
	}
	if j.Active() {
		if err := r.send(&j, l); err != nil {
			return err
		}
	}
	if !j.ReadBackAt.IsZero() && j.ReadBackDoneAt.IsZero() {
		return r.readBack(&j, l)
	}
	return nil
}

// send runs the job's chunks from the first one not acknowledged.
func (r *Runner) send(j *Job, l *lease) error {
	ctx := r.hard
	r.mu.Lock()
	exec := r.exec
	r.mu.Unlock()
	for {
		if r.stopping() {
			return errStopping
		}
		fresh, err := r.store.Job(ctx, j.ID)
		if err != nil {
			return err
		}
		*j = fresh
		if j.CancelRequested {
			return r.finish(j, StateCancelled, i18n.Of(i18n.M("jobs.run_cancelled", nil)), i18n.Of(i18n.M("jobs.run_unsent_cancelled", nil)))
		}
		if j.InFlight == j.NextChunk+1 {
			// The last run died with this chunk in flight: never send it
			// again blindly (see resolveInFlight).
			if err := r.resolveInFlight(j, exec); err != nil {
				return err
			}
			continue
		}
		if j.NextChunk >= j.Chunks {
			return r.finish(j, StateDone, nil, nil)
		}
		items, err := r.store.ChunkItems(ctx, j.ID, j.NextChunk)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			j.NextChunk++
			if err := r.store.Save(ctx, j, nil); err != nil {
				return err
			}
			continue
		}
		// Renewed for a full lease before every chunk: no other dashboard
		// can take the job over while this chunk is in flight.
		if err := l.renew(true); err != nil {
			return err
		}
		// Recorded before sending: should this process die before the
		// answer is stored, the next run knows the outcome is unknown.
		j.State, j.WaitUntil, j.InFlight = StateRunning, time.Time{}, j.NextChunk+1
		if err := r.store.Save(ctx, j, nil); err != nil {
			return err
		}
		results, err := exec.Send(ctx, *j, items, func(until time.Time, status int) { r.setWait(j.ID, until, status) })
		r.setWait(j.ID, time.Time{}, 0)
		if ctx.Err() == nil {
			j.InFlight = 0 // answered (or refused before sending): no longer in flight
		}
		var later *RetryLater
		var stop *StopError
		switch {
		case err == nil:
			byseq := map[int]Result{}
			for _, res := range results {
				byseq[res.Seq] = res
			}
			for i := range items {
				res, ok := byseq[items[i].Seq]
				if !ok {
					res = Result{State: ItemAccepted}
				}
				items[i].State, items[i].Message = res.State, res.Message
			}
			j.NextChunk++ // acknowledged together with the rows' outcomes
			if err := r.store.Save(ctx, j, items); err != nil {
				return err
			}
			r.observeRows(items)
		case errors.As(err, &later):
			j.State, j.WaitUntil = StateWaiting, later.At
			if err := r.store.Save(ctx, j, nil); err != nil {
				return err
			}
			if o := r.opts.Observer; o != nil {
				o.Waited(later.Status, max(0, time.Until(later.At)))
			}
			r.setWait(j.ID, later.At, later.Status)
			if err := r.sleep(j.ID, later.At, l); err != nil {
				return err
			}
		case errors.Is(err, ErrOutcomeUnknown):
			for i := range items {
				items[i].State, items[i].Message = ItemUnknown, i18n.Of(i18n.M("jobs.run_no_answer", nil))
			}
			j.NextChunk++
			if err := r.store.Save(ctx, j, items); err != nil {
				return err
			}
			r.observeRows(items)
		case errors.Is(err, ErrLoggedOut):
			return r.finish(j, StateStopped, i18n.Of(i18n.M("jobs.run_logged_out", nil)), i18n.Of(i18n.M("jobs.run_unsent_logged_out", nil)))
		case ctx.Err() != nil:
			return errStopping // Close gave up waiting: the chunk stays unacknowledged
		case errors.As(err, &stop):
			return r.finish(j, StateStopped, i18n.Of(i18n.M("jobs.run_stopped", map[string]any{"Why": stop.Message})),
				i18n.Of(i18n.M("jobs.run_unsent_stopped", map[string]any{"Why": stop.Message})))
		default:
			r.log.Error("bulk job chunk failed", "job", j.ID, "chunk", j.NextChunk, "err", err)
			return r.finish(j, StateStopped, i18n.Of(i18n.M("jobs.run_refused", nil)), i18n.Of(i18n.M("jobs.run_unsent_stopped_job", nil)))
		}
	}
}

// resolveInFlight settles the chunk a dead run left in flight, before
// anything is sent again: its rows are read back. A row the marketplace
// shows applied is accepted; one it shows as the preview found it (nobody
// changed it since) stays queued and is sent again; one changed since the
// preview is held (sending would overwrite someone's change); one still
// processing or not read is left unknown for the read-back. Nothing of the
// chunk is resent when the read-back fails.
func (r *Runner) resolveInFlight(j *Job, exec Executor) error {
	ctx := r.hard
	items, err := r.store.ChunkItems(ctx, j.ID, j.NextChunk)
	if err != nil {
		return err
	}
	r.log.Warn("bulk job: resuming a chunk left in flight; reading it back before sending", "job", j.ID, "chunk", j.NextChunk, "rows", len(items))
	var results []Result
	if len(items) > 0 {
		results, err = exec.ReadBack(ctx, *j, items)
	}
	if err != nil {
		if ctx.Err() != nil {
			return errStopping
		}
		r.log.Warn("bulk job: read-back of the chunk left in flight failed; not sending it again", "job", j.ID, "err", err)
		for i := range items {
			items[i].State, items[i].Message = ItemUnknown, i18n.Of(i18n.M("jobs.run_recover_unread", nil))
		}
		j.NextChunk++
		j.InFlight = 0
		return r.store.Save(ctx, j, items)
	}
	byseq := make(map[int]Result, len(results))
	for _, res := range results {
		byseq[res.Seq] = res
	}
	for i := range items {
		res, ok := byseq[items[i].Seq]
		switch {
		case ok && res.State == ReadConfirmed:
			items[i].State, items[i].Message = ItemAccepted, i18n.Of(i18n.M("jobs.run_recover_applied", nil))
			items[i].ReadBack, items[i].ReadBackText = res.State, res.Message
		case ok && res.State == ReadDifferent && res.Unchanged:
			items[i].Message = nil // not applied and not changed since the preview: sent again below
		case ok && res.State == ReadDifferent:
			items[i].State, items[i].Message = ItemHeld, i18n.Of(i18n.M("jobs.run_recover_changed", map[string]any{"Now": res.Message}))
		case ok && res.State == ReadMissing:
			items[i].State, items[i].Message = ItemUnsent, i18n.Of(i18n.M("jobs.run_recover_gone", nil))
		default:
			items[i].State, items[i].Message = ItemUnknown, i18n.Of(i18n.M("jobs.run_recover_processing", nil))
		}
	}
	j.InFlight = 0
	return r.store.Save(ctx, j, items)
}

// finish ends a run: rows still queued become unsent with note, and the
// read-back is scheduled when anything was sent.
func (r *Runner) finish(j *Job, state string, reason, note i18n.Msgs) error {
	ctx := r.hard
	var rest []Item
	if len(note) > 0 {
		all, err := r.store.Items(ctx, j.ID)
		if err != nil {
			return err
		}
		for _, it := range all {
			if it.State == ItemQueued {
				it.State, it.Message = ItemUnsent, note
				rest = append(rest, it)
			}
		}
	}
	now := time.Now()
	j.State, j.StopReason, j.FinishedAt, j.WaitUntil = state, reason, now, time.Time{}
	if err := r.store.Save(ctx, j, rest); err != nil {
		return err
	}
	r.observeRows(rest)
	if j.Counts.Accepted+j.Counts.Unknown > 0 {
		j.ReadBackAt = now.Add(r.opts.ReadBackDelay)
		j.ReadBackDoneAt = time.Time{}
		if err := r.store.Save(ctx, j, nil); err != nil {
			return err
		}
	}
	r.log.Info("bulk job finished", "job", j.ID, "state", state, "accepted", j.Counts.Accepted, "rejected", j.Counts.Rejected, "unsent", j.Counts.Unsent)
	r.notify(ctx, EventFinished, *j)
	return nil
}

func (r *Runner) readBack(j *Job, l *lease) error {
	if err := r.sleep("", j.ReadBackAt, l); err != nil {
		return err
	}
	if err := l.renew(true); err != nil {
		return err
	}
	ctx := r.hard
	r.mu.Lock()
	exec := r.exec
	r.mu.Unlock()
	all, err := r.store.Items(ctx, j.ID)
	if err != nil {
		return err
	}
	var items []Item
	for _, it := range all {
		if it.State == ItemAccepted || it.State == ItemUnknown {
			items = append(items, it)
		}
	}
	results, err := exec.ReadBack(ctx, *j, items)
	if err != nil {
		if ctx.Err() != nil {
			return errStopping
		}
		msg := i18n.Of(i18n.M("jobs.run_readback_failed", nil))
		if errors.Is(err, ErrLoggedOut) {
			msg = i18n.Of(i18n.M("jobs.run_readback_logged_out", nil))
		}
		r.log.Warn("bulk job read-back failed", "job", j.ID, "err", err)
		fresh, ferr := r.store.Job(ctx, j.ID)
		if ferr != nil {
			return ferr
		}
		fresh.ReadBackDoneAt = time.Now()
		if len(fresh.StopReason) == 0 {
			fresh.StopReason = msg
		}
		return r.store.Save(ctx, &fresh, nil)
	}
	byseq := map[int]Result{}
	for _, res := range results {
		byseq[res.Seq] = res
	}
	for i := range items {
		if res, ok := byseq[items[i].Seq]; ok {
			items[i].ReadBack, items[i].ReadBackText = res.State, res.Message
			if items[i].State == ItemUnknown && res.State == ReadConfirmed {
				items[i].State, items[i].Message = ItemAccepted, i18n.Of(i18n.M("jobs.run_found_applied", nil))
			}
		}
	}
	fresh, err := r.store.Job(ctx, j.ID)
	if err != nil {
		return err
	}
	fresh.ReadBackDoneAt = time.Now()
	*j = fresh
	if err := r.store.Save(ctx, j, items); err != nil {
		return err
	}
	r.notify(ctx, EventReadBack, *j)
	return nil
}

// RequestReadBack schedules a new read-back of a finished job now.
func (r *Runner) RequestReadBack(ctx context.Context, id string) error {
	j, err := r.store.Job(ctx, id)
	if err != nil {
		return err
	}
	if j.Active() || j.State == StatePreview {
		return nil
	}
	j.ReadBackAt, j.ReadBackDoneAt = time.Now(), time.Time{}
	if err := r.store.Save(ctx, &j, nil); err != nil {
		return err
	}
	r.Kick(id)
	return nil
}
