package bulkjobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// eachBackend runs fn against a fresh SQLite file and, when
// SELLERDESK_TEST_POSTGRES_URL is set, against a fresh schema of that
// PostgreSQL server. open returns another Store on the same database, as
// a second dashboard would have: with PostgreSQL on its own DB (its own
// pool); with SQLite on the process's one DB, as a process owns its file.
func eachBackend(t *testing.T, fn func(t *testing.T, open func() *Store)) {
	t.Run("sqlite", func(t *testing.T) {
		db := sqldbtest.SQLite(t)
		fn(t, func() *Store { return newStore(t, db) })
	})
	t.Run("postgres", func(t *testing.T) {
		url := sqldbtest.PostgresURL(t)
		fn(t, func() *Store {
			db, err := sqldb.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return newStore(t, db)
		})
	})
}

func newStore(t *testing.T, db *sqldb.DB) *Store {
	t.Helper()
	s, err := NewStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func randID(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// newTestJob stores a job of n rows in chunks of size chunk, in state.
func newTestJob(t *testing.T, s *Store, seller int64, state string, created time.Time, n, chunk int) Job {
	t.Helper()
	j := Job{ID: randID(t), Kind: "prices", State: state, SessionRef: "ref", ClientID: "c", Environment: "test", SellerID: seller,
		FileName: "f.csv", GuardPercent: 50, ChunkSize: chunk, CreatedAt: created}
	items := make([]Item, n)
	for i := range items {
		items[i] = Item{Seq: i + 1, Line: i + 2, Key: fmt.Sprintf("SKU%d", i), Flag: FlagOK, Chunk: -1, State: ItemSkipped, Payload: "{}", Typed: "{}", Current: "{}"}
		if state != StatePreview {
			items[i].Chunk, items[i].State = i/chunk, ItemQueued
		}
	}
	if state != StatePreview {
		j.Chunks, j.SubmittedAt = (n+chunk-1)/chunk, created
	}
	if err := s.CreateJob(context.Background(), &j, items); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Delete(context.Background(), j.ID) })
	return j
}

func TestStoreJobRoundTrip(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		seller := time.Now().UnixNano() % 1e9
		j := newTestJob(t, s, seller, StateQueued, time.Now(), 25, 10)
		if j.Counts.Queued != 25 || j.Chunks != 3 {
			t.Fatalf("created: %+v chunks %d", j.Counts, j.Chunks)
		}
		items, err := s.ChunkItems(ctx, j.ID, 2)
		if err != nil || len(items) != 5 || items[0].Seq != 21 {
			t.Fatalf("chunk 2: %d items, %v", len(items), err)
		}
		items[0].State, items[0].Message = ItemRejected, i18n.Plain("no")
		j.NextChunk, j.State = 1, StateRunning
		if err := s.Save(ctx, &j, items[:1]); err != nil {
			t.Fatal(err)
		}
		if err := s.RequestCancel(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		got, err := s.Job(ctx, j.ID)
		if err != nil || got.NextChunk != 1 || got.State != StateRunning || !got.CancelRequested || got.Counts.Rejected != 1 || got.Counts.Queued != 24 {
			t.Fatalf("reloaded: %+v %v", got, err)
		}
		list, total, err := s.Jobs(ctx, seller, "test", 10, 0)
		if err != nil || total != 1 || len(list) != 1 || list[0].Counts.Rows != 25 {
			t.Fatalf("jobs: %d %d %v", total, len(list), err)
		}
		// The same seller in production is another marketplace account.
		if list, total, err := s.Jobs(ctx, seller, "production", 10, 0); err != nil || total != 0 || len(list) != 0 {
			t.Fatalf("production jobs of a test-environment seller: %d %d %v", total, len(list), err)
		}
		if _, err := s.Job(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("missing job: %v", err)
		}
	})
}

