package bulkjobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Job states.
const (
	StatePreview   = "preview"   // parsed and checked, nothing sent
	StateQueued    = "queued"    // submitted, waiting for the runner
	StateRunning   = "running"   // sending chunks
	StateWaiting   = "waiting"   // the marketplace asked us to wait (429/503)
	StateDone      = "done"      // every chunk answered
	StateCancelled = "cancelled" // stopped by the user after a chunk
	StateStopped   = "stopped"   // stopped by a failure (logged out, refused)
)

// Item states once a job is submitted.
const (
	ItemQueued   = "queued"
	ItemAccepted = "accepted"
	ItemRejected = "rejected"
	ItemUnsent   = "unsent"
	ItemUnknown  = "unknown" // sent, no answer: the read-back tells
	ItemHeld     = "held"    // changed since preview: not sent
	ItemSkipped  = "skipped" // unchanged, invalid or unconfirmed: not sent
)

// Preview flags.
const (
	FlagOK        = "ok"
	FlagUnchanged = "unchanged"
	FlagInvalid   = "invalid"
	FlagGuard     = "guard" // beyond the fat-finger guard: needs confirmation
)

// Read-back results.
const (
	ReadConfirmed  = "confirmed"
	ReadProcessing = "processing"
	// ReadQuarantine: the marketplace holds the price back for review
	// (the Seller API v2's QUARANTINE), neither applied nor refused.
	ReadQuarantine = "quarantine"
	ReadDifferent  = "different"
	ReadMissing    = "missing"
)

// ErrNotFound means no job has the given id.
var ErrNotFound = errors.New("bulkjobs: job not found")

// Job is one import: its preview and, once submitted, its run. It holds no
// secret: SessionRef names the session whose credentials the job uses.
type Job struct {
	ID, Kind, State                    string
	SessionRef                         string
	ClientID, DisplayName, Environment string
	SellerID                           int64
	FileName, ParentID                 string
	GuardPercent, ChunkSize            int
	Chunks, NextChunk                  int
	// InFlight is 1 + the chunk sent and not yet answered, recorded before
	// it is sent; 0 when none is. A runner that finds it set for the next
	// chunk knows the last one died with the chunk in flight: its rows may
	// or may not have been applied, so they are read back before anything
	// is sent again.
	InFlight                           int
	CancelRequested                    bool
	StopReason                         i18n.Msgs
	WaitUntil                          time.Time
	CreatedAt, SubmittedAt, FinishedAt time.Time
	ReadBackAt, ReadBackDoneAt         time.Time
	Counts                             Counts
}

// Counts summarises a job's rows by state and flag.
type Counts struct {
	Rows, Queued, Accepted, Rejected, Unsent, Unknown, Held, Skipped int
	OK, Unchanged, Invalid, Guard                                    int
	Confirmed, Processing, Different                                 int
}

// Sent is the number of rows the marketplace has seen.
func (c Counts) Sent() int { return c.Accepted + c.Rejected + c.Unknown }

// ToSend is the number of rows submitted to be sent.
func (c Counts) ToSend() int { return c.Queued + c.Sent() + c.Unsent }

// Active reports whether the runner still has work for the job.
func (j Job) Active() bool {
	switch j.State {
	case StateQueued, StateRunning, StateWaiting:
		return true
	}
	return false
}

// Item is one row of an import.
type Item struct {
	Seq     int    // order in the job, from 1
	Line    int    // row number in the file
	Key     string // marketplace SKU, or warehouse|barcode
	Flag    string
	Chunk   int // -1 when not sent
	State   string
	OldText i18n.Msgs // the current value at preview, as shown
	NewText i18n.Msgs // the new value, as shown
	OldNum  int64     // current and new value in kopecks or pieces, for Δ
	NewNum  int64
	HasNum  bool
	Typed   string    // the typed cells (JSON), kept for results and retries
	Payload string    // the update to send (JSON)
	Current string    // the current values at preview (JSON), for the stale check
	Message i18n.Msgs // validation problem, marketplace answer, or why not sent
	// ReadBack is the read-back result; ReadBackText what was found.
	ReadBack     string
	ReadBackText i18n.Msgs
}

