package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
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
// VACUUM INTO: one read transaction's snapshot, taken on a connection of
// its own (the pools' readers are query-only, which VACUUM INTO is not), so
// the writers (this process's and a running server's) go on meanwhile. path
// must not exist; it is created readable by its owner only (it holds the
// sessions and their tokens, sealed with the session key). A failed backup
// leaves no file behind.
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
	if err := db.vacuumInto(ctx, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("sqldb: backup: %w", err)
	}
	return nil
}

func (db *DB) vacuumInto(ctx context.Context, path string) error {
	src, err := sql.Open("sqlite", db.path+"?"+sqlitePragmas())
	if err != nil {
		return err
	}
	defer src.Close()
	src.SetMaxOpenConns(1)
	_, err = src.ExecContext(ctx, "VACUUM INTO ?", path)
	return err
}
