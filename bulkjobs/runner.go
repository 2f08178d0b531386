package bulkjobs

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
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
	State   string // item state (Send) or read-back result (ReadBack)
	Message string // marketplace message, or what the read-back found
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
type StopError struct{ Message string }

func (e *StopError) Error() string { return e.Message }

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
	Poll   time.Duration
	Logger *slog.Logger
}

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
	live    map[string]*Live
	started bool
	closing bool
	hard    context.Context // cancelled when Close gives up waiting
	kill    context.CancelFunc
	stop    chan struct{} // closed by Close: finish the current chunk and return
	wg      sync.WaitGroup
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
	hard, kill := context.WithCancel(context.Background())
	return &Runner{store: store, opts: opts, log: log, live: map[string]*Live{}, hard: hard, kill: kill, stop: make(chan struct{})}
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
	jobs, err := r.store.Pending(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		r.log.Info("resuming bulk job", "job", j.ID, "state", j.State, "next_chunk", j.NextChunk, "chunks", j.Chunks)
		r.Kick(j.ID)
	}
	return nil
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
		if err := r.run(id); err != nil && !errors.Is(err, errStopping) {
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

// sleep waits for d, a stop, or (checked every Poll) a cancel request.
func (r *Runner) sleep(id string, until time.Time) error {
	for {
		d := time.Until(until)
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(min(d, r.opts.Poll))
		select {
		case <-r.stop:
			t.Stop()
			return errStopping
		case <-t.C:
		}
		if id != "" {
			j, err := r.store.Job(r.hard, id)
			if err == nil && j.CancelRequested && j.Active() {
				return nil
			}
		}
	}
}

func (r *Runner) run(id string) error {
	ctx := r.hard
	j, err := r.store.Job(ctx, id)
	if err != nil {
		return err
	}
	if j.Active() {
		if err := r.send(&j); err != nil {
			return err
		}
	}
	if !j.ReadBackAt.IsZero() && j.ReadBackDoneAt.IsZero() {
		return r.readBack(&j)
	}
	return nil
}

// send runs the job's chunks from the first one not acknowledged.
func (r *Runner) send(j *Job) error {
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
			return r.finish(j, StateCancelled, "Cancelled: the rows after the last answered batch were not sent.", "not sent: cancelled")
		}
		if j.NextChunk >= j.Chunks {
			return r.finish(j, StateDone, "", "")
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
		if j.State != StateRunning || !j.WaitUntil.IsZero() {
			j.State, j.WaitUntil = StateRunning, time.Time{}
			if err := r.store.Save(ctx, j, nil); err != nil {
				return err
			}
		}
		results, err := exec.Send(ctx, *j, items, func(until time.Time, status int) { r.setWait(j.ID, until, status) })
		r.setWait(j.ID, time.Time{}, 0)
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
		case errors.As(err, &later):
			j.State, j.WaitUntil = StateWaiting, later.At
			if err := r.store.Save(ctx, j, nil); err != nil {
				return err
			}
			r.setWait(j.ID, later.At, later.Status)
			if err := r.sleep(j.ID, later.At); err != nil {
				return err
			}
		case errors.Is(err, ErrOutcomeUnknown):
			for i := range items {
				items[i].State, items[i].Message = ItemUnknown, "Sent, but no answer came back: the read-back tells whether it was applied."
			}
			j.NextChunk++
			if err := r.store.Save(ctx, j, items); err != nil {
				return err
			}
		case errors.Is(err, ErrLoggedOut):
			return r.finish(j, StateStopped, "Stopped: the session that started the job logged out.", ErrLoggedOut.Error())
		case ctx.Err() != nil:
			return errStopping // Close gave up waiting: the chunk stays unacknowledged
		case errors.As(err, &stop):
			return r.finish(j, StateStopped, "Stopped: "+stop.Message, "not sent: "+stop.Message)
		default:
			r.log.Error("bulk job chunk failed", "job", j.ID, "chunk", j.NextChunk, "err", err)
			return r.finish(j, StateStopped, "Stopped: the marketplace refused the request.", "not sent: the job stopped")
		}
	}
}

// finish ends a run: rows still queued become unsent with note, and the
// read-back is scheduled when anything was sent.
func (r *Runner) finish(j *Job, state, reason, note string) error {
	ctx := r.hard
	var rest []Item
	if note != "" {
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
	if j.Counts.Accepted+j.Counts.Unknown > 0 {
		j.ReadBackAt = now.Add(r.opts.ReadBackDelay)
		j.ReadBackDoneAt = time.Time{}
		if err := r.store.Save(ctx, j, nil); err != nil {
			return err
		}
	}
	r.log.Info("bulk job finished", "job", j.ID, "state", state, "accepted", j.Counts.Accepted, "rejected", j.Counts.Rejected, "unsent", j.Counts.Unsent)
	return nil
}

func (r *Runner) readBack(j *Job) error {
	if err := r.sleep("", j.ReadBackAt); err != nil {
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
		msg := "Read-back failed: the marketplace could not be read."
		if errors.Is(err, ErrLoggedOut) {
			msg = "Read-back not done: logged out."
		}
		r.log.Warn("bulk job read-back failed", "job", j.ID, "err", err)
		fresh, ferr := r.store.Job(ctx, j.ID)
		if ferr != nil {
			return ferr
		}
		fresh.ReadBackDoneAt = time.Now()
		if fresh.StopReason == "" {
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
				items[i].State, items[i].Message = ItemAccepted, "No answer came, but the read-back found it applied."
			}
		}
	}
	fresh, err := r.store.Job(ctx, j.ID)
	if err != nil {
		return err
	}
	fresh.ReadBackDoneAt = time.Now()
	*j = fresh
	return r.store.Save(ctx, j, items)
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