// Store keeps jobs in the dashboard's database (the one sqldb.DB of the
// process, shared with the sessions), in its own tables.
type Store struct {
	db *sqldb.DB
	w  *sql.DB      // SQLite: the DB's single writer; PostgreSQL: a view of the pool
	r  *sqldb.Stmts // the read pool through kept statements (sqldb.DB.Reads)
}

// NewStore migrates the job tables in db and returns the store on it.
// Several instances may start at once on one PostgreSQL database.
func NewStore(ctx context.Context, db *sqldb.DB) (*Store, error) {
	if err := db.Migrate(ctx, "bulkjobs", migrations); err != nil {
		return nil, fmt.Errorf("bulkjobs: %w", err)
	}
	return &Store{db: db, w: db.Writer(), r: db.Reads()}, nil
}

// migrations are the job tables' steps, recorded in sqldb's migrations
// table under the component "bulkjobs". Never edit one that shipped: append
// a new one. Times are Unix milliseconds (sqldb.Millis); the SQL is common
// to SQLite and PostgreSQL but for the message conversion (msgStep).
var migrations = sqldb.Migrations(
	// 1: jobs and their rows.
	sqldb.Step{SQL: `CREATE TABLE bulk_jobs (
		id               TEXT    PRIMARY KEY,
		kind             TEXT    NOT NULL,
		state            TEXT    NOT NULL,
		session_ref      TEXT    NOT NULL,
		client_id        TEXT    NOT NULL,
		display_name     TEXT    NOT NULL,
		seller_id        BIGINT  NOT NULL,
		environment      TEXT    NOT NULL,
		file_name        TEXT    NOT NULL,
		parent_id        TEXT    NOT NULL,
		guard_percent    INTEGER NOT NULL,
		chunk_size       INTEGER NOT NULL,
		chunks           INTEGER NOT NULL,
		next_chunk       INTEGER NOT NULL,
		cancel_requested INTEGER NOT NULL,
		stop_reason      TEXT    NOT NULL,
		wait_until       BIGINT  NOT NULL,
		created_at       BIGINT  NOT NULL,
		submitted_at     BIGINT  NOT NULL,
		finished_at      BIGINT  NOT NULL,
		readback_at      BIGINT  NOT NULL,
		readback_done_at BIGINT  NOT NULL
	);
	CREATE INDEX bulk_jobs_seller ON bulk_jobs (seller_id, created_at);
	CREATE INDEX bulk_jobs_state ON bulk_jobs (state);
	CREATE TABLE bulk_job_items (
		job_id        TEXT    NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
		seq           INTEGER NOT NULL,
		line          INTEGER NOT NULL,
		item_key      TEXT    NOT NULL,
		flag          TEXT    NOT NULL,
		chunk         INTEGER NOT NULL,
		state         TEXT    NOT NULL,
		old_text      TEXT    NOT NULL,
		new_text      TEXT    NOT NULL,
		old_num       BIGINT  NOT NULL,
		new_num       BIGINT  NOT NULL,
		has_num       INTEGER NOT NULL,
		typed         TEXT    NOT NULL,
		payload       TEXT    NOT NULL,
		current_value TEXT    NOT NULL,
		message       TEXT    NOT NULL,
		readback      TEXT    NOT NULL,
		readback_text TEXT    NOT NULL,
		PRIMARY KEY (job_id, seq)
	);
	CREATE INDEX bulk_job_items_chunk ON bulk_job_items (job_id, chunk);`},
	// 2: a lease per job, so that of several dashboards on one database
	// only one works on a job at a time (see Store.Claim).
	sqldb.Step{SQL: `ALTER TABLE bulk_jobs ADD COLUMN lease_owner TEXT NOT NULL DEFAULT '';
	ALTER TABLE bulk_jobs ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
	CREATE INDEX bulk_jobs_preview_age ON bulk_jobs (state, created_at);`},
	// 3: the chunk sent and not yet answered, recorded before it is sent,
	// so a dashboard that died meanwhile is known to have left its outcome
	// unknown (see Job.InFlight).
	sqldb.Step{SQL: `ALTER TABLE bulk_jobs ADD COLUMN inflight INTEGER NOT NULL DEFAULT 0;`},
	// 4: messages stored as i18n.Msgs (a JSON array), not as text marked
	// in-band.
	sqldb.Step{SQLite: msgStep(false), Postgres: msgStep(true)},
)

