// Package catalog is the dashboard's local copy of a seller's catalogue:
// nomenclature records, orders at list level and return boxes, per seller
// and environment, in the app's database (SQLite by default, PostgreSQL
// when configured). The marketplace's list calls offer no search, so the
// copy is what search, sort, filters and the overview read.
//
// The copy is filled page by page by a Syncer (sync.go) and read by
// queries (query.go). Full-text search is SQLite FTS5 or PostgreSQL
// tsvector over one folded search document per row (search.go).
package copystore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Key names one copy: a seller in one environment ("production" or "test").
type Key struct {
	SellerID int64
	Env      string
}

// Store is the copy in the database. It is safe for concurrent use.
type Store struct {
	db   *sqldb.DB
	w    *sql.DB
	r    *sqldb.Stmts
	bulk *sql.DB // exports' reads (sqldb.DB.Bulk)
	pg   bool
	// exportPage is the page size of ExportNomenclature (0:
	// exportPageSize); tests shorten it to cross many pages.
	exportPage int
	// unobserved leaves the price observations out (observations.go): a
	// benchmark measures the store with and without them side by side.
	unobserved bool
	now        func() time.Time
	// beforeCommit, when set (tests), runs inside the transaction storing
	// pages first to last, after their rows, and fails it if it fails.
	beforeCommit func(first, last int) error
	// counted remembers the counts no kept count answers, by version.
	counted countCache
	// touched is when Touch last wrote each copy's use (touchEvery).
	touchMu sync.Mutex
	touched map[Key]time.Time
	// purgeChunk is how many rows a transaction of Purge deletes (0:
	// purgeChunkOf); tests shorten it to cross many chunks.
	purgeChunk int
	// beforePurgeChunk, when set (tests), runs before each transaction
	// of Purge, outside it, and ends the purge if it fails.
	beforePurgeChunk func() error
	// accepts holds Accept's price statements by the size of their
	// table (acceptStatements).
	acceptMu sync.Mutex
	accepts  map[int][4]*sql.Stmt
}

// New builds the store on the app's database and migrates the catalogue
// tables (component "catalog"). The database stays the caller's to close.
func New(ctx context.Context, db *sqldb.DB) (*Store, error) {
	return newStore(ctx, db, migrations)
}

// newStore is New migrating steps (tests and benchmarks of an earlier
// schema: a prefix of migrations).
func newStore(ctx context.Context, db *sqldb.DB, steps sqldb.Steps) (*Store, error) {
	if err := db.Migrate(ctx, "catalog", steps); err != nil {
		return nil, fmt.Errorf("copystore: %w", err)
	}
	return &Store{db: db, w: db.Writer(), r: db.Reads(), bulk: db.Bulk(), pg: db.Postgres(), now: time.Now}, nil
}

// SetClock replaces the store's clock (tests of expiry and freshness).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// Postgres reports whether the copy lives in PostgreSQL.
func (s *Store) Postgres() bool { return s.pg }

// q rewrites ? placeholders for the database.
func (s *Store) q(query string) string { return s.db.Rebind(query) }

