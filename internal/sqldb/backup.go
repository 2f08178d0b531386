package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
// The copy goes a few pages a step (backupPace), ctx heard between them;
// BenchmarkBackupPages compares what the pages served meanwhile pay for it
// in steps and in one (bench/NOTES.md). The source connection holds its
// read transaction open across the steps, so a writer committing between
// them does not restart the copy, and the copy is the snapshot of its
// start.
//
// The copy is written without a rollback journal and without SQLite's
// syncs (backupDestPragmas): it goes into a new file that nothing else
// opens meanwhile and that a failed copy removes, so a journal would only
// write every page twice. The source connection reads the file through a
// memory map (backupSourcePragmas) instead of copying each page into its
// cache first. Together they take about a quarter (P10's copy) to two
// fifths (BenchmarkBackup) off the copy's own CPU (bench/NOTES.md). The file
// is then synced once, with its directory, before BackupTo returns: a
// success means the copy is on the disk.
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
	if err := db.copyPages(ctx, path, backupPace); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	if err := syncFile(path); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	return nil
}

// backupSourcePragmas open the copy's source connection: reads through a
// memory map of up to 1 GiB of the file (pages still in the WAL are read
// as usual).
const backupSourcePragmas = "&_pragma=mmap_size(1073741824)"

// backupDestPragmas open the copy's destination: no rollback journal and
// no syncs while the pages are written (BackupTo syncs the finished file
// once; a copy that fails is removed, so a half-written file is never
// used).
const backupDestPragmas = "?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"

// syncFile flushes path's data and its directory entry to the disk. No
// test can tell a sync that happened from one that did not (the page
// cache answers reads either way); the durability of a reported backup
// rests on this call.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// pacing is how a backup steps through the pages.
type pacing struct {
	// stepPages is the pages a step copies; -1 copies all in one step.
	stepPages int32
	// afterStep, when set (tests only), runs on the copying goroutine
	// after each step but the last.
	afterStep func()
}

// backupPace is BackupTo's pacing. A page of P10's copy costs about 15 µs
// of CPU, so a step of 64 pages takes about a millisecond.
var backupPace = pacing{stepPages: 64}

// pageCopier is the modernc driver's connection as the online backup sees
// it.
type pageCopier interface {
	NewBackup(dst string) (*sqlite.Backup, error)
}

func (db *DB) copyPages(ctx context.Context, path string, pc pacing) error {
	src, err := sql.Open("sqlite", db.path+"?"+sqlitePragmas()+backupSourcePragmas)
	if err != nil {
		return err
	}
	defer src.Close()
	conn, err := src.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// One read transaction across every step (BEGIN defers it to the
	// first read): in WAL mode its snapshot stays while others commit, and
	// SQLite restarts a backup only when its source connection begins a
	// new read transaction and finds the file changed.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return err
	}
	var tables int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
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
		b, err := pcp.NewBackup(path + backupDestPragmas)
		if err != nil {
			return err
		}
		for {
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
			if err := ctx.Err(); err != nil {
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
