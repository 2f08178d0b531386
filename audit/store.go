package audit

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Store keeps the audit trail in the dashboard's database (the SQLite file
// or the PostgreSQL database of the sessions), in its own tables. It
// offers no way to change or delete one entry: only Record, an open
// entry's own Append and Finish (Begin), and the retention sweep write.
type Store struct {
	db  *sqldb.DB
	w   *sql.DB      // SQLite: the DB's single writer; PostgreSQL: a view of the pool
	r   *sqldb.Stmts // the read pool through kept statements (sqldb.DB.Reads)
	now func() time.Time
	// inserts are the inserts of items by batch size, prepared on w at
	// their first use (itemsStatement).
	insertMu sync.Mutex
	inserts  map[int]*sql.Stmt
}

// steps are the audit tables' migrations, recorded by sqldb under the
// component "audit". Never edit one that shipped: append a new one. Times
// are Unix milliseconds (sqldb.Millis).
var steps = sqldb.Migrations(
	// 1: entries and their items. Only the entries' generated id is
	// spelled differently by the two dialects.
	sqldb.Step{
		SQLite: `CREATE TABLE audit_entries (
			id          INTEGER PRIMARY KEY AUTOINCREMENT,` + entryTable + itemTable,
		Postgres: `CREATE TABLE audit_entries (
			id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,` + entryTable + itemTable,
	},
	// 2: messages stored as i18n.Msgs (a JSON array), not as text marked
	// in-band.
	sqldb.Step{SQLite: msgStep(false), Postgres: msgStep(true)},
	// 3: an entry written along its send (Store.Begin) is open until
	// finished; every entry recorded before is finished.
	sqldb.Step{SQL: `ALTER TABLE audit_entries ADD COLUMN finished INTEGER NOT NULL DEFAULT 1;`},
)

// msgStep is step 2 in a dialect: the JSON of the two differs.
func msgStep(postgres bool) string {
	return i18n.MigrateSQL(postgres, "audit_entries", "message") +
		i18n.MigrateSQL(postgres, "audit_items", "old_value") +
		i18n.MigrateSQL(postgres, "audit_items", "new_value") +
		i18n.MigrateSQL(postgres, "audit_items", "message") +
		i18n.MigrateSQL(postgres, "audit_items", "readback")
}

const entryTable = `
			at          BIGINT  NOT NULL,
			client_id   TEXT    NOT NULL,
			user_name   TEXT    NOT NULL,
			seller_id   BIGINT  NOT NULL,
			environment TEXT    NOT NULL,
			kind        TEXT    NOT NULL,
			ref         TEXT    NOT NULL,
			outcome     TEXT    NOT NULL,
			message     TEXT    NOT NULL,
			item_count  INTEGER NOT NULL,
			dropped     INTEGER NOT NULL
		);
		CREATE INDEX audit_entries_seller ON audit_entries (seller_id, environment, at);
		CREATE INDEX audit_entries_at ON audit_entries (at);`

const itemTable = `
		CREATE TABLE audit_items (
			entry_id  BIGINT  NOT NULL REFERENCES audit_entries (id) ON DELETE CASCADE,
			seq       INTEGER NOT NULL,
			item_key  TEXT    NOT NULL,
			name      TEXT    NOT NULL,
			old_value TEXT    NOT NULL,
			new_value TEXT    NOT NULL,
			outcome   TEXT    NOT NULL,
			message   TEXT    NOT NULL,
			readback  TEXT    NOT NULL,
			PRIMARY KEY (entry_id, seq)
		);`

// NewStore migrates the audit tables in db and returns the store on it.
// Several instances may start at once on one PostgreSQL database.
func NewStore(ctx context.Context, db *sqldb.DB) (*Store, error) {
	if err := db.Migrate(ctx, "audit", steps); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return &Store{db: db, w: db.Writer(), r: db.Reads(), now: time.Now}, nil
}

// q rewrites ? placeholders for the database.
func (s *Store) q(query string) string { return s.db.Rebind(query) }

// itemBatch bounds the rows of one multi-row insert.
const itemBatch = 200