// migrations are the steps of the component "catalog" (sqldb.DB.Migrate),
// written once; a step has a text per dialect only where the SQL differs.
// Never edit one that shipped: append. Times are Unix milliseconds, money
// is kopecks.
var migrations = sqldb.Migrations(
	// 1: the copy's tables. The dialects differ in their types, SQLite's
	// FTS5 table and its triggers against PostgreSQL's generated tsvector
	// and GIN index, and PostgreSQL's byte-order collation of the sorted
	// text columns (SQLite's is byte order already).
	sqldb.Step{SQLite: step1SQLite, Postgres: step1Postgres},
	// 2: the filtered, sorted pages (status and stock, name, warehouse).
	sqldb.Step{SQL: `CREATE INDEX catalog_nomenclature_status_quantity ON catalog_nomenclature (seller_id, env, status, quantity);
	CREATE INDEX catalog_nomenclature_name ON catalog_nomenclature (seller_id, env, name);
	CREATE INDEX catalog_nomenclature_warehouse ON catalog_nomenclature (seller_id, env, warehouse, quantity)`},
	// 3: a status-filtered page sorted by price or name walks these in
	// order and stops after the page instead of sorting every match; the
	// status index alone is a prefix of status_quantity's.
	sqldb.Step{SQL: `CREATE INDEX catalog_nomenclature_status_price ON catalog_nomenclature (seller_id, env, status, price);
	CREATE INDEX catalog_nomenclature_status_name ON catalog_nomenclature (seller_id, env, status, name);
	DROP INDEX catalog_nomenclature_status`},
	// 4: a search's count tests the copy of each full-text match in this
	// narrow index, not in the wide rows (countOwners).
	sqldb.Step{SQL: `CREATE INDEX catalog_nomenclature_owner ON catalog_nomenclature (id, seller_id, env)`},
	// 5: the pass number is not indexed (finishPass reads it from the
	// rows once a pass; every pass rewrites it on every row). On SQLite
	// the full-text index is also rewritten only for a row whose search
	// text changed (PostgreSQL's generated column is recomputed anyway).
	sqldb.Step{
		SQLite: `DROP INDEX catalog_nomenclature_gen;
	DROP TRIGGER catalog_nomenclature_au;
	CREATE TRIGGER catalog_nomenclature_au AFTER UPDATE OF search ON catalog_nomenclature WHEN old.search IS NOT new.search BEGIN
		INSERT INTO catalog_nomenclature_fts (catalog_nomenclature_fts, rowid, search) VALUES ('delete', old.id, old.search);
		INSERT INTO catalog_nomenclature_fts (rowid, search) VALUES (new.id, new.search);
	END`,
		Postgres: `DROP INDEX catalog_nomenclature_gen`,
	},
	// 6: forget leaves a tombstone (forgotten) whose epoch the passes
	// begun before it no longer match, and the credentials the
	// marketplace rejected are kept by fingerprint (CredentialOf), never
	// as the secret.
	sqldb.Step{SQL: `ALTER TABLE catalog_copies ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE catalog_copies ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0;
	CREATE TABLE catalog_credentials (
		fingerprint TEXT   PRIMARY KEY,
		revoked_at  BIGINT NOT NULL
	)`},
	// 7: the counts the overview and the lists show, kept by triggers in
	// the transaction of every write (catalog_counts). The table is
	// common; SQLite's triggers are SQL, PostgreSQL's a plpgsql function.
	sqldb.Step{
		SQLite: migrationCountsTable + `;
	CREATE TRIGGER catalog_nomenclature_count_ai AFTER INSERT ON catalog_nomenclature BEGIN
		INSERT INTO catalog_counts VALUES (new.seller_id, new.env, 'nomenclature', new.status, 1)
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = n + 1;
		INSERT INTO catalog_counts SELECT new.seller_id, new.env, 'zero_stock', new.status, 1 WHERE new.quantity <= 0
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = n + 1;
	END;
	CREATE TRIGGER catalog_nomenclature_count_ad AFTER DELETE ON catalog_nomenclature BEGIN
		UPDATE catalog_counts SET n = n - 1 WHERE seller_id = old.seller_id AND env = old.env AND list = 'nomenclature' AND status = old.status;
		UPDATE catalog_counts SET n = n - 1 WHERE old.quantity <= 0 AND seller_id = old.seller_id AND env = old.env AND list = 'zero_stock' AND status = old.status;
	END;
	CREATE TRIGGER catalog_nomenclature_count_au AFTER UPDATE OF status, quantity ON catalog_nomenclature
		WHEN old.status IS NOT new.status OR (old.quantity <= 0) IS NOT (new.quantity <= 0) BEGIN
		UPDATE catalog_counts SET n = n - 1 WHERE seller_id = old.seller_id AND env = old.env AND list = 'nomenclature' AND status = old.status;
		UPDATE catalog_counts SET n = n - 1 WHERE old.quantity <= 0 AND seller_id = old.seller_id AND env = old.env AND list = 'zero_stock' AND status = old.status;
		INSERT INTO catalog_counts VALUES (new.seller_id, new.env, 'nomenclature', new.status, 1)
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = n + 1;
		INSERT INTO catalog_counts SELECT new.seller_id, new.env, 'zero_stock', new.status, 1 WHERE new.quantity <= 0
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = n + 1;
	END;` + sqliteStatusCounter("orders") + sqliteStatusCounter("boxes"),
		Postgres: migrationCountsPostgres,
	},
	// 8: a page in the list order (id), whole or of one status, walks
	// these and stops after the page instead of sorting every record.
	// SQLite appends the row id to every index; PostgreSQL's name it.
	sqldb.Step{
		SQLite: `CREATE INDEX catalog_nomenclature_list ON catalog_nomenclature (seller_id, env);
	CREATE INDEX catalog_nomenclature_status_list ON catalog_nomenclature (seller_id, env, status)`,
		Postgres: `CREATE INDEX catalog_nomenclature_list ON catalog_nomenclature (seller_id, env, id);
	CREATE INDEX catalog_nomenclature_status_list ON catalog_nomenclature (seller_id, env, status, id)`,
	},
	// 9: the copy's write version (catalog_versions), bumped by row
	// triggers in the transaction of every write that can change which
	// records a filter selects: a count remembered with the version it
	// was taken at stays exact while the version holds (countCache).
	sqldb.Step{
		SQLite: migrationVersionsTable + `;
	CREATE TRIGGER catalog_nomenclature_version_ai AFTER INSERT ON catalog_nomenclature BEGIN ` + sqliteBumpVersion("new") + ` END;
	CREATE TRIGGER catalog_nomenclature_version_ad AFTER DELETE ON catalog_nomenclature BEGIN ` + sqliteBumpVersion("old") + ` END;
	CREATE TRIGGER catalog_nomenclature_version_au AFTER UPDATE ON catalog_nomenclature
		WHEN ` + versionedChange("old", "new", "IS NOT") + ` BEGIN ` + sqliteBumpVersion("new") + ` END`,
		// Statement triggers: a row trigger would update the copy's one
		// version row once per record, and a forget or a pass deleting
		// 100,000 records in one statement would make that row's
		// versions a chain every next update walks.
		Postgres: migrationVersionsTable + `;
	CREATE FUNCTION catalog_version_rows() RETURNS trigger AS $$
	BEGIN
		INSERT INTO catalog_versions (seller_id, env, v) SELECT DISTINCT seller_id, env, 1 FROM changed
		ON CONFLICT (seller_id, env) DO UPDATE SET v = catalog_versions.v + 1;
		RETURN NULL;
	END
	$$ LANGUAGE plpgsql;
	CREATE FUNCTION catalog_version_updated() RETURNS trigger AS $$
	BEGIN
		INSERT INTO catalog_versions (seller_id, env, v)
		SELECT DISTINCT new_rows.seller_id, new_rows.env, 1 FROM new_rows JOIN old_rows ON old_rows.id = new_rows.id
		WHERE ` + versionedChange("old_rows", "new_rows", "IS DISTINCT FROM") + `
		ON CONFLICT (seller_id, env) DO UPDATE SET v = catalog_versions.v + 1;
		RETURN NULL;
	END
	$$ LANGUAGE plpgsql;
	CREATE TRIGGER catalog_nomenclature_version_ai AFTER INSERT ON catalog_nomenclature REFERENCING NEW TABLE AS changed
		FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_rows();
	CREATE TRIGGER catalog_nomenclature_version_ad AFTER DELETE ON catalog_nomenclature REFERENCING OLD TABLE AS changed
		FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_rows();
	CREATE TRIGGER catalog_nomenclature_version_au AFTER UPDATE ON catalog_nomenclature REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
		FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_updated()`,
	},
	// 10: on PostgreSQL the counts are kept by statement triggers, which
	// add each count's net change once a statement. A row trigger writes
	// a copy's few count rows once per record: a forget or a pass
	// deleting 100,000 records in one statement would rewrite each of
	// them thousands of times under its lock, every write walking the
	// versions the transaction left before it. SQLite keeps its row
	// triggers: it has no statement triggers, and rewrites a row in place.
	sqldb.Step{Postgres: `DROP TRIGGER catalog_nomenclature_count ON catalog_nomenclature;
	DROP TRIGGER catalog_nomenclature_count_au ON catalog_nomenclature;
	DROP TRIGGER catalog_orders_count ON catalog_orders;
	DROP TRIGGER catalog_orders_count_au ON catalog_orders;
	DROP TRIGGER catalog_boxes_count ON catalog_boxes;
	DROP TRIGGER catalog_boxes_count_au ON catalog_boxes;
	DROP FUNCTION catalog_count_row();
	DROP FUNCTION catalog_count_add(BIGINT, TEXT, TEXT, TEXT, INTEGER)` +
		pgStatementCounter("nomenclature") + pgStatementCounter("orders") + pgStatementCounter("boxes")},
	// 11: on SQLite the full-text index also keeps every word's first 1
	// to 10 letters (FTS5 prefix indexes), rebuilt from the records. A
	// search looks its words up as prefixes: without them FTS5 merges the
	// lists of every word starting so before it can hand over the first
	// page, a cost that grows with the copy; with them a prefix of up to
	// ten letters is one list, read in id order and left after the page.
	// PostgreSQL's GIN index answers prefixes by its own means.
	sqldb.Step{SQLite: `DROP TABLE catalog_nomenclature_fts;
	CREATE VIRTUAL TABLE catalog_nomenclature_fts USING fts5(search, content='catalog_nomenclature', content_rowid='id',
		tokenize="unicode61 remove_diacritics 2", prefix='1 2 3 4 5 6 7 8 9 10');
	INSERT INTO catalog_nomenclature_fts (catalog_nomenclature_fts) VALUES ('rebuild')`},
	// 12: a rejected credential is the fingerprint of one secret
	// (CredentialOf); the marks of a client id and environment alone
	// match no fingerprint any more.
	sqldb.Step{SQL: `DELETE FROM catalog_credentials`},
	// 13: a quantity or a status the marketplace accepted through the
	// dashboard is written into the record at once (so the counts, the
	// filters and the sorts see it) and marked pending by the time it
	// was accepted, until a pass that started after it reads the record
	// (Accept, nomenclatureUpsert).
	sqldb.Step{SQL: `ALTER TABLE catalog_nomenclature ADD COLUMN quantity_pending_at BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN status_pending_at BIGINT`},
	// 14: the promotions and the cards taking part (promotions.go).
	sqldb.Step{SQL: migrationPromotions},
	// 15: what the last change of each part (prices, quantity, status)
	// the marketplace accepted through the dashboard replaced, what it
	// set and when (Accept), kept until the next accepted change of that
	// part: a file exported before it, imported after, would undo it
	// (Replacements).
	sqldb.Step{SQL: `ALTER TABLE catalog_nomenclature ADD COLUMN price_was BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN sale_was BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN price_to BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN sale_to BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN price_changed_at BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN quantity_was BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN quantity_to BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN quantity_changed_at BIGINT;
	ALTER TABLE catalog_nomenclature ADD COLUMN status_was TEXT;
	ALTER TABLE catalog_nomenclature ADD COLUMN status_to TEXT;
	ALTER TABLE catalog_nomenclature ADD COLUMN status_changed_at BIGINT`},
	// 16: the prices observed over time, for a product's chart
	// (observations.go).
	sqldb.Step{SQLite: migrationPricePoints("INTEGER PRIMARY KEY"), Postgres: migrationPricePoints("BIGSERIAL PRIMARY KEY")},
	// 17: a forget hides the copy at once and deletes its rows after, a
	// chunk a transaction (purge.go): purge is set on the copy's record
	// until they are all deleted, and no read shows them meanwhile.
	sqldb.Step{SQL: migrationPurgeColumn},
	// 18: the records of a card (its sizes), found without reading the
	// seller's other records: a file's card-named rows, a card's page,
	// the prices accepted for a card (TestCardPlans).
	sqldb.Step{SQL: `CREATE INDEX catalog_nomenclature_card ON catalog_nomenclature (seller_id, env, parent_sku)`},
)