func TestStoreLease(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		j := newTestJob(t, s, 1, StateQueued, time.Now(), 1, 1)
		now := time.Now()
		claim := func(owner string, at time.Time) bool {
			ok, err := s.Claim(ctx, j.ID, owner, at, at.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !claim("a", now) {
			t.Fatal("a cannot claim a free job")
		}
		if !claim("a", now) {
			t.Fatal("a cannot renew its own claim")
		}
		if claim("b", now.Add(30*time.Second)) {
			t.Fatal("b took a lease that has not expired")
		}
		if !claim("b", now.Add(61*time.Second)) {
			t.Fatal("b cannot take an expired lease")
		}
		if err := s.Release(ctx, j.ID, "a"); err != nil {
			t.Fatal(err)
		}
		if owner, _, _ := s.Lease(ctx, j.ID); owner != "b" {
			t.Fatalf("a released b's lease: owner %q", owner)
		}
		if err := s.Release(ctx, j.ID, "b"); err != nil {
			t.Fatal(err)
		}
		if !claim("c", now) {
			t.Fatal("a released job cannot be claimed")
		}
	})
}

func TestStoreDeletePreviewsBefore(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
		var olds []Job
		for i := range 5 {
			olds = append(olds, newTestJob(t, s, 7, StatePreview, old.Add(time.Duration(i)*time.Minute), 3, 10))
		}
		submitted := newTestJob(t, s, 7, StateDone, old, 3, 10)
		fresh := newTestJob(t, s, 7, StatePreview, time.Now(), 3, 10)
		cut := old.Add(24 * time.Hour)
		var got []int
		for {
			n, err := s.DeletePreviewsBefore(ctx, cut, 2)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, n)
			if n < 2 {
				break
			}
		}
		if fmt.Sprint(got) != "[2 2 1]" {
			t.Errorf("batches %v, want [2 2 1]", got)
		}
		for _, j := range olds {
			if _, err := s.Job(ctx, j.ID); !errors.Is(err, ErrNotFound) {
				t.Errorf("old preview %s kept: %v", j.ID, err)
			}
			if items, _ := s.Items(ctx, j.ID); len(items) != 0 {
				t.Errorf("old preview %s left %d rows", j.ID, len(items))
			}
		}
		for _, j := range []Job{submitted, fresh} {
			if got, err := s.Job(ctx, j.ID); err != nil || got.Counts.Rows != 3 {
				t.Errorf("job %s (%s) deleted: %v", j.ID, j.State, err)
			}
		}
	})
}

// countingExec is a fake marketplace shared by several runners: it counts
// every chunk sent, by job and chunk.
type countingExec struct {
	delay time.Duration
	mu    sync.Mutex
	sent  map[string]int
}