// msgStep is step 4 in a dialect: the JSON of the two differs.
func msgStep(postgres bool) string {
	return i18n.MigrateSQL(postgres, "bulk_jobs", "stop_reason") +
		i18n.MigrateSQL(postgres, "bulk_job_items", "message") +
		i18n.MigrateSQL(postgres, "bulk_job_items", "old_text") +
		i18n.MigrateSQL(postgres, "bulk_job_items", "new_text") +
		i18n.MigrateSQL(postgres, "bulk_job_items", "readback_text")
}

// q rewrites ? placeholders for the database's dialect.
func (s *Store) q(query string) string { return s.db.Rebind(query) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

const jobColumns = `id, kind, state, session_ref, client_id, display_name, seller_id, environment, file_name, parent_id,
	guard_percent, chunk_size, chunks, next_chunk, cancel_requested, stop_reason, wait_until, created_at, submitted_at,
	finished_at, readback_at, readback_done_at, inflight`

// CreateJob stores a new job with its rows.
func (s *Store) CreateJob(ctx context.Context, j *Job, items []Item) (err error) {
	defer failed(&err)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, s.q(`INSERT INTO bulk_jobs (`+jobColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		j.ID, j.Kind, j.State, j.SessionRef, j.ClientID, j.DisplayName, j.SellerID, j.Environment, j.FileName, j.ParentID,
		j.GuardPercent, j.ChunkSize, j.Chunks, j.NextChunk, b2i(j.CancelRequested), j.StopReason, sqldb.Millis(j.WaitUntil), sqldb.Millis(j.CreatedAt),
		sqldb.Millis(j.SubmittedAt), sqldb.Millis(j.FinishedAt), sqldb.Millis(j.ReadBackAt), sqldb.Millis(j.ReadBackDoneAt), j.InFlight)
	if err != nil {
		return fmt.Errorf("bulkjobs: create job: %w", err)
	}
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO bulk_job_items (job_id, seq, line, item_key, flag, chunk, state, old_text, new_text,
		old_num, new_num, has_num, typed, payload, current_value, message, readback, readback_text)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`))
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, it := range items {
		if _, err := stmt.ExecContext(ctx, j.ID, it.Seq, it.Line, it.Key, it.Flag, it.Chunk, it.State, it.OldText, it.NewText,
			it.OldNum, it.NewNum, b2i(it.HasNum), it.Typed, it.Payload, it.Current, it.Message, it.ReadBack, it.ReadBackText); err != nil {
			return fmt.Errorf("bulkjobs: create item: %w", err)
		}
	}
	if err := s.recount(ctx, tx, j); err != nil {
		return err
	}
	return tx.Commit()
}

// Save writes a job's mutable fields (never CancelRequested, which only
// RequestCancel sets) and the mutable fields of the given rows, in one
// transaction, and refreshes j.Counts.
func (s *Store) Save(ctx context.Context, j *Job, items []Item) (err error) {
	defer failed(&err)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`UPDATE bulk_jobs SET state = ?, session_ref = ?, chunks = ?, next_chunk = ?, stop_reason = ?, wait_until = ?,
		submitted_at = ?, finished_at = ?, readback_at = ?, readback_done_at = ?, guard_percent = ?, inflight = ? WHERE id = ?`),
		j.State, j.SessionRef, j.Chunks, j.NextChunk, j.StopReason, sqldb.Millis(j.WaitUntil), sqldb.Millis(j.SubmittedAt), sqldb.Millis(j.FinishedAt),
		sqldb.Millis(j.ReadBackAt), sqldb.Millis(j.ReadBackDoneAt), j.GuardPercent, j.InFlight, j.ID)
	if err != nil {
		return fmt.Errorf("bulkjobs: save job: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if len(items) > 0 {
		stmt, err := tx.PrepareContext(ctx, s.q(`UPDATE bulk_job_items SET flag = ?, chunk = ?, state = ?, message = ?, readback = ?, readback_text = ?,
			old_text = ?, old_num = ? WHERE job_id = ? AND seq = ?`))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, it := range items {
			if _, err := stmt.ExecContext(ctx, it.Flag, it.Chunk, it.State, it.Message, it.ReadBack, it.ReadBackText, it.OldText, it.OldNum, j.ID, it.Seq); err != nil {
				return fmt.Errorf("bulkjobs: save item: %w", err)
			}
		}
	}
	if err := s.recount(ctx, tx, j); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Store) recount(ctx context.Context, tx *sql.Tx, j *Job) error {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT flag, state, readback, COUNT(*) FROM bulk_job_items WHERE job_id = ? GROUP BY flag, state, readback`), j.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	c := Counts{}
	for rows.Next() {
		var flag, state, rb string
		var n int
		if err := rows.Scan(&flag, &state, &rb, &n); err != nil {
			return err
		}
		c.add(flag, state, rb, n)
	}
	j.Counts = c
	return rows.Err()
}