// migrationPurgeColumn is catalog_copies.purge: 1 from a forget until
// every row of the copy is deleted (Purge), 0 otherwise.
const migrationPurgeColumn = `ALTER TABLE catalog_copies ADD COLUMN purge INTEGER NOT NULL DEFAULT 0`

// migrationVersionsTable holds one row per copy (seller, environment)
// whose version v counts the writes to its records that a filter can see.
// A row is never deleted (forget included), so a version never comes back
// to a value an earlier state of the copy had; a copy without a row is at
// version 0.
const migrationVersionsTable = `CREATE TABLE catalog_versions (
		seller_id BIGINT NOT NULL,
		env       TEXT   NOT NULL,
		v         BIGINT NOT NULL,
		PRIMARY KEY (seller_id, env)
	)`

// versionedChange is the condition, with the dialect's "differs"
// operator, under which an updated record (old and new: its two rows'
// names) changes what a filter selects: its search document or a filtered
// column (Query) changed. A pass rewriting an unchanged record leaves the
// version alone.
func versionedChange(old, new, differs string) string {
	var b strings.Builder
	for i, c := range []string{"search", "status", "warehouse", "quantity", "price"} {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(old + "." + c + " " + differs + " " + new + "." + c)
	}
	return b.String()
}

// sqliteBumpVersion is the SQLite statement bumping the version of the
// copy of row ("new" or "old").
func sqliteBumpVersion(row string) string {
	return `INSERT INTO catalog_versions VALUES (` + row + `.seller_id, ` + row + `.env, 1)
			ON CONFLICT (seller_id, env) DO UPDATE SET v = v + 1;`
}