// Record appends an entry with its items in one transaction. The entry is
// bounded first (see Entry.Clean); a zero At means now.
func (s *Store) Record(ctx context.Context, e Entry) (err error) {
	defer failed(&err)
	e.Clean()
	if e.At.IsZero() {
		e.At = s.now()
	}
	if e.Outcome == "" {
		e.Outcome = OutcomeOf(e.Items)
	}
	// The change is made: recording it must not be lost to the request
	// being cancelled a moment later (a closed tab).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	ins, err := s.itemsStatements(ctx, len(e.Items))
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("audit: record: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, s.q(`INSERT INTO audit_entries (at, client_id, user_name, seller_id, environment, kind, ref, outcome, message, item_count, dropped)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		sqldb.Millis(e.At), e.ClientID, e.UserName, e.SellerID, e.Environment, e.Kind, e.Ref, e.Outcome, e.Message, len(e.Items), e.Dropped).Scan(&id)
	if err != nil {
		return fmt.Errorf("audit: record: %w", err)
	}
	if err := s.insertItems(ctx, tx, ins, id, 0, e.Items); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("audit: record: %w", err)
	}
	return nil
}

// insertItems inserts items as the entry id's, numbered from after seq,
// in batches of itemBatch, through ins (itemsStatements).
func (s *Store) insertItems(ctx context.Context, tx *sql.Tx, ins inserts, id int64, seq int, items []Item) error {
	args := make([]any, 0, min(len(items), itemBatch)*9)
	for start := 0; start < len(items); start += itemBatch {
		batch := items[start:min(start+itemBatch, len(items))]
		args = args[:0]
		for i, it := range batch {
			args = append(args, id, seq+start+i+1, it.Key, it.Name, it.Old, it.New, it.Outcome, it.Message, it.ReadBack)
		}
		var err error
		if st := ins.of(len(batch)); st != nil {
			_, err = tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, s.q(itemsInsert(len(batch))), args...)
		}
		if err != nil {
			return fmt.Errorf("audit: record items: %w", err)
		}
	}
	return nil
}

// inserts are the prepared inserts of a full batch and of the last,
// shorter one; nil for one not prepared.
type inserts struct {
	full, last *sql.Stmt
}

func (ins inserts) of(n int) *sql.Stmt {
	if n == itemBatch {
		return ins.full
	}
	return ins.last
}