func (c *Counts) add(flag, state, rb string, n int) {
	c.Rows += n
	switch flag {
	case FlagOK:
		c.OK += n
	case FlagUnchanged:
		c.Unchanged += n
	case FlagInvalid:
		c.Invalid += n
	case FlagGuard:
		c.Guard += n
	}
	switch state {
	case ItemQueued:
		c.Queued += n
	case ItemAccepted:
		c.Accepted += n
	case ItemRejected:
		c.Rejected += n
	case ItemUnsent:
		c.Unsent += n
	case ItemUnknown:
		c.Unknown += n
	case ItemHeld:
		c.Held += n
	case ItemSkipped:
		c.Skipped += n
	}
	switch rb {
	case ReadConfirmed:
		c.Confirmed += n
	case ReadProcessing, ReadQuarantine:
		c.Processing += n
	case ReadDifferent, ReadMissing:
		c.Different += n
	}
}

type scanner interface{ Scan(...any) error }

func scanJob(sc scanner) (Job, error) {
	var j Job
	var cancel int
	var wait, created, submitted, finished, rbAt, rbDone int64
	err := sc.Scan(&j.ID, &j.Kind, &j.State, &j.SessionRef, &j.ClientID, &j.DisplayName, &j.SellerID, &j.Environment, &j.FileName, &j.ParentID,
		&j.GuardPercent, &j.ChunkSize, &j.Chunks, &j.NextChunk, &cancel, &j.StopReason, &wait, &created, &submitted, &finished, &rbAt, &rbDone, &j.InFlight)
	if err != nil {
		return Job{}, err
	}
	j.CancelRequested = cancel != 0
	j.WaitUntil, j.CreatedAt, j.SubmittedAt, j.FinishedAt = sqldb.FromMillis(wait), sqldb.FromMillis(created), sqldb.FromMillis(submitted), sqldb.FromMillis(finished)
	j.ReadBackAt, j.ReadBackDoneAt = sqldb.FromMillis(rbAt), sqldb.FromMillis(rbDone)
	return j, nil
}