// step1SQLite is step 1 on SQLite: the copy's tables, FTS5 over the
// records' search documents kept by triggers.
const step1SQLite = `CREATE TABLE catalog_nomenclature (
		id              INTEGER PRIMARY KEY,
		seller_id       INTEGER NOT NULL,
		env             TEXT    NOT NULL,
		warehouse       TEXT    NOT NULL,
		barcode         TEXT    NOT NULL,
		marketplace_sku TEXT    NOT NULL,
		parent_sku      TEXT    NOT NULL,
		seller_sku      TEXT    NOT NULL,
		name            TEXT    NOT NULL,
		brand           TEXT    NOT NULL,
		size            TEXT    NOT NULL,
		price           INTEGER NOT NULL,
		sale_price      INTEGER NOT NULL,
		quantity        INTEGER NOT NULL,
		status          TEXT    NOT NULL,
		price_status    TEXT    NOT NULL,
		updated_at      INTEGER NOT NULL,
		pending_price   INTEGER,
		pending_sale    INTEGER,
		pending_at      INTEGER,
		seen_gen        INTEGER NOT NULL,
		search          TEXT    NOT NULL,
		UNIQUE (seller_id, env, warehouse, barcode)
	);
	CREATE INDEX catalog_nomenclature_sku ON catalog_nomenclature (seller_id, env, marketplace_sku);
	CREATE INDEX catalog_nomenclature_price ON catalog_nomenclature (seller_id, env, price);
	CREATE INDEX catalog_nomenclature_quantity ON catalog_nomenclature (seller_id, env, quantity);
	CREATE INDEX catalog_nomenclature_status ON catalog_nomenclature (seller_id, env, status);
	CREATE INDEX catalog_nomenclature_updated ON catalog_nomenclature (seller_id, env, updated_at);
	CREATE INDEX catalog_nomenclature_gen ON catalog_nomenclature (seller_id, env, seen_gen);
	CREATE VIRTUAL TABLE catalog_nomenclature_fts USING fts5(search, content='catalog_nomenclature', content_rowid='id', tokenize="unicode61 remove_diacritics 2");
	CREATE TRIGGER catalog_nomenclature_ai AFTER INSERT ON catalog_nomenclature BEGIN
		INSERT INTO catalog_nomenclature_fts (rowid, search) VALUES (new.id, new.search);
	END;
	CREATE TRIGGER catalog_nomenclature_ad AFTER DELETE ON catalog_nomenclature BEGIN
		INSERT INTO catalog_nomenclature_fts (catalog_nomenclature_fts, rowid, search) VALUES ('delete', old.id, old.search);
	END;
	CREATE TRIGGER catalog_nomenclature_au AFTER UPDATE OF search ON catalog_nomenclature BEGIN
		INSERT INTO catalog_nomenclature_fts (catalog_nomenclature_fts, rowid, search) VALUES ('delete', old.id, old.search);
		INSERT INTO catalog_nomenclature_fts (rowid, search) VALUES (new.id, new.search);
	END;
	CREATE TABLE catalog_orders (
		id             INTEGER PRIMARY KEY,
		seller_id      INTEGER NOT NULL,
		env            TEXT    NOT NULL,
		order_nr       TEXT    NOT NULL,
		status         TEXT    NOT NULL,
		payment_method TEXT    NOT NULL,
		currency       TEXT    NOT NULL,
		full_sum       INTEGER NOT NULL,
		delivery_price INTEGER NOT NULL,
		item_quantity  INTEGER NOT NULL,
		is_confirmed   INTEGER NOT NULL,
		created_at     INTEGER NOT NULL,
		updated_at     INTEGER NOT NULL,
		seen_gen       INTEGER NOT NULL,
		search         TEXT    NOT NULL,
		UNIQUE (seller_id, env, order_nr)
	);
	CREATE INDEX catalog_orders_created ON catalog_orders (seller_id, env, created_at);
	CREATE INDEX catalog_orders_search ON catalog_orders (seller_id, env, search);
	CREATE INDEX catalog_orders_status ON catalog_orders (seller_id, env, status);
	CREATE TABLE catalog_boxes (
		id            INTEGER PRIMARY KEY,
		seller_id     INTEGER NOT NULL,
		env           TEXT    NOT NULL,
		code          TEXT    NOT NULL,
		status        TEXT    NOT NULL,
		dimension     TEXT    NOT NULL,
		item_quantity INTEGER NOT NULL,
		created_at    INTEGER NOT NULL,
		updated_at    INTEGER NOT NULL,
		shipped_at    INTEGER,
		seen_gen      INTEGER NOT NULL,
		search        TEXT    NOT NULL,
		UNIQUE (seller_id, env, code)
	);
	CREATE INDEX catalog_boxes_search ON catalog_boxes (seller_id, env, search);
	CREATE TABLE catalog_sync (
		seller_id     INTEGER NOT NULL,
		env           TEXT    NOT NULL,
		kind          TEXT    NOT NULL,
		gen           INTEGER NOT NULL,
		next_page     INTEGER NOT NULL,
		pages         INTEGER NOT NULL,
		total         INTEGER NOT NULL,
		running       INTEGER NOT NULL,
		started_at    INTEGER NOT NULL,
		progress_at   INTEGER NOT NULL,
		completed_at  INTEGER NOT NULL,
		wait_until    INTEGER NOT NULL,
		waits         INTEGER NOT NULL,
		last_error    TEXT    NOT NULL,
		PRIMARY KEY (seller_id, env, kind)
	);
	CREATE TABLE catalog_copies (
		seller_id  INTEGER NOT NULL,
		env        TEXT    NOT NULL,
		used_at    INTEGER NOT NULL,
		revoked    INTEGER NOT NULL,
		PRIMARY KEY (seller_id, env)
	)`