// itemsInsert is the insert of n items, nine values each.
func itemsInsert(n int) string {
	var b strings.Builder
	b.WriteString(`INSERT INTO audit_items (entry_id, seq, item_key, name, old_value, new_value, outcome, message, readback) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	return b.String()
}

// maxInserts bounds the batch sizes whose insert a store keeps prepared:
// a full batch and the few last batches the usual sends leave (a form's
// chunk of 500 rows leaves 100; a send's last chunk, one more).
const maxInserts = 8

// itemsStatements are the inserts insertItems uses for n items, prepared
// once per store and batch size (up to maxInserts sizes; beyond, the last
// batch's insert is parsed each time): SQLite parses an insert of 200
// rows of nine values in about as long as it takes to run it. Called
// before a transaction takes SQLite's one writer, which they are
// prepared on.
func (s *Store) itemsStatements(ctx context.Context, n int) (inserts, error) {
	var ins inserts
	var err error
	if n >= itemBatch {
		if ins.full, err = s.itemsStatement(ctx, itemBatch); err != nil {
			return inserts{}, err
		}
	}
	if rest := n % itemBatch; rest > 0 {
		if ins.last, err = s.itemsStatement(ctx, rest); err != nil {
			return inserts{}, err
		}
	}
	return ins, nil
}

// itemsStatement is the insert of n items, prepared once; nil when
// maxInserts sizes are already kept.
func (s *Store) itemsStatement(ctx context.Context, n int) (*sql.Stmt, error) {
	s.insertMu.Lock()
	defer s.insertMu.Unlock()
	if st, ok := s.inserts[n]; ok {
		return st, nil
	}
	if len(s.inserts) >= maxInserts {
		return nil, nil
	}
	st, err := s.w.PrepareContext(ctx, s.q(itemsInsert(n)))
	if err != nil {
		return nil, fmt.Errorf("audit: record items: %w", err)
	}
	if s.inserts == nil {
		s.inserts = map[int]*sql.Stmt{}
	}
	s.inserts[n] = st
	return st, nil
}

// Filter selects entries: always one seller in one environment (a session
// sees its own seller and environment only), optionally a kind, a time
// range [From, To) and a text found in the user, the message, the
// reference, or an item's key, name or message.
type Filter struct {
	SellerID    int64
	Environment string
	Kind        string
	From, To    time.Time
	Text        string
}

// MaxSearchText bounds the search text.
const MaxSearchText = 100

func (s *Store) where(f Filter) (string, []any) {
	var b strings.Builder
	args := []any{f.SellerID, f.Environment}
	b.WriteString(`e.seller_id = ? AND e.environment = ? AND ` + shown)
	args = append(args, s.shownSince())
	if f.Kind != "" {
		b.WriteString(` AND e.kind = ?`)
		args = append(args, f.Kind)
	}
	if !f.From.IsZero() {
		b.WriteString(` AND e.at >= ?`)
		args = append(args, sqldb.Millis(f.From))
	}
	if !f.To.IsZero() {
		b.WriteString(` AND e.at < ?`)
		args = append(args, sqldb.Millis(f.To))
	}
	if t := Bound(f.Text, MaxSearchText); t != "" {
		pat := "%" + likeEscaper.Replace(strings.ToLower(t)) + "%"
		like := func(col string) string { return `LOWER(` + col + `) LIKE ? ESCAPE '\'` }
		b.WriteString(` AND (` + like("e.client_id") + ` OR ` + like("e.user_name") + ` OR ` + like("e.message") + ` OR ` + like("e.ref") +
			` OR EXISTS (SELECT 1 FROM audit_items i WHERE i.entry_id = e.id AND (` + like("i.item_key") + ` OR ` + like("i.name") + ` OR ` + like("i.message") + `)))`)
		for range 7 {
			args = append(args, pat)
		}
	}
	return b.String(), args
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

const entryColumns = `e.id, e.at, e.client_id, e.user_name, e.seller_id, e.environment, e.kind, e.ref, e.outcome, e.message, e.item_count, e.dropped`

func scanEntry(sc interface{ Scan(...any) error }, extra ...any) (Entry, error) {
	var e Entry
	var at int64
	dst := append([]any{&e.ID, &at, &e.ClientID, &e.UserName, &e.SellerID, &e.Environment, &e.Kind, &e.Ref, &e.Outcome, &e.Message, &e.ItemCount, &e.Dropped}, extra...)
	if err := sc.Scan(dst...); err != nil {
		return Entry{}, err
	}
	e.At = sqldb.FromMillis(at)
	return e, nil
}

// List returns a page of the entries the filter selects, newest first,
// each with at most itemsEach of its items, and how many entries match in
// all. It reads the page with its count in one statement and the items of
// all its entries in one more, whatever the page holds: two round trips on
// PostgreSQL.
func (s *Store) List(ctx context.Context, f Filter, limit, offset, itemsEach int) (_ []Entry, _ int, err error) {
	defer failed(&err)
	where, args := s.where(f)
	// The count is an uncorrelated subquery: both databases run it once,
	// as they ran it apart, and the page's own read still stops at limit.
	lim, largs := sqldb.Limit(limit, offset)
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+entryColumns+`, (SELECT COUNT(*) FROM audit_entries e WHERE `+where+`)
		FROM audit_entries e WHERE `+where+` ORDER BY e.at DESC, e.id DESC`+lim),
		append(append(append(make([]any, 0, 2*len(args)+2), args...), args...), largs...)...)
	if err != nil {
		return nil, 0, fmt.Errorf("audit: list: %w", err)
	}
	var out []Entry
	var total int
	for rows.Next() {
		e, err := scanEntry(rows, &total)
		if err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("audit: list: %w", err)
		}
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("audit: list: %w", err)
	}
	if len(out) == 0 && offset > 0 {
		// A page past the last: the count did not come with a row.
		if err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM audit_entries e WHERE `+where), args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("audit: count: %w", err)
		}
	}
	if itemsEach > 0 && len(out) > 0 {
		// An entry's items are numbered from 1 with no gaps (insertItems;
		// none is ever deleted alone), so its first itemsEach are the ones
		// numbered up to itemsEach: read through the key, never the rest
		// of a 10,000-item entry.
		if err := s.itemsOf(ctx, out, itemsEach, `seq <= ?`, itemsEach); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// itemsOf reads the items of every entry of out that match cond (with its
// args) in one statement, in order, and gives each entry at most itemsEach
// of them.
func (s *Store) itemsOf(ctx context.Context, out []Entry, itemsEach int, cond string, args ...any) error {
	at := make(map[int64]int, len(out))
	ids := make([]int64, len(out))
	for i, e := range out {
		at[e.ID], ids[i] = i, e.ID
	}
	// One statement text whatever the number of entries: the ids go as one
	// parameter (an array on PostgreSQL, a JSON array on SQLite).
	in, idArg := `entry_id = ANY(CAST(? AS BIGINT[]))`, any(ids)
	if !s.db.Postgres() {
		var b strings.Builder
		b.WriteByte('[')
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatInt(id, 10))
		}
		b.WriteByte(']')
		in, idArg = `entry_id IN (SELECT value FROM json_each(?))`, b.String()
	}
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT entry_id, item_key, name, old_value, new_value, outcome, message, readback FROM audit_items
		WHERE `+in+` AND `+cond+` ORDER BY entry_id, seq`), append([]any{idArg}, args...)...)
	if err != nil {
		return fmt.Errorf("audit: items: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var it Item
		if err := rows.Scan(&id, &it.Key, &it.Name, &it.Old, &it.New, &it.Outcome, &it.Message, &it.ReadBack); err != nil {
			return fmt.Errorf("audit: items: %w", err)
		}
		i, ok := at[id]
		if !ok || len(out[i].Items) >= itemsEach {
			continue
		}
		out[i].Items = append(out[i].Items, it)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("audit: items: %w", err)
	}
	return nil
}