func (e *countingExec) Send(ctx context.Context, job Job, items []Item, wait func(time.Time, int)) ([]Result, error) {
	e.mu.Lock()
	e.sent[fmt.Sprintf("%s/%d", job.ID, items[0].Chunk)]++
	e.mu.Unlock()
	select {
	case <-time.After(e.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return nil, nil
}

func (e *countingExec) ReadBack(ctx context.Context, job Job, items []Item) ([]Result, error) {
	out := make([]Result, len(items))
	for i, it := range items {
		out[i] = Result{Seq: it.Seq, State: ReadConfirmed}
	}
	return out, nil
}

func (e *countingExec) count(key string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent[key]
}

func startRunner(t *testing.T, s *Store, exec Executor, opts RunnerOptions) *Runner {
	t.Helper()
	r := NewRunner(s, opts)
	r.Bind(exec)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return r
}

func waitFor(t *testing.T, s *Store, id, what string, ok func(Job) bool) Job {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		j, err := s.Job(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s: timed out waiting for %s: state %s, next chunk %d, %+v", id, what, j.State, j.NextChunk, j.Counts)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTwoRunnersOneDatabase: two dashboards on one database, both told
// about the same jobs (at start, by a sweep and by kicks), send every
// chunk exactly once: the job lease admits one runner at a time.
func TestTwoRunnersOneDatabase(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		s1, s2 := open(), open()
		exec := &countingExec{delay: 15 * time.Millisecond, sent: map[string]int{}}
		var jobs []Job
		for range 4 {
			jobs = append(jobs, newTestJob(t, s1, 9, StateQueued, time.Now(), 40, 5)) // 8 chunks each
		}
		opts := RunnerOptions{Sweep: 10 * time.Millisecond, Poll: 10 * time.Millisecond}
		r1 := startRunner(t, s1, exec, opts)
		r2 := startRunner(t, s2, exec, opts)
		for range 5 {
			for _, j := range jobs {
				r1.Kick(j.ID)
				r2.Kick(j.ID)
			}
			time.Sleep(5 * time.Millisecond)
		}
		for _, j := range jobs {
			got := waitFor(t, s1, j.ID, "done", func(j Job) bool { return j.State == StateDone && !j.ReadBackDoneAt.IsZero() })
			if got.Counts.Accepted != 40 {
				t.Errorf("job %s: %+v", j.ID, got.Counts)
			}
			for c := range 8 {
				if n := exec.count(fmt.Sprintf("%s/%d", j.ID, c)); n != 1 {
					t.Errorf("job %s chunk %d sent %d times, want 1", j.ID, c, n)
				}
			}
			// Released when the goroutine returns (a sweep may claim it
			// briefly again to find nothing left to do).
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				owner, _, _ := s1.Lease(context.Background(), j.ID)
				if owner == "" {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("job %s still leased by %q after it finished", j.ID, owner)
					break
				}
			}
		}
	})
}

// TestRunnerTakesOverExpiredLease: a dashboard that died mid-job (its
// lease not released) blocks the job until the lease expires; then the
// sweep of another dashboard resumes it from the next chunk.
func TestRunnerTakesOverExpiredLease(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		j := newTestJob(t, s, 11, StateQueued, time.Now(), 30, 10)
		j.State, j.NextChunk = StateRunning, 1 // chunk 0 acknowledged by the dead one
		items, _ := s.ChunkItems(ctx, j.ID, 0)
		for i := range items {
			items[i].State = ItemAccepted
		}
		if err := s.Save(ctx, &j, items); err != nil {
			t.Fatal(err)
		}
		expires := time.Now().Add(1500 * time.Millisecond)
		if ok, err := s.Claim(ctx, j.ID, "dead", time.Now(), expires); !ok || err != nil {
			t.Fatalf("claim: %v %v", ok, err)
		}
		exec := &countingExec{sent: map[string]int{}}
		startRunner(t, open(), exec, RunnerOptions{Sweep: 20 * time.Millisecond, Poll: 10 * time.Millisecond})
		time.Sleep(300 * time.Millisecond) // several sweeps
		if n := exec.count(j.ID + "/1"); n != 0 && time.Now().Before(expires) {
			t.Fatalf("sent under another dashboard's lease")
		}
		got := waitFor(t, s, j.ID, "done", func(j Job) bool { return j.State == StateDone })
		if time.Now().Before(expires) {
			t.Error("finished before the lease expired")
		}
		if exec.count(j.ID+"/0") != 0 || exec.count(j.ID+"/1") != 1 || exec.count(j.ID+"/2") != 1 || got.Counts.Accepted != 30 {
			t.Errorf("after takeover: sent %v, %+v", exec.sent, got.Counts)
		}
	})
}

// TestRunnerCleansOldPreviews: the sweep deletes previews never submitted
// once they are older than PreviewMaxAge, and nothing else.
func TestRunnerCleansOldPreviews(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		old := time.Now().Add(-8 * 24 * time.Hour)
		var olds []Job
		for range previewBatch + 5 { // more than one batch
			olds = append(olds, newTestJob(t, s, 13, StatePreview, old, 1, 10))
		}
		recent := newTestJob(t, s, 13, StatePreview, time.Now().Add(-6*24*time.Hour), 1, 10)
		done := newTestJob(t, s, 13, StateDone, old, 1, 10)
		startRunner(t, s, &countingExec{sent: map[string]int{}}, RunnerOptions{Sweep: 20 * time.Millisecond})
		deadline := time.Now().Add(20 * time.Second)
		for _, j := range olds {
			for {
				_, err := s.Job(ctx, j.ID)
				if errors.Is(err, ErrNotFound) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("preview %s older than 7 days not deleted: %v", j.ID, err)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		for _, j := range []Job{recent, done} {
			if _, err := s.Job(ctx, j.ID); err != nil {
				t.Errorf("job %s (%s) deleted: %v", j.ID, j.State, err)
			}
		}
	})
}

