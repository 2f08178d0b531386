package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Steps are a component's migrations, in order, as each dialect runs them:
// step i of SQLite does in SQLite what step i of Postgres does in
// PostgreSQL, so both lists have the same length. A step may hold several
// statements separated by ';'; an empty one does nothing on its database
// (and is recorded all the same). Write them once with Migrations; never
// edit a step that shipped: append a new one.
type Steps struct {
	SQLite, Postgres []string
}

// Step is one migration step written once. SQL runs on both databases.
// Where the dialects really differ, SQL is empty and SQLite and Postgres
// hold each database's own text; an empty one means the step has nothing
// to do there (a conversion only the other database needs).
type Step struct {
	SQL              string
	SQLite, Postgres string
}

// Migrations lays out a component's steps, written once, as each dialect
// runs them. A step with both SQL and a dialect's own text is a
// programming error: it panics.
func Migrations(steps ...Step) Steps {
	out := Steps{SQLite: make([]string, len(steps)), Postgres: make([]string, len(steps))}
	for i, s := range steps {
		if s.SQL == "" {
			out.SQLite[i], out.Postgres[i] = s.SQLite, s.Postgres
			continue
		}
		if s.SQLite != "" || s.Postgres != "" {
			panic(fmt.Sprintf("sqldb: migration step %d has both common and per-dialect SQL", i+1))
		}
		out.SQLite[i], out.Postgres[i] = s.SQL, s.SQL
	}
	return out
}

// MigrationsTable records, for every component, each step applied: one row
// per component and step, with when it ran (Unix milliseconds).
const MigrationsTable = "schema_migrations"

// legacyVersionTable is where the stores recorded, one row per component,
// how many of their steps ran, before this package ran every migration.
const legacyVersionTable = "schema_version"

// Advisory lock keys (two-int4 form, class "SD"). Application locks use
// the bigint form, a separate key space, so they never collide with these.
const (
	pgLockClass   = 0x5344
	pgLockMigrate = 0
)

// migrateTimeout bounds a migration whose ctx has no deadline.
const migrateTimeout = 30 * time.Second

// Migrate applies, in order and in one transaction, the steps of component
// not yet recorded in MigrationsTable, and records them. Instances starting
// together queue (PostgreSQL: an advisory lock held by the transaction;
// SQLite: the single writer). A database that records more steps than
// steps holds was migrated by a newer program: Migrate refuses it.
//
// A database migrated by an earlier version of the dashboard has a
// schema_version table with one row per component and its step count:
// Migrate carries the component's row over to MigrationsTable as applied
// steps (and drops schema_version once no component is left in it).
func (db *DB) Migrate(ctx context.Context, component string, steps Steps) error {
	list := steps.SQLite
	if db.Postgres() {
		list = steps.Postgres
	}
	if component == "" {
		return errors.New("sqldb: migrate: empty component name")
	}
	if len(steps.SQLite) != len(steps.Postgres) {
		return fmt.Errorf("sqldb: migrate %s: %d SQLite steps but %d PostgreSQL steps", component, len(steps.SQLite), len(steps.Postgres))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, migrateTimeout)
		defer cancel()
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return db.migrateErr(component, err)
	}
	defer tx.Rollback()
	if db.Postgres() {
		// Before any DDL: concurrent CREATE TABLE IF NOT EXISTS can fail
		// in PostgreSQL.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, pgLockClass, pgLockMigrate); err != nil {
			return db.migrateErr(component, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+MigrationsTable+` (
		component  TEXT    NOT NULL,
		step       INTEGER NOT NULL,
		applied_at BIGINT  NOT NULL,
		PRIMARY KEY (component, step)
	)`); err != nil {
		return db.migrateErr(component, err)
	}
	done, err := db.applied(ctx, tx, component)
	if err != nil {
		return db.migrateErr(component, err)
	}
	if done == 0 {
		if done, err = db.carryOver(ctx, tx, component); err != nil {
			return db.migrateErr(component, err)
		}
	}
	if done > len(list) {
		return fmt.Errorf("sqldb: migrate %s: the database has %d steps applied, newer than this program knows (%d)", component, done, len(list))
	}
	now := time.Now().UnixMilli()
	for i := done; i < len(list); i++ {
		if _, err := tx.ExecContext(ctx, list[i]); err != nil {
			return fmt.Errorf("sqldb: migrate %s: step %d: %s", component, i+1, Redact(err.Error()))
		}
		if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO `+MigrationsTable+` (component, step, applied_at) VALUES (?, ?, ?)`),
			component, i+1, now); err != nil {
			return db.migrateErr(component, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return db.migrateErr(component, err)
	}
	return nil
}

func (db *DB) migrateErr(component string, err error) error {
	return &redactedError{msg: "sqldb: migrate " + component, cause: err}
}

// applied reports how many steps of component are recorded. The steps are
// recorded together with their migration, so they are 1..n without gaps.
func (db *DB) applied(ctx context.Context, tx *sql.Tx, component string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, db.Rebind(`SELECT COALESCE(MAX(step), 0) FROM `+MigrationsTable+` WHERE component = ?`), component).Scan(&n)
	return n, err
}

// carryOver moves component's row of the legacy schema_version table, if
// there is one, into MigrationsTable, and reports its step count.
func (db *DB) carryOver(ctx context.Context, tx *sql.Tx, component string) (int, error) {
	var exists bool
	q := `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '` + legacyVersionTable + `')`
	if db.Postgres() {
		q = `SELECT to_regclass('` + legacyVersionTable + `') IS NOT NULL`
	}
	if err := tx.QueryRowContext(ctx, q).Scan(&exists); err != nil {
		return 0, err
	}
	if !exists {
		return 0, nil
	}
	var version int
	err := tx.QueryRowContext(ctx, db.Rebind(`SELECT version FROM `+legacyVersionTable+` WHERE component = ?`), component).Scan(&version)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	now := time.Now().UnixMilli()
	for step := 1; step <= version; step++ {
		if _, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO `+MigrationsTable+` (component, step, applied_at) VALUES (?, ?, ?)`),
			component, step, now); err != nil {
			return 0, err
		}
	}
	if _, err := tx.ExecContext(ctx, db.Rebind(`DELETE FROM `+legacyVersionTable+` WHERE component = ?`), component); err != nil {
		return 0, err
	}
	var left int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+legacyVersionTable).Scan(&left); err != nil {
		return 0, err
	}
	if left == 0 {
		if _, err := tx.ExecContext(ctx, `DROP TABLE `+legacyVersionTable); err != nil {
			return 0, err
		}
	}
	return version, nil
}
