package sqldb_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// steps of a test component; both dialects take the same SQL here.
func same(list ...string) sqldb.Steps { return sqldb.Steps{SQLite: list, Postgres: list} }

func applied(t *testing.T, db *sqldb.DB, component string) []int {
	t.Helper()
	rows, err := db.Reader().QueryContext(context.Background(),
		db.Rebind(`SELECT step FROM `+sqldb.MigrationsTable+` WHERE component = ? ORDER BY step`), component)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func tableExists(t *testing.T, db *sqldb.DB, name string) bool {
	t.Helper()
	q := `SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)`
	if db.Postgres() {
		q = `SELECT to_regclass(?) IS NOT NULL`
	}
	var ok bool
	if err := db.Reader().QueryRowContext(context.Background(), db.Rebind(q), name).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestMigrate(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		v1 := same(`CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (id INTEGER PRIMARY KEY)`)
		if err := db.Migrate(ctx, "one", v1); err != nil {
			t.Fatal(err)
		}
		if !tableExists(t, db, "a") || !tableExists(t, db, "b") {
			t.Fatal("a step of two statements did not run both")
		}
		// Again: nothing to do (CREATE TABLE a would fail).
		if err := db.Migrate(ctx, "one", v1); err != nil {
			t.Fatalf("again: %v", err)
		}
		// Another component has its own steps in the same table.
		if err := db.Migrate(ctx, "two", same(`CREATE TABLE c (id INTEGER)`)); err != nil {
			t.Fatal(err)
		}
		// An appended step runs alone.
		v2 := same(v1.SQLite[0], `ALTER TABLE a ADD COLUMN v INTEGER NOT NULL DEFAULT 0`)
		if err := db.Migrate(ctx, "one", v2); err != nil {
			t.Fatal(err)
		}
		if got := applied(t, db, "one"); len(got) != 2 || got[0] != 1 || got[1] != 2 {
			t.Errorf("one: steps %v applied", got)
		}
		if got := applied(t, db, "two"); len(got) != 1 {
			t.Errorf("two: steps %v applied", got)
		}
		// An older program refuses a newer database.
		if err := db.Migrate(ctx, "one", v1); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Errorf("older steps on a newer database: %v", err)
		}
		// A failing step leaves nothing behind: neither the steps before it
		// in the same run nor its record.
		bad := same(`CREATE TABLE d (id INTEGER)`, `CREATE TABLE d (id INTEGER)`)
		if err := db.Migrate(ctx, "three", bad); err == nil || !strings.Contains(err.Error(), "step 2") {
			t.Errorf("a failing step: %v", err)
		}
		if tableExists(t, db, "d") || len(applied(t, db, "three")) != 0 {
			t.Error("a failed migration left step 1 applied")
		}
		if err := db.Migrate(ctx, "four", sqldb.Steps{SQLite: []string{"SELECT 1"}}); err == nil {
			t.Error("steps for one dialect only were accepted")
		}
	})
}

// TestMigrateDialect: each database runs its own dialect's steps.
func TestMigrateDialect(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		steps := sqldb.Steps{
			SQLite:   []string{`CREATE TABLE only_sqlite (id INTEGER)`},
			Postgres: []string{`CREATE TABLE only_postgres (id bigint GENERATED ALWAYS AS IDENTITY)`},
		}
		if err := db.Migrate(context.Background(), "dialect", steps); err != nil {
			t.Fatal(err)
		}
		if got := tableExists(t, db, "only_postgres"); got != db.Postgres() {
			t.Errorf("only_postgres exists: %v", got)
		}
		if got := tableExists(t, db, "only_sqlite"); got == db.Postgres() {
			t.Errorf("only_sqlite exists: %v", got)
		}
	})
}

