package copystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrRevoked is returned by reads of a copy whose credential the
// marketplace refused (403) since the last login.
var ErrRevoked = errors.New("copystore: access to this seller's copy was revoked")

// Query selects and orders rows of one list of a copy. Every field comes
// from the URL; zero values select everything.
type Query struct {
	Q      string // words, each a prefix of a word of the searched fields
	Sort   string // a column name, "-" first for descending; "" = list order
	Status string
	// Warehouse filters nomenclature records.
	Warehouse string
	// StockMax keeps records with at most this quantity (0: out of stock);
	// nil keeps all.
	StockMax *int
	// PriceMin and PriceMax bound the price in kopecks; 0 = no bound.
	PriceMin, PriceMax int64
	// From and To bound an order's creation time (From inclusive, To
	// exclusive); zero = no bound.
	From, To time.Time
	Limit    int // 0 = DefaultLimit; at most MaxLimit
	Offset   int
	// Cursor, when set, places a nomenclature page by keyset rather than
	// by Offset (which it replaces); other lists ignore it.
	Cursor *Cursor
}

// Page sizes.
const (
	DefaultLimit = 50
	MaxLimit     = 1000
)

// Sortable columns of each list: the URL's name to the column.
var (
	NomenclatureSorts = map[string]string{
		"sku": "marketplace_sku", "seller_sku": "seller_sku", "barcode": "barcode", "name": "name",
		"brand": "brand", "size": "size", "warehouse": "warehouse", "price": "price", "sale_price": "sale_price",
		"quantity": "quantity", "status": "status", "price_status": "price_status", "updated": "updated_at",
	}
	OrderSorts = map[string]string{
		"order": "order_nr", "status": "status", "payment": "payment_method", "sum": "full_sum",
		"items": "item_quantity", "created": "created_at", "updated": "updated_at",
	}
	BoxSorts = map[string]string{
		"code": "code", "status": "status", "dimension": "dimension", "items": "item_quantity",
		"created": "created_at", "updated": "updated_at",
	}
)

// ErrBadSort is returned for a sort key the list does not have.
var ErrBadSort = errors.New("copystore: unknown sort column")

// orderBy turns a sort parameter into an ORDER BY clause; the id breaks
// ties so pages never overlap. def is the list order.
func orderBy(sort string, cols map[string]string, def string) (string, error) {
	if sort == "" {
		return " ORDER BY " + def, nil
	}
	dir := " ASC"
	if strings.HasPrefix(sort, "-") {
		sort, dir = sort[1:], " DESC"
	}
	col, ok := cols[sort]
	if !ok {
		return "", ErrBadSort
	}
	return " ORDER BY " + col + dir + ", id" + dir, nil
}

func (q Query) limits() (int, int) {
	l := q.Limit
	if l <= 0 {
		l = DefaultLimit
	}
	return min(l, MaxLimit), max(q.Offset, 0)
}

// where is a WHERE clause under construction.
type where struct {
	sql  strings.Builder
	args []any
}

func (w *where) add(cond string, args ...any) {
	w.sql.WriteString(" AND ")
	w.sql.WriteString(cond)
	w.args = append(w.args, args...)
}

// checkAccess fails with ErrRevoked when the copy's credential was refused,
// and with errGone when the copy was forgotten and its rows are still
// being deleted (Purge): the public reads answer that as a copy never made,
// with nothing. The counts read the same flag as accessColumn, in their
// own statement.
func (s *Store) checkAccess(ctx context.Context, k Key) error {
	if c := checksOf(ctx, k); c != nil {
		return c.access()
	}
	var access int64
	err := s.r.QueryRowContext(ctx, s.q(`SELECT `+accessColumn), k.SellerID, k.Env).Scan(&access)
	if err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return accessErr(access)
}

// errGone is checkAccess's answer for a copy forgotten whose rows are not
// all deleted yet: nothing of them may be read.
var errGone = errors.New("copystore: the copy is forgotten")

// accessColumn is checkAccess's flag as a column of another read of k
// (its two arguments, k's seller and environment, come first): 1 when the
// copy's credential was refused, 2 when the copy is forgotten and its rows
// are being deleted, 0 otherwise and for a copy never made.
const accessColumn = `COALESCE((SELECT CASE WHEN revoked <> 0 THEN 1 WHEN purge <> 0 THEN 2 ELSE 0 END FROM catalog_copies WHERE seller_id = ? AND env = ?), 0)`

// accessErr is the error of an accessColumn flag.
func accessErr(flag int64) error {
	switch flag {
	case 0:
		return nil
	case 1:
		return ErrRevoked
	}
	return errGone
}

// readable is err with errGone taken for an empty answer (nil): the
// public reads of a forgotten copy show nothing, as of a copy never made.
func readable(err error) error {
	if errors.Is(err, errGone) {
		return nil
	}
	return err
}

// ErrCopyGone ends an export whose copy was forgotten (or replaced by a
// new one) while it read it: what it has not read yet is gone, and the
// file must not pass for a whole one.
var ErrCopyGone = errors.New("copystore: the copy was forgotten during the export")

// exportAccess is checkAccess for each page of an export, which also
// needs the copy it started on: epoch, -1 on the first page, is set to
// the copy's epoch then and must stay it.
func (s *Store) exportAccess(ctx context.Context, k Key, epoch *int64) error {
	var revoked, forgotten, purge int
	var e int64
	err := s.r.QueryRowContext(ctx, s.q(`SELECT revoked, forgotten, purge, epoch FROM catalog_copies WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&revoked, &forgotten, &purge, &e)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if *epoch >= 0 {
			return ErrCopyGone
		}
		return nil
	case err != nil:
		return fmt.Errorf("copystore: %w", err)
	case revoked != 0:
		return ErrRevoked
	case forgotten != 0 || purge != 0 || *epoch >= 0 && e != *epoch:
		return ErrCopyGone
	}
	*epoch = e
	return nil
}

// countedPage is count's total of q and read's page of it; count checks
// access, so read need not.
func countedPage[T any](ctx context.Context, k Key, q Query,
	count func(context.Context, Key, Query) (int, error), read func(context.Context, Key, Query) ([]T, error)) (int, []T, error) {
	n, err := count(ctx, k, q)
	if err != nil {
		return 0, nil, readable(err)
	}
	page, err := read(ctx, k, q)
	return n, page, err
}