// TestRunnerCleansPreviewsOnTheJobsClock: previews are aged on the clock
// that stamps them (RunnerOptions.Now), not the machine's: a dashboard on
// the sandbox's clock, weeks behind the machine's, keeps a preview it has
// just made, and still deletes one older than PreviewMaxAge on that clock.
func TestRunnerCleansPreviewsOnTheJobsClock(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		clock := time.Now().Add(-30 * 24 * time.Hour) // the sandbox's day
		now := func() time.Time { return clock }
		fresh := newTestJob(t, s, 14, StatePreview, clock.Add(-time.Minute), 1, 10)
		stale := newTestJob(t, s, 14, StatePreview, clock.Add(-8*24*time.Hour), 1, 10)
		r := startRunner(t, s, &countingExec{sent: map[string]int{}}, RunnerOptions{Sweep: time.Hour, Now: now})
		n, err := r.CleanPreviews(ctx)
		if err != nil || n != 1 {
			t.Fatalf("cleaned %d (%v), want the one preview 8 days old on the jobs' clock", n, err)
		}
		if _, err := s.Job(ctx, fresh.ID); err != nil {
			t.Errorf("a preview made a minute ago on the jobs' clock was deleted: %v", err)
		}
		if _, err := s.Job(ctx, stale.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("a preview 8 days old on the jobs' clock was kept: %v", err)
		}
	})
}

// TestStoreKeepsOldDatabase: a database migrated by the previous version
// (the job tables at step 3, recorded in its own schema_version row, beside
// the sessions' row) keeps its jobs; the steps are carried over to the one
// migrations table, none runs again, and schema_version goes once the
// sessions have moved too.
func TestStoreKeepsOldDatabase(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		old := []string{`CREATE TABLE schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`}
		steps := migrations.SQLite
		if db.Postgres() {
			steps = migrations.Postgres
		}
		old = append(old, steps[:3]...)
		old = append(old, `INSERT INTO schema_version (component, version) VALUES ('bulkjobs', 3), ('sessions', 1)`,
			`INSERT INTO bulk_jobs (`+jobColumns+`) VALUES ('old-job', 'prices', 'done', '', '', '', 7, 'test', 'f.csv', '', 50, 10, 1, 1, 0, '', 0, 1, 1, 1, 0, 0, 0)`)
		for _, q := range old {
			if _, err := db.Writer().ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s := newStore(t, db)
		if j, err := s.Job(ctx, "old-job"); err != nil || j.State != StateDone || j.SellerID != 7 {
			t.Fatalf("the old job: %+v, %v", j, err)
		}
		var recorded, legacy int
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM `+sqldb.MigrationsTable+` WHERE component = 'bulkjobs'`).Scan(&recorded); err != nil || recorded != len(steps) {
			t.Fatalf("bulkjobs steps recorded: %d, %v; want %d", recorded, err, len(steps))
		}
		if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_version`).Scan(&legacy); err != nil || legacy != 1 {
			t.Fatalf("schema_version keeps %d rows (%v); want the sessions' row only", legacy, err)
		}
	})
}