// Job returns a job with its counts, or ErrNotFound.
func (s *Store) Job(ctx context.Context, id string) (_ Job, err error) {
	defer failed(&err)
	j, err := scanJob(s.r.QueryRowContext(ctx, s.q(`SELECT `+jobColumns+` FROM bulk_jobs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, ErrNotFound
	}
	if err != nil {
		return Job{}, fmt.Errorf("bulkjobs: load job: %w", err)
	}
	counts, err := s.counts(ctx, []string{id})
	if err != nil {
		return Job{}, err
	}
	j.Counts = counts[id]
	return j, nil
}

func (s *Store) counts(ctx context.Context, ids []string) (map[string]Counts, error) {
	out := map[string]Counts{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT job_id, flag, state, readback, COUNT(*) FROM bulk_job_items WHERE job_id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`) GROUP BY job_id, flag, state, readback`), args...)
	if err != nil {
		return nil, fmt.Errorf("bulkjobs: count items: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, flag, state, rb string
		var n int
		if err := rows.Scan(&id, &flag, &state, &rb, &n); err != nil {
			return nil, err
		}
		c := out[id]
		c.add(flag, state, rb, n)
		out[id] = c
	}
	return out, rows.Err()
}

const itemColumns = `seq, line, item_key, flag, chunk, state, old_text, new_text, old_num, new_num, has_num, typed, payload, current_value,
	message, readback, readback_text`

func (s *Store) items(ctx context.Context, where string, args ...any) ([]Item, error) {
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+itemColumns+` FROM bulk_job_items WHERE `+where+` ORDER BY seq`), args...)
	if err != nil {
		return nil, fmt.Errorf("bulkjobs: load items: %w", err)
	}
	defer rows.Close()
	var out []Item
	for rows.Next() {
		var it Item
		var has int
		if err := rows.Scan(&it.Seq, &it.Line, &it.Key, &it.Flag, &it.Chunk, &it.State, &it.OldText, &it.NewText, &it.OldNum, &it.NewNum, &has,
			&it.Typed, &it.Payload, &it.Current, &it.Message, &it.ReadBack, &it.ReadBackText); err != nil {
			return nil, err
		}
		it.HasNum = has != 0
		out = append(out, it)
	}
	return out, rows.Err()
}

// Items returns every row of a job in file order.
func (s *Store) Items(ctx context.Context, id string) (_ []Item, err error) {
	defer failed(&err)
	return s.items(ctx, `job_id = ?`, id)
}

// ChunkItems returns the rows of one chunk still waiting to be sent.
func (s *Store) ChunkItems(ctx context.Context, id string, chunk int) (_ []Item, err error) {
	defer failed(&err)
	return s.items(ctx, `job_id = ? AND chunk = ? AND state = ?`, id, chunk, ItemQueued)
}

// RequestCancel asks the runner to stop a job after its current chunk.
func (s *Store) RequestCancel(ctx context.Context, id string) (err error) {
	defer failed(&err)
	_, err = s.w.ExecContext(ctx, s.q(`UPDATE bulk_jobs SET cancel_requested = 1 WHERE id = ?`), id)
	return err
}

// Jobs lists the jobs of a seller in one environment (production and test
// are separate marketplaces), newest first, for the history page.
func (s *Store) Jobs(ctx context.Context, sellerID int64, environment string, limit, offset int) (_ []Job, _ int, err error) {
	defer failed(&err)
	var total int
	if err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM bulk_jobs WHERE seller_id = ? AND environment = ? AND state <> ?`),
		sellerID, environment, StatePreview).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("bulkjobs: count jobs: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+jobColumns+` FROM bulk_jobs WHERE seller_id = ? AND environment = ? AND state <> ?
		ORDER BY created_at DESC, id LIMIT ? OFFSET ?`), sellerID, environment, StatePreview, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("bulkjobs: list jobs: %w", err)
	}
	jobs, err := scanJobs(rows)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]string, len(jobs))
	for i, j := range jobs {
		ids[i] = j.ID
	}
	counts, err := s.counts(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	for i := range jobs {
		jobs[i].Counts = counts[jobs[i].ID]
	}
	return jobs, total, nil
}

func scanJobs(rows *sql.Rows) ([]Job, error) {
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Pending lists the jobs the runner has to resume: unfinished runs and
// read-backs not yet done.
func (s *Store) Pending(ctx context.Context) ([]Job, error) {
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+jobColumns+` FROM bulk_jobs WHERE state IN (?, ?, ?)
		OR (readback_at > 0 AND readback_done_at = 0) ORDER BY submitted_at`), StateQueued, StateRunning, StateWaiting)
	if err != nil {
		return nil, fmt.Errorf("bulkjobs: pending jobs: %w", err)
	}
	return scanJobs(rows)
}

// Delete removes a job and its rows.
func (s *Store) Delete(ctx context.Context, id string) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM bulk_job_items WHERE job_id = ?`), id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM bulk_jobs WHERE id = ?`), id); err != nil {
		return err
	}
	return tx.Commit()
}

// DeletePreviewsBefore removes at most limit previews never submitted,
// created before t, with their rows, oldest first, in one short
// transaction, and reports how many it removed. Callers loop while it
// returns limit, so a backlog never holds the (SQLite) writer for long.
func (s *Store) DeletePreviewsBefore(ctx context.Context, t time.Time, limit int) (int, error) {
	if limit <= 0 {
		limit = 100
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id FROM bulk_jobs WHERE state = ? AND created_at < ? ORDER BY created_at, id LIMIT ?`),
		StatePreview, sqldb.Millis(t), limit)
	if err != nil {
		return 0, fmt.Errorf("bulkjobs: old previews: %w", err)
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	in := "(?" + strings.Repeat(", ?", len(ids)-1) + ")"
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM bulk_job_items WHERE job_id IN `+in), ids...); err != nil {
		return 0, fmt.Errorf("bulkjobs: delete old previews: %w", err)
	}
	// state is checked again: a preview submitted meanwhile stays (its rows
	// would be gone, so the transaction is rolled back instead).
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM bulk_jobs WHERE state = ? AND id IN `+in), append([]any{StatePreview}, ids...)...)
	if err != nil {
		return 0, fmt.Errorf("bulkjobs: delete old previews: %w", err)
	}
	if n, _ := res.RowsAffected(); int(n) != len(ids) {
		return 0, nil // raced with a submit: try again next time
	}
	return len(ids), tx.Commit()
}