// step1Postgres is step 1 on PostgreSQL: the copy's tables, a generated
// tsvector of the records' search documents under a GIN index.
const step1Postgres = `CREATE TABLE catalog_nomenclature (
		id              BIGSERIAL PRIMARY KEY,
		seller_id       BIGINT  NOT NULL,
		env             TEXT    NOT NULL,
		warehouse       TEXT    NOT NULL,
		barcode         TEXT    NOT NULL,
		marketplace_sku TEXT    COLLATE "C" NOT NULL,
		parent_sku      TEXT    NOT NULL,
		seller_sku      TEXT    COLLATE "C" NOT NULL,
		name            TEXT    COLLATE "C" NOT NULL,
		brand           TEXT    COLLATE "C" NOT NULL,
		size            TEXT    COLLATE "C" NOT NULL,
		price           BIGINT  NOT NULL,
		sale_price      BIGINT  NOT NULL,
		quantity        INTEGER NOT NULL,
		status          TEXT    COLLATE "C" NOT NULL,
		price_status    TEXT    COLLATE "C" NOT NULL,
		updated_at      BIGINT  NOT NULL,
		pending_price   BIGINT,
		pending_sale    BIGINT,
		pending_at      BIGINT,
		seen_gen        BIGINT  NOT NULL,
		search          TEXT    NOT NULL,
		search_tsv      tsvector GENERATED ALWAYS AS (to_tsvector('simple', search)) STORED,
		UNIQUE (seller_id, env, warehouse, barcode)
	);
	CREATE INDEX catalog_nomenclature_sku ON catalog_nomenclature (seller_id, env, marketplace_sku);
	CREATE INDEX catalog_nomenclature_price ON catalog_nomenclature (seller_id, env, price);
	CREATE INDEX catalog_nomenclature_quantity ON catalog_nomenclature (seller_id, env, quantity);
	CREATE INDEX catalog_nomenclature_status ON catalog_nomenclature (seller_id, env, status);
	CREATE INDEX catalog_nomenclature_updated ON catalog_nomenclature (seller_id, env, updated_at);
	CREATE INDEX catalog_nomenclature_gen ON catalog_nomenclature (seller_id, env, seen_gen);
	CREATE INDEX catalog_nomenclature_tsv ON catalog_nomenclature USING GIN (search_tsv);
	CREATE TABLE catalog_orders (
		id             BIGSERIAL PRIMARY KEY,
		seller_id      BIGINT  NOT NULL,
		env            TEXT    NOT NULL,
		order_nr       TEXT    COLLATE "C" NOT NULL,
		status         TEXT    COLLATE "C" NOT NULL,
		payment_method TEXT    COLLATE "C" NOT NULL,
		currency       TEXT    NOT NULL,
		full_sum       BIGINT  NOT NULL,
		delivery_price BIGINT  NOT NULL,
		item_quantity  INTEGER NOT NULL,
		is_confirmed   INTEGER NOT NULL,
		created_at     BIGINT  NOT NULL,
		updated_at     BIGINT  NOT NULL,
		seen_gen       BIGINT  NOT NULL,
		search         TEXT    COLLATE "C" NOT NULL,
		UNIQUE (seller_id, env, order_nr)
	);
	CREATE INDEX catalog_orders_created ON catalog_orders (seller_id, env, created_at);
	CREATE INDEX catalog_orders_search ON catalog_orders (seller_id, env, search);
	CREATE INDEX catalog_orders_status ON catalog_orders (seller_id, env, status);
	CREATE TABLE catalog_boxes (
		id            BIGSERIAL PRIMARY KEY,
		seller_id     BIGINT  NOT NULL,
		env           TEXT    NOT NULL,
		code          TEXT    COLLATE "C" NOT NULL,
		status        TEXT    COLLATE "C" NOT NULL,
		dimension     TEXT    COLLATE "C" NOT NULL,
		item_quantity INTEGER NOT NULL,
		created_at    BIGINT  NOT NULL,
		updated_at    BIGINT  NOT NULL,
		shipped_at    BIGINT,
		seen_gen      BIGINT  NOT NULL,
		search        TEXT    COLLATE "C" NOT NULL,
		UNIQUE (seller_id, env, code)
	);
	CREATE INDEX catalog_boxes_search ON catalog_boxes (seller_id, env, search);
	CREATE TABLE catalog_sync (
		seller_id     BIGINT  NOT NULL,
		env           TEXT    NOT NULL,
		kind          TEXT    NOT NULL,
		gen           BIGINT  NOT NULL,
		next_page     INTEGER NOT NULL,
		pages         INTEGER NOT NULL,
		total         INTEGER NOT NULL,
		running       INTEGER NOT NULL,
		started_at    BIGINT  NOT NULL,
		progress_at   BIGINT  NOT NULL,
		completed_at  BIGINT  NOT NULL,
		wait_until    BIGINT  NOT NULL,
		waits         INTEGER NOT NULL,
		last_error    TEXT    NOT NULL,
		PRIMARY KEY (seller_id, env, kind)
	);
	CREATE TABLE catalog_copies (
		seller_id  BIGINT  NOT NULL,
		env        TEXT    NOT NULL,
		used_at    BIGINT  NOT NULL,
		revoked    INTEGER NOT NULL,
		PRIMARY KEY (seller_id, env)
	)`