// TestStoreTimesInMillis: a job's times are stored as Unix milliseconds
// on both databases (sqldb.Millis: 0 for "not yet") and read back as the
// same instants, to the millisecond, in UTC.
func TestStoreTimesInMillis(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func() *Store) {
		ctx := context.Background()
		s := open()
		created := time.Date(2026, 3, 1, 12, 0, 0, 987_654_321, time.FixedZone("MSK", 3*3600))
		j := newTestJob(t, s, 1, StateQueued, created, 1, 1)
		var createdMS, submittedMS, finishedMS int64
		if err := s.r.QueryRowContext(ctx, s.q(`SELECT created_at, submitted_at, finished_at FROM bulk_jobs WHERE id = ?`), j.ID).
			Scan(&createdMS, &submittedMS, &finishedMS); err != nil {
			t.Fatal(err)
		}
		if createdMS != created.UnixMilli() || submittedMS != created.UnixMilli() || finishedMS != 0 {
			t.Errorf("stored %d, %d, %d; want %d, %d, 0", createdMS, submittedMS, finishedMS, created.UnixMilli(), created.UnixMilli())
		}
		got, err := s.Job(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := created.Truncate(time.Millisecond).UTC()
		if !got.CreatedAt.Equal(want) || got.CreatedAt.Location() != time.UTC || !got.FinishedAt.IsZero() {
			t.Errorf("read back created %v, finished %v; want %v and the zero time", got.CreatedAt, got.FinishedAt, want)
		}
	})
}

// TestStoreReadsOldMessagesAsMsgs: rows written when messages were kept as
// text, marked in-band when encoded, read back as typed messages after the
// migration: an encoded message (with a message argument encoded inside
// it) as the message it encoded, a plain sentence as one text message, an
// empty column as none.
func TestStoreReadsOldMessagesAsMsgs(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		if err := db.Migrate(ctx, "bulkjobs", sqldb.Steps{SQLite: migrations.SQLite[:3], Postgres: migrations.Postgres[:3]}); err != nil {
			t.Fatal(err)
		}
		const mark = "\u00a7i18n:" // how the old rows marked an encoded message
		nested := mark + `[{"k":"mass.busy"}]`
		stop := mark + `[{"k":"jobs.run_stopped","a":{"Why":` + strconv.Quote(nested) + `}}]`
		w := db.Writer()
		if _, err := w.ExecContext(ctx, db.Rebind(`INSERT INTO bulk_jobs (`+jobColumns+`) VALUES ('old-job', 'prices', 'stopped', '', '', '', 7, 'test', 'f.csv', '', 50, 10, 1, 1, 0, ?, 0, 1, 1, 1, 0, 0, 0)`), stop); err != nil {
			t.Fatal(err)
		}
		for i, msg := range []string{mark + `[{"k":"mass.same_price"}]`, "Price below the minimum", ""} {
			if _, err := w.ExecContext(ctx, db.Rebind(`INSERT INTO bulk_job_items (job_id, seq, line, item_key, flag, chunk, state, old_text, new_text, old_num, new_num, has_num,
				typed, payload, current_value, message, readback, readback_text) VALUES ('old-job', ?, ?, 'SKU', 'ok', 0, 'rejected', '100.00', ?, 0, 0, 0, '{}', '{}', '{}', ?, '', '')`),
				i+1, i+2, mark+`[{"t":"90.00"}]`, msg); err != nil {
				t.Fatal(err)
			}
		}
		s := newStore(t, db)
		j, err := s.Job(ctx, "old-job")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := j.StopReason.In(i18n.EN, nil), "Stopped: the marketplace is busy"; got != want {
			t.Errorf("stop reason %q (%#v), want %q", got, j.StopReason, want)
		}
		items, err := s.Items(ctx, "old-job")
		if err != nil || len(items) != 3 {
			t.Fatalf("items %d, %v", len(items), err)
		}
		if got := items[0].Message; len(got) != 1 || got[0].Key != "mass.same_price" {
			t.Errorf("encoded message read as %#v", got)
		}
		if got := items[1].Message; len(got) != 1 || got[0].Key != "" || got[0].Text != "Price below the minimum" || !got[0].Verbatim {
			t.Errorf("plain sentence read as %#v", got)
		}
		if items[2].Message != nil {
			t.Errorf("empty message read as %#v", items[2].Message)
		}
		if got := items[0].OldText; len(got) != 1 || got[0].Text != "100.00" {
			t.Errorf("old text read as %#v", got)
		}
		if got := items[0].NewText; len(got) != 1 || got[0].Text != "90.00" {
			t.Errorf("new text read as %#v", got)
		}
	})
}
