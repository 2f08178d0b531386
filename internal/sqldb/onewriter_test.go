package sqldb_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// twoPoolsEnv makes TestOneWriterPerProcess open the job store on a second
// DB of the same file, as cmd/web did before issue 13 (two single-writer
// pools on one file): the test then shows what that arrangement does.
const twoPoolsEnv = "SQLDB_TEST_TWO_POOLS"

// TestOneWriterPerProcess: the session store and the job store share one
// SQLite file through one DB. Many goroutines at once save sessions and
// their tokens, advance bulk jobs chunk by chunk (Store.Save of items and
// state), claim their leases, and write job history (new jobs), while
// others read. No write may fail (no SQLITE_BUSY, "database is locked")
// and none may be lost: every row is counted afterwards. SQLite's busy
// timeout is shortened to 100 ms (5 s in production): within one process
// writers queue in Go and never reach it, so any write that does is seen.
func TestOneWriterPerProcess(t *testing.T) {
	defer sqldb.SetBusyTimeout(100)()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sellerdesk.db")
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	jobsDB := db
	if os.Getenv(twoPoolsEnv) != "" {
		t.Logf("%s set: the job store gets a second writer pool on the same file", twoPoolsEnv)
		if jobsDB, err = sqldb.Open(ctx, path); err != nil {
			t.Fatal(err)
		}
		defer jobsDB.Close()
	}
	backend, err := sessions.NewBackend(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	jobs, err := bulkjobs.NewStore(ctx, jobsDB)
	if err != nil {
		t.Fatal(err)
	}

	const (
		sessionWriters = 8  // each saves its session's payload and token this many times:
		sessionSaves   = 40 //
		jobRunners     = 6  // each advances its own job through all its chunks
		chunks, chunk  = 8, 25
		historyWriters = 4 // each writes this many new jobs of historyRows rows
		historyJobs    = 15
		historyRows    = 10
		readers        = 2 // each reads a session and the history this many times:
		reads          = 40
	)
	now := time.Now()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		errs   []error
		failed = func(what string, err error) {
			mu.Lock()
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
			mu.Unlock()
		}
	)

	sessionIDs := make([]string, sessionWriters)
	for i := range sessionIDs {
		sessionIDs[i] = fmt.Sprintf("session-%02d-%s", i, strings.Repeat("x", 30))
		if err := backend.Create(ctx, sessions.Record{ID: sessionIDs[i], Payload: []byte("0"), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	runJobs := make([]*bulkjobs.Job, jobRunners)
	for i := range runJobs {
		j := &bulkjobs.Job{ID: fmt.Sprintf("run-%02d", i), Kind: "prices", State: bulkjobs.StateQueued, SessionRef: sessionIDs[0], SellerID: 1,
			Environment: "test", ChunkSize: chunk, Chunks: chunks, CreatedAt: now, SubmittedAt: now}
		if err := jobs.CreateJob(ctx, j, newItems(chunks*chunk, chunk, bulkjobs.ItemQueued)); err != nil {
			t.Fatal(err)
		}
		runJobs[i] = j
	}

	for r := range readers {
		wg.Go(func() {
			for range reads {
				if _, err := backend.Load(ctx, sessionIDs[r%sessionWriters]); err != nil {
					failed("load session", err)
					return
				}
				if _, _, err := jobs.Jobs(ctx, 1, "test", 50, 0); err != nil {
					failed("list jobs", err)
					return
				}
			}
		})
	}
	for i, id := range sessionIDs {
		wg.Go(func() {
			for n := 1; n <= sessionSaves; n++ {
				seen := now.Add(time.Duration(n) * time.Millisecond)
				if err := backend.UpdatePayload(ctx, id, []byte(fmt.Sprint(n)), seen, seen.Add(time.Hour)); err != nil {
					failed(fmt.Sprintf("session %d save %d", i, n), err)
				}
				if err := backend.SaveToken(ctx, id, "seller", []byte(fmt.Sprint(n)), seen); err != nil {
					failed(fmt.Sprintf("session %d token %d", i, n), err)
				}
			}
		})
	}
	for i, j := range runJobs {
		wg.Go(func() {
			owner := fmt.Sprintf("runner-%d", i)
			j.State = bulkjobs.StateRunning
			for c := range chunks {
				if ok, err := jobs.Claim(ctx, j.ID, owner, time.Now(), time.Now().Add(time.Minute)); err != nil || !ok {
					failed(fmt.Sprintf("job %d claim", i), errors.Join(err, fmt.Errorf("claimed: %v", ok)))
				}
				items, err := jobs.ChunkItems(ctx, j.ID, c)
				if err != nil {
					failed(fmt.Sprintf("job %d chunk %d items", i, c), err)
					continue
				}
				j.InFlight = c + 1
				if err := jobs.Save(ctx, j, nil); err != nil {
					failed(fmt.Sprintf("job %d chunk %d in flight", i, c), err)
				}
				for k := range items {
					items[k].State, items[k].Message = bulkjobs.ItemAccepted, i18n.Plain("ok")
				}
				j.NextChunk, j.InFlight = c+1, 0
				if c == chunks-1 {
					j.State, j.FinishedAt = bulkjobs.StateDone, time.Now()
				}
				if err := jobs.Save(ctx, j, items); err != nil {
					failed(fmt.Sprintf("job %d chunk %d", i, c), err)
				}
			}
			if err := jobs.Release(ctx, j.ID, owner); err != nil {
				failed(fmt.Sprintf("job %d release", i), err)
			}
		})
	}
	for w := range historyWriters {
		wg.Go(func() {
			for n := range historyJobs {
				j := &bulkjobs.Job{ID: fmt.Sprintf("hist-%d-%03d", w, n), Kind: "prices", State: bulkjobs.StatePreview, SessionRef: sessionIDs[0],
					SellerID: 2, Environment: "test", ChunkSize: chunk, CreatedAt: time.Now()}
				if err := jobs.CreateJob(ctx, j, newItems(historyRows, chunk, bulkjobs.ItemSkipped)); err != nil {
					failed(fmt.Sprintf("history %d job %d", w, n), err)
				}
			}
		})
	}
	wg.Wait()

	busy := 0
	for _, err := range errs {
		if s := err.Error(); strings.Contains(s, "SQLITE_BUSY") || strings.Contains(s, "database is locked") {
			busy++
		}
	}
	if len(errs) > 0 {
		t.Errorf("%d writes or reads failed, %d of them busy; the first: %v", len(errs), busy, errs[0])
	}

	// Count every row.
	count := func(q string, args ...any) int {
		t.Helper()
		var n int
		if err := db.Reader().QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i, id := range sessionIDs {
		rec, err := backend.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint(sessionSaves); string(rec.Payload) != want || string(rec.Tokens["seller"]) != want {
			t.Errorf("session %d: payload %q, token %q; want the last save %s", i, rec.Payload, rec.Tokens["seller"], want)
		}
	}
	if n := count(`SELECT COUNT(*) FROM sessions`); n != sessionWriters {
		t.Errorf("%d sessions, want %d", n, sessionWriters)
	}
	if n := count(`SELECT COUNT(*) FROM session_tokens`); n != sessionWriters {
		t.Errorf("%d tokens, want %d", n, sessionWriters)
	}
	for i, j := range runJobs {
		got, err := jobs.Job(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.State != bulkjobs.StateDone || got.NextChunk != chunks || got.InFlight != 0 || got.Counts.Accepted != chunks*chunk || got.Counts.Queued != 0 {
			t.Errorf("job %d: state %s, next chunk %d, in flight %d, %d accepted, %d queued; want done, %d, 0, %d, 0",
				i, got.State, got.NextChunk, got.InFlight, got.Counts.Accepted, got.Counts.Queued, chunks, chunks*chunk)
		}
		if owner, _, err := jobs.Lease(ctx, j.ID); err != nil || owner != "" {
			t.Errorf("job %d: lease held by %q after release (%v)", i, owner, err)
		}
	}
	if n := count(`SELECT COUNT(*) FROM bulk_jobs WHERE seller_id = 2`); n != historyWriters*historyJobs {
		t.Errorf("%d history jobs, want %d", n, historyWriters*historyJobs)
	}
	if n, want := count(`SELECT COUNT(*) FROM bulk_job_items`), jobRunners*chunks*chunk+historyWriters*historyJobs*historyRows; n != want {
		t.Errorf("%d job rows, want %d", n, want)
	}
	if n := count(`SELECT COUNT(*) FROM bulk_job_items WHERE state = 'accepted'`); n != jobRunners*chunks*chunk {
		t.Errorf("%d job rows saved as answered, want %d", n, jobRunners*chunks*chunk)
	}
}

// newItems returns n rows of a job in chunks of size chunk, in state.
func newItems(n, chunk int, state string) []bulkjobs.Item {
	items := make([]bulkjobs.Item, n)
	for i := range items {
		items[i] = bulkjobs.Item{Seq: i + 1, Line: i + 2, Key: fmt.Sprintf("SKU%d", i), Flag: bulkjobs.FlagOK, Chunk: i / chunk, State: state,
			Payload: "{}", Typed: "{}", Current: "{}"}
	}
	return items
}

// TestWriteWaitsBehindLongTransaction: a session save that arrives while
// the job store holds a long write transaction (a large import being
// stored) waits for it in Go, bounded by its own context, however long
// that is: it never gets SQLite's busy timeout (shortened here to 100 ms;
// 5 s in production) as an error.
func TestWriteWaitsBehindLongTransaction(t *testing.T) {
	defer sqldb.SetBusyTimeout(100)()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sellerdesk.db")
	db, err := sqldb.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	jobsDB := db
	if os.Getenv(twoPoolsEnv) != "" {
		t.Logf("%s set: the job store gets a second writer pool on the same file", twoPoolsEnv)
		if jobsDB, err = sqldb.Open(ctx, path); err != nil {
			t.Fatal(err)
		}
		defer jobsDB.Close()
	}
	backend, err := sessions.NewBackend(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	if _, err := bulkjobs.NewStore(ctx, jobsDB); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	id := "session-" + strings.Repeat("y", 35)
	if err := backend.Create(ctx, sessions.Record{ID: id, Payload: []byte("0"), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}

	tx, err := jobsDB.Writer().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE bulk_jobs SET state = state`); err != nil {
		t.Fatal(err)
	}
	saved := make(chan error, 1)
	go func() {
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second) // a backstop, not a measure
		defer cancel()
		saved <- backend.UpdatePayload(wctx, id, []byte("1"), now, now.Add(time.Hour))
	}()
	select {
	case err := <-saved:
		t.Fatalf("the session save returned while the job store held the writer: %v", err)
	case <-time.After(time.Second): // ten busy timeouts
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-saved; err != nil {
		t.Fatalf("the session save after the transaction: %v", err)
	}
	if rec, err := backend.Load(ctx, id); err != nil || string(rec.Payload) != "1" {
		t.Fatalf("payload %q, %v; want the save", rec.Payload, err)
	}
}