// sqliteStatusCounter is the SQLite triggers keeping the per-status
// counts of catalog_<list> in catalog_counts.
func sqliteStatusCounter(list string) string {
	t := "catalog_" + list
	inc := `INSERT INTO catalog_counts VALUES (new.seller_id, new.env, '` + list + `', new.status, 1)
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = n + 1;`
	dec := `UPDATE catalog_counts SET n = n - 1 WHERE seller_id = old.seller_id AND env = old.env AND list = '` + list + `' AND status = old.status;`
	return `;
	CREATE TRIGGER ` + t + `_count_ai AFTER INSERT ON ` + t + ` BEGIN ` + inc + ` END;
	CREATE TRIGGER ` + t + `_count_ad AFTER DELETE ON ` + t + ` BEGIN ` + dec + ` END;
	CREATE TRIGGER ` + t + `_count_au AFTER UPDATE OF status ON ` + t + ` WHEN old.status IS NOT new.status BEGIN ` + dec + inc + ` END`
}

// migrationCountsTable creates catalog_counts and fills it from the rows
// already copied (both dialects). A row counts the rows of one copy
// (seller, environment) in one list ("nomenclature", "orders", "boxes")
// with one status; "zero_stock" counts the nomenclature records with a
// quantity of at most 0, by status. A count that fell to 0 stays as a
// row of 0.
const migrationCountsTable = `CREATE TABLE catalog_counts (
		seller_id BIGINT  NOT NULL,
		env       TEXT    NOT NULL,
		list      TEXT    NOT NULL,
		status    TEXT    NOT NULL,
		n         BIGINT  NOT NULL,
		PRIMARY KEY (seller_id, env, list, status)
	);
	INSERT INTO catalog_counts SELECT seller_id, env, 'nomenclature', status, COUNT(*) FROM catalog_nomenclature GROUP BY seller_id, env, status;
	INSERT INTO catalog_counts SELECT seller_id, env, 'zero_stock', status, COUNT(*) FROM catalog_nomenclature WHERE quantity <= 0 GROUP BY seller_id, env, status;
	INSERT INTO catalog_counts SELECT seller_id, env, 'orders', status, COUNT(*) FROM catalog_orders GROUP BY seller_id, env, status;
	INSERT INTO catalog_counts SELECT seller_id, env, 'boxes', status, COUNT(*) FROM catalog_boxes GROUP BY seller_id, env, status`