// TestMigrateConcurrently: instances starting together (PostgreSQL: two
// pools; SQLite: goroutines of one process) apply each step once.
func TestMigrateConcurrently(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		steps := same(`CREATE TABLE once (id INTEGER)`, `ALTER TABLE once ADD COLUMN v INTEGER`)
		dbs := []*sqldb.DB{db, db, db}
		if db.Postgres() {
			u := sqldbtest.PostgresURL(t)
			dbs = nil
			for range 3 {
				o, err := sqldb.Open(ctx, u)
				if err != nil {
					t.Fatal(err)
				}
				defer o.Close()
				dbs = append(dbs, o)
			}
			db = dbs[0]
		}
		var wg sync.WaitGroup
		errs := make([]error, len(dbs))
		for i, d := range dbs {
			wg.Go(func() { errs[i] = d.Migrate(ctx, "together", steps) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		if got := applied(t, db, "together"); len(got) != 2 {
			t.Errorf("steps %v applied", got)
		}
	})
}

// TestMigrateCarriesOverSchemaVersion: a database migrated by the previous
// version (schema_version: one row per component with its step count)
// keeps its steps: none runs again, the later ones run, and schema_version
// goes once no component is left in it.
func TestMigrateCarriesOverSchemaVersion(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		for _, q := range []string{
			`CREATE TABLE schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)`,
			`CREATE TABLE x1 (id INTEGER)`,
			`CREATE TABLE y1 (id INTEGER)`,
			`CREATE TABLE y2 (id INTEGER)`,
			`INSERT INTO schema_version VALUES ('x', 1), ('y', 2)`,
		} {
			if _, err := db.Writer().ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		// Step 1 of x would fail if it ran again.
		if err := db.Migrate(ctx, "x", same(`CREATE TABLE x1 (id INTEGER)`, `CREATE TABLE x2 (id INTEGER)`)); err != nil {
			t.Fatal(err)
		}
		if !tableExists(t, db, "x2") {
			t.Error("x's new step did not run")
		}
		if got := applied(t, db, "x"); len(got) != 2 {
			t.Errorf("x: steps %v", got)
		}
		if !tableExists(t, db, "schema_version") {
			t.Fatal("schema_version dropped while y is still in it")
		}
		if err := db.Migrate(ctx, "y", same(`CREATE TABLE y1 (id INTEGER)`, `CREATE TABLE y2 (id INTEGER)`)); err != nil {
			t.Fatal(err)
		}
		if got := applied(t, db, "y"); len(got) != 2 {
			t.Errorf("y: steps %v", got)
		}
		if tableExists(t, db, "schema_version") {
			t.Error("schema_version left after every component moved")
		}
	})
}

// TestMigrateSQLiteFileReopened: the record survives closing the file.
func TestMigrateSQLiteFileReopened(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	steps := same(`CREATE TABLE r (id INTEGER)`)
	for range 2 {
		db, err := sqldb.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Migrate(ctx, "r", steps); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}
}

// TestMigrationsWrittenOnce: steps written once run their common SQL on
// both databases and their own variant where the dialects differ; a
// variant left empty does nothing on that database but is recorded, so
// the step counts stay equal.
func TestMigrationsWrittenOnce(t *testing.T) {
	steps := sqldb.Migrations(
		sqldb.Step{SQL: `CREATE TABLE common (id INTEGER)`},
		sqldb.Step{SQLite: `CREATE TABLE lite (id INTEGER)`, Postgres: `CREATE TABLE pg (id bigint GENERATED ALWAYS AS IDENTITY)`},
		sqldb.Step{Postgres: `ALTER TABLE pg ADD COLUMN v bigint NOT NULL DEFAULT 0`},
	)
	if len(steps.SQLite) != 3 || len(steps.Postgres) != 3 {
		t.Fatalf("laid out as %d SQLite and %d PostgreSQL steps, want 3 each", len(steps.SQLite), len(steps.Postgres))
	}
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		if err := db.Migrate(context.Background(), "once", steps); err != nil {
			t.Fatal(err)
		}
		if !tableExists(t, db, "common") {
			t.Error("the common step did not run")
		}
		if got := tableExists(t, db, "pg"); got != db.Postgres() {
			t.Errorf("pg exists: %v", got)
		}
		if got := tableExists(t, db, "lite"); got == db.Postgres() {
			t.Errorf("lite exists: %v", got)
		}
		if got := applied(t, db, "once"); len(got) != 3 {
			t.Errorf("steps %v applied, want 1, 2, 3", got)
		}
	})
	defer func() {
		if recover() == nil {
			t.Error("a step with common and per-dialect SQL was accepted")
		}
	}()
	sqldb.Migrations(sqldb.Step{SQL: `SELECT 1`, Postgres: `SELECT 2`})
}
