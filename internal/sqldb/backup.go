package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"modernc.org/sqlite"
)

// Ping asks the database for one row through the read pool: a real round
// trip, so a PostgreSQL server that stopped, or a SQLite file whose readers
// are all stuck, fails it (with ErrUnavailable) once ctx ends.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	if err := db.r.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return &redactedError{msg: "sqldb: ping: " + ErrUnavailable.Error(), cause: err}
	}
	return nil
}

// ErrBackupPostgres refuses BackupTo on PostgreSQL: pg_dump is its backup.
var ErrBackupPostgres = errors.New("sqldb: back up PostgreSQL with pg_dump (see docs/operations.md)")

// BackupTo writes a consistent copy of the SQLite database to path with
// SQLite's online backup: the pages of one read transaction's snapshot,
// copied as they are on a connection of its own (the pools' readers are
// query-only), so the writers (this process's and a running server's) go
// on meanwhile and are not seen. The pages are copied as they are, not
// rebuilt as VACUUM INTO rebuilds every table and index: on P10's copy of
// 100,000 records it took about half VACUUM INTO's CPU and under half its
// time (bench/NOTES.md).
//
// The copy gives way to the pages served meanwhile: it runs on an OS
// thread of the lowest priority (Linux; see lowerThreadPriority) and
// copies a few pages at a time, resting after each step (backupPace).
// The source connection holds its read transaction open across the steps,
// so a writer committing between them does not restart the copy, and the
// copy is the snapshot of its start.
//
// path must not exist; it is created readable by its owner only (it holds
// the sessions and their tokens, sealed with the session key). A failed or
// cancelled backup leaves no file behind; ctx is heard between steps.
func (db *DB) BackupTo(ctx context.Context, path string) error {
	if db.Postgres() {
		return ErrBackupPostgres
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	if err := db.copyPagesNiced(ctx, path, backupPace); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	return nil
}

// pacing is how a backup shares the machine with the pages.
type pacing struct {
	// stepPages is the pages a step copies; -1 copies all in one step.
	stepPages int32
	// rest is the pause after a step as a multiple of the step's own
	// time: 3 leaves the copy at most a quarter of the time of the one
	// core it runs on, and grows the pause when the machine is busy (a
	// step then takes longer).
	rest float64
	// nice runs the copy on an OS thread of the lowest priority.
	nice bool
	// afterStep, when set (tests only), runs on the copying goroutine
	// after each step but the last.
	afterStep func()
}

// backupPace is BackupTo's pacing. A page of P10's copy costs about 15 µs
// of CPU, so a step of 64 pages holds a core for about a millisecond.
var backupPace = pacing{stepPages: 64, rest: 3, nice: true}

// copyPagesNiced runs copyPages on a goroutine locked to an OS thread of
// its own whose priority it lowers when pc.nice. The goroutine ends still
// locked, so the runtime ends that thread with it instead of handing it,
// niced, to other goroutines; the runtime also never starts a thread from
// a locked one (it asks its template thread), so no new thread inherits
// the priority. The main thread is the exception: the runtime never ends
// it, so a goroutine that lands there keeps it locked, un-niced, and
// hands the copy to a goroutine of its own, which then runs elsewhere.
func (db *DB) copyPagesNiced(ctx context.Context, path string, pc pacing) error {
	if !pc.nice {
		return db.copyPages(ctx, path, pc)
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if onMainThread() {
			done <- db.copyPagesNiced(ctx, path, pc)
			runtime.UnlockOSThread()
			return
		}
		lowerThreadPriority()
		done <- db.copyPages(ctx, path, pc)
	}()
	return <-done
}

// pageCopier is the modernc driver's connection as the online backup sees
// it.
type pageCopier interface {
	NewBackup(dst string) (*sqlite.Backup, error)
}

func (db *DB) copyPages(ctx context.Context, path string, pc pacing) error {
	src, err := sql.Open("sqlite", db.path+"?"+sqlitePragmas())
	if err != nil {
		return err
	}
	defer src.Close()
	conn, err := src.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// One read transaction across every step: in WAL mode its snapshot
	// stays while others commit, and SQLite restarts a backup only when
	// its source opens a new one and finds the file changed.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	var n int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
		return err
	}
	err = conn.Raw(func(dc any) error {
		pcp, ok := dc.(pageCopier)
		if !ok {
			return fmt.Errorf("the driver's connection %T has no online backup", dc)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := pcp.NewBackup(path)
		if err != nil {
			return err
		}
		for {
			t0 := time.Now()
			more, err := b.Step(pc.stepPages)
			if err != nil {
				_ = b.Finish()
				return err
			}
			if !more {
				return b.Finish()
			}
			if pc.afterStep != nil {
				pc.afterStep()
			}
			if err := rest(ctx, time.Duration(pc.rest*float64(time.Since(t0)))); err != nil {
				_ = b.Finish()
				return err
			}
		}
	})
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err == nil {
		err = rerr
	}
	return err
}

// rest pauses for d, or until ctx ends.
func rest(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
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