// migrationCountsPostgres is step 7 on PostgreSQL: catalog_counts and the
// row triggers keeping it, in the transaction of every write.
const migrationCountsPostgres = migrationCountsTable + `;
	CREATE FUNCTION catalog_count_add(s BIGINT, e TEXT, l TEXT, st TEXT, d INTEGER) RETURNS void AS $$
		INSERT INTO catalog_counts (seller_id, env, list, status, n) VALUES (s, e, l, st, d)
		ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = catalog_counts.n + d
	$$ LANGUAGE sql;
	CREATE FUNCTION catalog_count_row() RETURNS trigger AS $$
	BEGIN
		IF TG_OP <> 'INSERT' THEN
			PERFORM catalog_count_add(OLD.seller_id, OLD.env, TG_ARGV[0], OLD.status, -1);
			IF TG_ARGV[0] = 'nomenclature' THEN
				IF OLD.quantity <= 0 THEN
					PERFORM catalog_count_add(OLD.seller_id, OLD.env, 'zero_stock', OLD.status, -1);
				END IF;
			END IF;
		END IF;
		IF TG_OP <> 'DELETE' THEN
			PERFORM catalog_count_add(NEW.seller_id, NEW.env, TG_ARGV[0], NEW.status, 1);
			IF TG_ARGV[0] = 'nomenclature' THEN
				IF NEW.quantity <= 0 THEN
					PERFORM catalog_count_add(NEW.seller_id, NEW.env, 'zero_stock', NEW.status, 1);
				END IF;
			END IF;
		END IF;
		RETURN NULL;
	END
	$$ LANGUAGE plpgsql;
	CREATE TRIGGER catalog_nomenclature_count AFTER INSERT OR DELETE ON catalog_nomenclature FOR EACH ROW EXECUTE FUNCTION catalog_count_row('nomenclature');
	CREATE TRIGGER catalog_nomenclature_count_au AFTER UPDATE OF status, quantity ON catalog_nomenclature FOR EACH ROW
		WHEN (OLD.status IS DISTINCT FROM NEW.status OR (OLD.quantity <= 0) IS DISTINCT FROM (NEW.quantity <= 0)) EXECUTE FUNCTION catalog_count_row('nomenclature');
	CREATE TRIGGER catalog_orders_count AFTER INSERT OR DELETE ON catalog_orders FOR EACH ROW EXECUTE FUNCTION catalog_count_row('orders');
	CREATE TRIGGER catalog_orders_count_au AFTER UPDATE OF status ON catalog_orders FOR EACH ROW
		WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION catalog_count_row('orders');
	CREATE TRIGGER catalog_boxes_count AFTER INSERT OR DELETE ON catalog_boxes FOR EACH ROW EXECUTE FUNCTION catalog_count_row('boxes');
	CREATE TRIGGER catalog_boxes_count_au AFTER UPDATE OF status ON catalog_boxes FOR EACH ROW
		WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION catalog_count_row('boxes')`

