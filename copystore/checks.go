package copystore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Checks is what a page of the copy of one seller reads before its rows,
// read in one statement (one round trip on PostgreSQL): the sync states,
// whether the copy's credential was refused, the copy's write version
// (the count cache's key) and the kept counts, and, read for a request
// (ReadRequestChecks), whether the marketplace rejected the credential the
// session holds. A request reads them once and hands them to the page's
// reads with WithChecks, which then send only their own statement.
type Checks struct {
	// States are the sync states of every kind that has one.
	States map[string]SyncState
	// Rejected: the marketplace rejected the credential the checks were
	// read for (CredentialRejected's answer, read in the same statement).
	Rejected bool
	key      Key
	// flag is the copy's access flag (accessColumn).
	flag    int64
	version int64
	counts  []keptCount
}

// keptCount is one kept count of the copy: a list's records of one status.
type keptCount struct {
	list, status string
	n            int
}

// checksRows is the statement of ReadChecks: one row a sync state (tag
// 0, its packed state), one a kept count above 0 (tag 1, list, status,
// n; a status whose count fell to 0 is left out, as a GROUP BY would), then
// the access flag (tag 2, accessColumn), the version (tag 3) and the
// rejected credentials of the fingerprint asked (tag 4, none for "").
var checksRows = `SELECT 0, ` + packedState + `, '', 0 FROM catalog_sync WHERE seller_id = ? AND env = ?
	UNION ALL SELECT 1, list, status, n FROM catalog_counts WHERE seller_id = ? AND env = ? AND n > 0
	UNION ALL SELECT 2, '', '', ` + accessColumn + `
	UNION ALL SELECT 3, '', '', COALESCE((SELECT v FROM catalog_versions WHERE seller_id = ? AND env = ?), 0)
	UNION ALL SELECT 4, '', '', COUNT(*) FROM catalog_credentials WHERE fingerprint = ?`

// ReadChecks reads the checks of the copy of k.
func (s *Store) ReadChecks(ctx context.Context, k Key) (*Checks, error) {
	return s.ReadRequestChecks(ctx, k, "")
}

// ReadRequestChecks reads the checks of the copy of k and, in the same
// statement, whether the marketplace rejected cred (Checks.Rejected): all
// one request of a session holding cred checks before it serves anything,
// in one round trip.
func (s *Store) ReadRequestChecks(ctx context.Context, k Key, cred Credential) (*Checks, error) {
	q, args := s.RequestChecksQuery(k, cred)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("copystore: checks: %w", err)
	}
	defer rows.Close()
	return ScanChecks(k, rows)
}

// RequestChecksQuery is ReadRequestChecks' statement in the database's
// dialect and its arguments, for a caller sending it along with a read of
// its own (the session's load: sessions.Companion); ScanChecks reads its
// rows.
func (s *Store) RequestChecksQuery(k Key, cred Credential) (string, []any) {
	return s.q(checksRows), []any{k.SellerID, k.Env, k.SellerID, k.Env, k.SellerID, k.Env, k.SellerID, k.Env, string(cred)}
}

// DB is the database the store reads, RequestChecksQuery's statement's.
func (s *Store) DB() *sqldb.DB { return s.db }

// Rows are the rows of a statement (*sql.Rows and pgx.Rows both are).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanChecks reads the rows of RequestChecksQuery's statement for k.
func ScanChecks(k Key, rows Rows) (*Checks, error) {
	// The counts in a slice, and one destination list for every row: a
	// request reads a few dozen rows, and maps or a Scan argument list per
	// row cost allocations every page pays.
	c := &Checks{key: k, States: make(map[string]SyncState, len(Kinds)), counts: make([]keptCount, 0, 32)}
	var tag int
	var a, b string
	var n int64
	dest := []any{&tag, &a, &b, &n}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("copystore: checks: %w", err)
		}
		switch tag {
		case 0:
			st, err := unpackState(a)
			if err != nil {
				return nil, err
			}
			c.States[st.Kind] = st
		case 1:
			c.counts = append(c.counts, keptCount{list: a, status: b, n: int(n)})
		case 2:
			c.flag = n
		case 3:
			c.version = n
		case 4:
			c.Rejected = n > 0
		default:
			return nil, fmt.Errorf("copystore: checks: unknown row %s", strconv.Itoa(tag))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("copystore: checks: %w", err)
	}
	return c, nil
}

// Key is the copy the checks were read of.
func (c *Checks) Key() Key { return c.key }

type checksKey struct{}

// WithChecks is ctx carrying c: the reads of c's copy under it take the
// access check, the version and the kept counts from c instead of reading
// them again. c must have been read for the same request (a page), never
// kept across requests: a credential refused since is seen by the next.
func WithChecks(ctx context.Context, c *Checks) context.Context {
	if c == nil {
		return ctx
	}
	return context.WithValue(ctx, checksKey{}, c)
}

// checksOf is the checks ctx carries for k, or nil.
func checksOf(ctx context.Context, k Key) *Checks {
	c, _ := ctx.Value(checksKey{}).(*Checks)
	if c == nil || c.key != k {
		return nil
	}
	return c
}

// access is checkAccess's answer from c.
func (c *Checks) access() error { return accessErr(c.flag) }

// byStatus is the kept counts of list by status (the overview's).
func (c *Checks) byStatus(list string) map[string]int {
	m := map[string]int{}
	for _, kc := range c.counts {
		if kc.list == list {
			m[kc.status] += kc.n
		}
	}
	return m
}

// kept is keptCount's answer from c.
func (c *Checks) kept(list, status string) (int, error) {
	if err := c.access(); err != nil {
		return 0, err
	}
	n := 0
	for _, kc := range c.counts {
		if kc.list == list && (status == "" || kc.status == status) {
			n += kc.n
		}
	}
	return n, nil
}
