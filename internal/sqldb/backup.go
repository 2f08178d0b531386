package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

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
// SQLite's online backup: every page of one read transaction's snapshot
// copied in one step, on a connection of its own (the pools' readers are
// query-only), so the writers (this process's and a running server's) go
// on meanwhile and are not seen. The pages are copied as they are, not
// rebuilt as VACUUM INTO rebuilds every table and index: on P10's copy of
// 100,000 records it took about half VACUUM INTO's CPU and under half its
// time (bench/NOTES.md), the less taken from the pages served meanwhile. path must not exist; it is created readable by its
// owner only (it holds the sessions and their tokens, sealed with the
// session key). A failed backup leaves no file behind. ctx is heard before
// the copy starts; the one step is not interrupted (copied in several, it
// would start over whenever a writer commits between them).
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
	if err := db.copyPages(ctx, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	return nil
}

// pageCopier is the modernc driver's connection as the online backup sees
// it.
type pageCopier interface {
	NewBackup(dst string) (*sqlite.Backup, error)
}

func (db *DB) copyPages(ctx context.Context, path string) error {
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
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(pageCopier)
		if !ok {
			return fmt.Errorf("the driver's connection %T has no online backup", dc)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := pc.NewBackup(path)
		if err != nil {
			return err
		}
		for {
			more, err := b.Step(-1)
			if err != nil {
				_ = b.Finish()
				return err
			}
			if !more {
				return b.Finish()
			}
		}
	})
}