// Claim takes or renews the lease on a job for owner until until. It
// fails (false) while another owner holds an unexpired lease. Every
// dashboard sharing the database runs jobs only under a lease, so one
// chunk is never sent by two of them: the lease is renewed before each
// chunk for longer than a chunk can take, and released when the job ends
// or the runner stops.
func (s *Store) Claim(ctx context.Context, id, owner string, now, until time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, s.q(`UPDATE bulk_jobs SET lease_owner = ?, lease_until = ?
		WHERE id = ? AND (lease_owner = '' OR lease_owner = ? OR lease_until < ?)`), owner, sqldb.Millis(until), id, owner, sqldb.Millis(now))
	if err != nil {
		return false, fmt.Errorf("bulkjobs: claim job: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Release gives up owner's lease on a job (nothing if another holds it).
func (s *Store) Release(ctx context.Context, id, owner string) error {
	_, err := s.w.ExecContext(ctx, s.q(`UPDATE bulk_jobs SET lease_owner = '', lease_until = 0 WHERE id = ? AND lease_owner = ?`), id, owner)
	return err
}

// Lease reports who holds a job's lease and until when (tests, support).
func (s *Store) Lease(ctx context.Context, id string) (string, time.Time, error) {
	var owner string
	var until int64
	err := s.r.QueryRowContext(ctx, s.q(`SELECT lease_owner, lease_until FROM bulk_jobs WHERE id = ?`), id).Scan(&owner, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, ErrNotFound
	}
	return owner, sqldb.FromMillis(until), err
}

// failed marks a failure of the job tables as the database's
// (sqldb.ErrUnavailable, naming the store "jobs"), so a page says the job
// service is unavailable; ErrNotFound stays as it is.
func failed(err *error) {
	if *err != nil && !errors.Is(*err, ErrNotFound) {
		*err = sqldb.Unavailable("jobs", *err)
	}
}