// items reads at most limit of one entry's items, in order (the export
// reads an entry at a time, so it holds one entry's items at most).
func (s *Store) items(ctx context.Context, id int64, limit int) ([]Item, error) {
	return s.query(ctx, `SELECT item_key, name, old_value, new_value, outcome, message, readback FROM audit_items
		WHERE entry_id = ? ORDER BY seq LIMIT ?`, id, limit)
}

// Each calls fn for every item of every entry the filter selects, newest
// entry first and items in order; an entry without items is passed once
// with a zero Item. It reads in pages of entries, so a large history is
// streamed without holding a read transaction open for the whole export.
func (s *Store) Each(ctx context.Context, f Filter, fn func(Entry, Item) error) error {
	where, args := s.where(f)
	const page = 200
	lastAt, lastID := int64(-1), int64(0)
	for {
		q := `SELECT ` + entryColumns + ` FROM audit_entries e WHERE ` + where
		a := append([]any(nil), args...)
		if lastAt >= 0 {
			q += ` AND (e.at < ? OR (e.at = ? AND e.id < ?))`
			a = append(a, lastAt, lastAt, lastID)
		}
		q += ` ORDER BY e.at DESC, e.id DESC LIMIT ?`
		a = append(a, page)
		rows, err := s.r.QueryContext(ctx, s.q(q), a...)
		if err != nil {
			return fmt.Errorf("audit: export: %w", err)
		}
		var batch []Entry
		for rows.Next() {
			e, err := scanEntry(rows)
			if err != nil {
				rows.Close()
				return fmt.Errorf("audit: export: %w", err)
			}
			batch = append(batch, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("audit: export: %w", err)
		}
		for _, e := range batch {
			items, err := s.items(ctx, e.ID, MaxItems)
			if err != nil {
				return err
			}
			if len(items) == 0 {
				if err := fn(e, Item{}); err != nil {
					return err
				}
			}
			for _, it := range items {
				if err := fn(e, it); err != nil {
					return err
				}
			}
			lastAt, lastID = sqldb.Millis(e.At), e.ID
		}
		if len(batch) < page {
			return nil
		}
	}
}

// PruneBefore removes at most limit entries recorded before t, oldest
// first, with their items, in one short transaction, and reports how many
// it removed. Callers loop while it returns limit, so a backlog never
// holds the (SQLite) writer for long.
func (s *Store) PruneBefore(ctx context.Context, t time.Time, limit int) (int, error) {
	if limit <= 0 {
		limit = 100
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("audit: prune: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id FROM audit_entries WHERE at < ? ORDER BY at, id LIMIT ?`), sqldb.Millis(t), limit)
	if err != nil {
		return 0, fmt.Errorf("audit: prune: %w", err)
	}
	var ids []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("audit: prune: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("audit: prune: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	in := strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM audit_items WHERE entry_id IN (`+in+`)`), ids...); err != nil {
		return 0, fmt.Errorf("audit: prune items: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM audit_entries WHERE id IN (`+in+`)`), ids...); err != nil {
		return 0, fmt.Errorf("audit: prune: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("audit: prune: %w", err)
	}
	return len(ids), nil
}

// failed marks a failure of the audit tables as the database's
// (sqldb.ErrUnavailable, naming the store "history"), so a page says the
// history is unavailable.
func failed(err *error) {
	*err = sqldb.Unavailable("history", *err)
}