// pgStatementCounter is the PostgreSQL statement triggers keeping the
// counts of catalog_<list> in catalog_counts, one function and one
// trigger per event (a trigger with transition tables has one event).
// An update subtracts the old rows and adds the new ones in one sum per
// count, and writes only the counts whose sum is not 0: an update of
// prices, or a pass rewriting unchanged records, writes none.
func pgStatementCounter(list string) string {
	t := "catalog_" + list
	oldRows, newRows := pgCountRows(list, "old_rows", "-1"), pgCountRows(list, "new_rows", "1")
	return `;
	CREATE FUNCTION ` + t + `_count() RETURNS trigger AS $$
	BEGIN
		IF TG_OP = 'INSERT' THEN
			` + pgAddCounts(newRows) + `
		ELSIF TG_OP = 'DELETE' THEN
			` + pgAddCounts(oldRows) + `
		ELSE
			` + pgAddCounts(oldRows+`
			UNION ALL `+newRows) + `
		END IF;
		RETURN NULL;
	END
	$$ LANGUAGE plpgsql;
	CREATE TRIGGER ` + t + `_count_ai AFTER INSERT ON ` + t + ` REFERENCING NEW TABLE AS new_rows
		FOR EACH STATEMENT EXECUTE FUNCTION ` + t + `_count();
	CREATE TRIGGER ` + t + `_count_ad AFTER DELETE ON ` + t + ` REFERENCING OLD TABLE AS old_rows
		FOR EACH STATEMENT EXECUTE FUNCTION ` + t + `_count();
	CREATE TRIGGER ` + t + `_count_au AFTER UPDATE ON ` + t + ` REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
		FOR EACH STATEMENT EXECUTE FUNCTION ` + t + `_count()`
}

// pgCountRows is the rows of a transition table of catalog_<list> as
// changes d (a number) to their counts (seller_id, env, list, status, d):
// one in list per row and, for the nomenclature, one in "zero_stock" per
// row with a quantity of at most 0.
func pgCountRows(list, rows, d string) string {
	q := `SELECT seller_id, env, '` + list + `' AS list, status, ` + d + ` AS d FROM ` + rows
	if list == "nomenclature" {
		q += `
			UNION ALL SELECT seller_id, env, 'zero_stock', status, ` + d + ` FROM ` + rows + ` WHERE quantity <= 0`
	}
	return q
}

// pgAddCounts is the statement adding changes (pgCountRows) to
// catalog_counts: one write per count whose changes do not sum to 0. A
// count that falls to 0 stays as a row of 0.
func pgAddCounts(changes string) string {
	return `INSERT INTO catalog_counts (seller_id, env, list, status, n)
			SELECT seller_id, env, list, status, SUM(d) FROM (` + changes + `) AS changes
			GROUP BY seller_id, env, list, status HAVING SUM(d) <> 0
			ON CONFLICT (seller_id, env, list, status) DO UPDATE SET n = catalog_counts.n + EXCLUDED.n;`
}
