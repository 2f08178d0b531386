package bulkjobs

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// rowRecorder is an Observer that keeps what it was told.
type rowRecorder struct {
	mu    sync.Mutex
	rows  map[string]int
	waits []int
}

func (r *rowRecorder) Rows(state string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rows[state] += n
}

func (r *rowRecorder) Waited(status int, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, status)
}

// busyOnceExec answers its first chunk "wait" (a 429), then accepts
// every row but the first of each chunk, which it rejects.
type busyOnceExec struct {
	countingExec
	once sync.Once
}

func (e *busyOnceExec) Send(ctx context.Context, job Job, items []Item, wait func(time.Time, int)) ([]Result, error) {
	busy := false
	e.once.Do(func() { busy = true })
	if busy {
		return nil, &RetryLater{At: time.Now().Add(50 * time.Millisecond), Status: 429}
	}
	return []Result{{Seq: items[0].Seq, State: ItemRejected}}, nil
}

// The runner tells its Observer each chunk's rows by outcome and the wait
// a 429 asked for; CountByState counts the jobs by state.
func TestRunnerObserver(t *testing.T) {
	s := newStore(t, sqldbtest.SQLite(t))
	rec := &rowRecorder{rows: map[string]int{}}
	exec := &busyOnceExec{countingExec: countingExec{sent: map[string]int{}}}
	j := newTestJob(t, s, 9, StateQueued, time.Now(), 10, 5)
	newTestJob(t, s, 9, StatePreview, time.Now(), 3, 5)
	r := startRunner(t, s, exec, RunnerOptions{Sweep: 10 * time.Millisecond, Poll: 10 * time.Millisecond, Observer: rec})
	r.Kick(j.ID)
	waitFor(t, s, j.ID, "done", func(j Job) bool { return j.State == StateDone })
	rec.mu.Lock()
	rows, waits := rec.rows, rec.waits
	rec.mu.Unlock()
	if rows[ItemAccepted] != 8 || rows[ItemRejected] != 2 || len(rows) != 2 {
		t.Errorf("rows by outcome %v, want 8 accepted and 2 rejected", rows)
	}
	if len(waits) != 1 || waits[0] != 429 {
		t.Errorf("waits %v, want one 429", waits)
	}
	byState, err := s.CountByState(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if byState[StateDone] != 1 || byState[StatePreview] != 1 {
		t.Errorf("jobs by state %v, want one done and one preview", byState)
	}
}
