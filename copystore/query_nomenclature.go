package copystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Record is one nomenclature record of the copy: a product at a warehouse.
type Record struct {
	ID                                                int64
	Warehouse, Barcode, MarketplaceSKU, ParentSKU     string
	SellerSKU, Name, Brand, Size, Status, PriceStatus string
	Price, SalePrice                                  int64 // kopecks
	Quantity                                          int
	UpdatedAt                                         time.Time
	// Pending is set while a price change accepted through the dashboard
	// waits for a read to confirm it; Price and SalePrice are then the
	// last prices read.
	Pending *Pending
	// QuantityPending and StatusPending are set while the Quantity or
	// the Status is one the marketplace accepted through the dashboard
	// and no read has confirmed yet.
	QuantityPending, StatusPending bool
}

// Pending is an accepted price change not yet confirmed by a read.
type Pending struct {
	Price, SalePrice int64
	Since            time.Time
}

// nomenclatureWhere builds the WHERE clause of q. A page (sorted, not a
// count) passes its ORDER BY column as sortCol and broad reports a search
// whose words match many records (broadMatch); both steer SQLite's plan
// towards walking the sort's index and stopping after the page, which it
// cannot guess without statistics.
func (s *Store) nomenclatureWhere(k Key, q Query, sortCol string, broad bool) *where {
	w := &where{}
	words := queryWords(q.Q)
	if len(words) > 0 && !s.pg && !broad {
		// The full-text match drives the query: the unary + keeps SQLite
		// from walking the copy's index instead and testing every row
		// against the match.
		w.sql.WriteString(" WHERE +seller_id = ? AND +env = ?")
	} else {
		w.sql.WriteString(" WHERE seller_id = ? AND env = ?")
	}
	w.args = append(w.args, k.SellerID, k.Env)
	if len(words) > 0 {
		if s.pg {
			w.add("search_tsv @@ to_tsquery('simple', ?)", tsQuery(words))
		} else {
			id := "id"
			if broad {
				id = "+id" // tested on the rows the sort's index yields
			}
			w.add(id+" IN (SELECT rowid FROM catalog_nomenclature_fts WHERE catalog_nomenclature_fts MATCH ?)", ftsMatch(words))
		}
	}
	s.addFilters(w, q, sortCol)
	return w
}

// ftsJoined is the FROM clause of a SQLite search read in the list order
// (id): the full-text matches, which FTS5 yields in row id order, each
// joined to its record.
const ftsJoined = ` FROM catalog_nomenclature_fts CROSS JOIN catalog_nomenclature ON catalog_nomenclature.id = catalog_nomenclature_fts.rowid`

// joinedWhere is the WHERE clause of q, a search, under ftsJoined: the
// page walks the matches in id order and stops after it, where the IN
// form of nomenclatureWhere collects every match before the first row.
func (s *Store) joinedWhere(k Key, q Query) *where {
	w := &where{}
	w.sql.WriteString(" WHERE catalog_nomenclature_fts MATCH ? AND seller_id = ? AND env = ?")
	w.args = append(w.args, ftsMatch(queryWords(q.Q)), k.SellerID, k.Env)
	s.addFilters(w, q, "")
	return w
}

// addFilters adds q's filters but the search to w (sortCol as for
// nomenclatureWhere).
func (s *Store) addFilters(w *where, q Query, sortCol string) {
	if q.Status != "" {
		w.add("status = ?", q.Status)
	}
	if q.Warehouse != "" {
		w.add("warehouse = ?", q.Warehouse)
	}
	if q.StockMax != nil {
		if sortCol != "" && sortCol != "quantity" && !s.pg {
			// A stock bound is rarely selective: testing it on the rows
			// the sort's index yields beats sorting every row it keeps.
			w.add("+quantity <= ?", *q.StockMax)
		} else {
			w.add("quantity <= ?", *q.StockMax)
		}
	}
	if q.PriceMin > 0 {
		w.add("price >= ?", q.PriceMin)
	}
	if q.PriceMax > 0 {
		w.add("price <= ?", q.PriceMax)
	}
}

// nomenclatureCols are the columns of a Record, in the order scan reads
// them.
var nomenclatureCols = []string{"id", "warehouse", "barcode", "marketplace_sku", "parent_sku", "seller_sku", "name", "brand", "size",
	"status", "price_status", "price", "sale_price", "quantity", "updated_at", "pending_price", "pending_sale", "pending_at",
	"quantity_pending_at", "status_pending_at"}

// fieldSep separates the columns of a record packed into one value. The
// copy never stores it: bound drops control characters from every text
// the marketplace sends, and the other columns are numbers.
const fieldSep = "\x1f"

// packedRecord is the select list of a record as one text value: the
// columns joined by fieldSep, a NULL as an empty field. The database
// drivers allocate for every value they return (SQLite: a copy of each
// text and a box for each number above 255), about 30 a row for 20
// columns; one value a row costs two, and the Record's strings share it.
var packedRecord = func() string {
	var b strings.Builder
	for i, c := range nomenclatureCols {
		if i > 0 {
			b.WriteString(" || '" + fieldSep + "' || ")
		}
		b.WriteString("COALESCE(CAST(" + c + " AS TEXT), '')")
	}
	return b.String()
}()

// recordScanner scans packed rows (packedRecord) into r.
type recordScanner struct {
	r      Record
	packed string
}

func newRecordScanner() *recordScanner { return &recordScanner{} }

// errPacked reports a packed row that does not split into its columns.
var errPacked = errors.New("copystore: a stored record does not read back")

func (sc *recordScanner) scan(rows *sql.Rows) error {
	if err := rows.Scan(&sc.packed); err != nil {
		return fmt.Errorf("copystore: %w", err)
	}
	return sc.unpack(sc.packed)
}

// unpack fills r from a packed row, without allocating but for Pending.
func (sc *recordScanner) unpack(p string) error {
	var f [20]string
	for i := range f {
		var ok bool
		if i == len(f)-1 {
			f[i], ok = p, !strings.Contains(p, fieldSep)
		} else {
			f[i], p, ok = strings.Cut(p, fieldSep)
		}
		if !ok {
			return errPacked
		}
	}
	r := &sc.r
	r.Warehouse, r.Barcode, r.MarketplaceSKU, r.ParentSKU, r.SellerSKU, r.Name, r.Brand, r.Size, r.Status, r.PriceStatus =
		f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]
	var nums [8]int64
	for i, j := range [8]int{0, 11, 12, 13, 14, 15, 16, 17} {
		if f[j] == "" && j >= 15 { // pending_*: NULL
			nums[i] = -1
			continue
		}
		n, err := strconv.ParseInt(f[j], 10, 64)
		if err != nil {
			return errPacked
		}
		nums[i] = n
	}
	r.ID, r.Price, r.SalePrice, r.Quantity, r.UpdatedAt = nums[0], nums[1], nums[2], int(nums[3]), sqldb.FromMillis(nums[4])
	r.Pending = nil
	if f[15] != "" && f[16] != "" {
		at := int64(0)
		if f[17] != "" {
			at = nums[7]
		}
		r.Pending = &Pending{Price: nums[5], SalePrice: nums[6], Since: sqldb.FromMillis(at)}
	}
	r.QuantityPending, r.StatusPending = f[18] != "", f[19] != ""
	return nil
}

// Nomenclature returns one page of the records of k that q selects.
func (s *Store) Nomenclature(ctx context.Context, k Key, q Query) ([]Record, error) {
	var out []Record
	limit, _ := q.limits()
	out = make([]Record, 0, min(limit, 64))
	err := s.EachNomenclature(ctx, k, q, func(r *Record) error {
		out = append(out, *r)
		return nil
	})
	return out, err
}

// NomenclaturePage counts the records of k that q selects and calls fn
// for each of one page of them (EachNomenclature), checking access once.
// An end cursor reads the last page as offset paging cuts the list: the
// records after the last whole page of q.Limit.
func (s *Store) NomenclaturePage(ctx context.Context, k Key, q Query, fn func(r *Record) error) (total int, _ error) {
	total, err := s.countNomenclature(ctx, k, q)
	if err != nil {
		return 0, readable(err)
	}
	if q.Cursor != nil && q.Cursor.End {
		limit, _ := q.limits()
		last := total - (max(total, 1)-1)/limit*limit
		if last == 0 {
			return total, nil
		}
		q.Limit = last
	}
	return total, s.eachNomenclature(ctx, k, q, fn)
}

// EachNomenclature calls fn for the records of one page of q (q.Limit
// rows from q.Offset, or placed by q.Cursor), in q's order, streamed from
// the database but for a page before a cursor; r is reused between
// calls. fn runs while the page's rows are open: it must not wait on
// anything slow (a client, the network). An end cursor here reads the
// last q.Limit records. ExportNomenclature reads every record.
func (s *Store) EachNomenclature(ctx context.Context, k Key, q Query, fn func(r *Record) error) error {
	if err := s.checkAccess(ctx, k); err != nil {
		return readable(err)
	}
	return s.eachNomenclature(ctx, k, q, fn)
}

func (s *Store) eachNomenclature(ctx context.Context, k Key, q Query, fn func(r *Record) error) error {
	query, args, err := s.nomenclatureQuery(ctx, k, q)
	if err != nil {
		return err
	}
	if q.Cursor == nil || !q.Cursor.Before {
		return s.eachRecord(ctx, query, args, fn)
	}
	// Read backwards from the cursor; handed over in the page's order.
	limit, _ := q.limits()
	page := make([]Record, 0, min(limit, 64))
	err = s.eachRecord(ctx, query, args, func(r *Record) error {
		page = append(page, *r)
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(page) - 1; i >= 0; i-- {
		if err := fn(&page[i]); err != nil {
			return err
		}
	}
	return nil
}

// nomenclatureQuery is the statement of EachNomenclature and its
// arguments. A page before a cursor is read in the reversed order.
func (s *Store) nomenclatureQuery(ctx context.Context, k Key, q Query) (string, []any, error) {
	ob, err := orderBy(q.Sort, NomenclatureSorts, "id")
	if err != nil {
		return "", nil, err
	}
	sortCol := NomenclatureSorts[strings.TrimPrefix(q.Sort, "-")]
	desc := strings.HasPrefix(q.Sort, "-")
	limit, offset := q.limits()
	var key any
	if c := q.Cursor; c != nil {
		if key, err = c.key(q.Sort); err != nil {
			return "", nil, err
		}
		offset = c.Skip
		if c.Before {
			desc = !desc
			switch {
			case q.Sort == "":
				ob = " ORDER BY id DESC"
			case desc:
				ob, _ = orderBy("-"+q.Sort, NomenclatureSorts, "id")
			default:
				ob, _ = orderBy(q.Sort[1:], NomenclatureSorts, "id")
			}
		}
	}
	broad := false
	if sortCol != "" {
		if broad, err = s.broadMatch(ctx, q.Q); err != nil {
			return "", nil, err
		}
	}
	// past adds the cursor's condition on the column idCol holding ids.
	past := func(w *where, idCol string) {
		if q.Cursor != nil && !q.Cursor.End {
			keysetPast(w, idCol, sortCol, desc, key, q.Cursor.ID)
		}
	}
	if sortCol == "" && !s.pg && len(queryWords(q.Q)) > 0 {
		w := s.joinedWhere(k, q)
		past(w, "catalog_nomenclature_fts.rowid")
		ob := ` ORDER BY catalog_nomenclature_fts.rowid`
		if desc {
			ob += ` DESC`
		}
		lim, largs := sqldb.Limit(limit, offset)
		query := `SELECT ` + packedRecord + ftsJoined + w.sql.String() + ob + lim
		return query, append(w.args, largs...), nil
	}
	w := s.nomenclatureWhere(k, q, sortCol, broad)
	past(w, "id")
	lim, largs := sqldb.Limit(limit, offset)
	query := `SELECT ` + packedRecord + ` FROM catalog_nomenclature` + w.sql.String() + ob + lim
	return s.q(query), append(w.args, largs...), nil
}

// exportPageSize is how many records ExportNomenclature reads at a time:
// large enough that a page's query costs little beside its rows, small
// enough that a page held in memory stays well under a megabyte.
const exportPageSize = 1000

// ExportNomenclature calls fn for every record of k that q selects (its
// Limit, Offset and Cursor ignored), in q's order. It reads them in pages from the
// bulk pool (sqldb.DB.Bulk), each page after the last one's sort key and
// id (keyset pagination), and calls fn only once a page's rows are closed
// and its connection released: fn may wait on a slow client without
// holding a connection, a transaction or SQLite's WAL. Pages are separate
// reads: a record the sync changes during an export can move past the
// export's position (and be left out) or ahead of it (and come twice),
// as between two pages on screen; the id order of an unsorted export
// holds every record exactly once. r is reused between calls. Access is
// checked before every page: an export outlasting a revocation of the
// copy stops with ErrRevoked at the next page.
func (s *Store) ExportNomenclature(ctx context.Context, k Key, q Query, fn func(r *Record) error) error {
	ob, err := orderBy(q.Sort, NomenclatureSorts, "id")
	if err != nil {
		return err
	}
	desc := strings.HasPrefix(q.Sort, "-")
	sortCol := NomenclatureSorts[strings.TrimPrefix(q.Sort, "-")]
	broad := false
	if sortCol != "" {
		if broad, err = s.broadMatch(ctx, q.Q); err != nil {
			return err
		}
	}
	size := s.exportPage
	if size <= 0 {
		size = exportPageSize
	}
	page := make([]Record, 0, size)
	var after *Record // the last record of the previous page
	epoch := int64(-1)
	for {
		if err := s.exportAccess(ctx, k, &epoch); err != nil {
			return err
		}
		w := s.nomenclatureWhere(k, q, sortCol, broad)
		if after != nil {
			if err := keysetAfter(w, sortCol, desc, after); err != nil {
				return err
			}
		}
		query := s.q(`SELECT ` + packedRecord + ` FROM catalog_nomenclature` + w.sql.String() + ob + ` LIMIT ?`)
		if page, err = s.readPage(ctx, query, append(w.args, size), page[:0]); err != nil {
			return err
		}
		for i := range page {
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < size {
			return nil
		}
		after = &page[len(page)-1]
	}
}

// readPage appends the records query reads to page, with its rows closed
// (and the connection back in the pool) when it returns.
func (s *Store) readPage(ctx context.Context, query string, args []any, page []Record) ([]Record, error) {
	rows, err := s.bulk.QueryContext(ctx, query, args...)
	if err != nil {
		return page, fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	sc := newRecordScanner()
	for rows.Next() {
		if err := sc.scan(rows); err != nil {
			return page, err
		}
		page = append(page, sc.r)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("copystore: %w", err)
	}
	return page, nil
}

// keysetAfter adds the condition that selects the records after r in the
// order orderBy gives sortCol (then id) in the direction desc; sortCol ""
// is the id order.
func keysetAfter(w *where, sortCol string, desc bool, r *Record) error {
	var v any
	if sortCol != "" {
		var err error
		if v, err = sortValue(sortCol, r); err != nil {
			return err
		}
	}
	keysetPast(w, "id", sortCol, desc, v, r.ID)
	return nil
}

// keysetPast adds the condition that selects the records past the one
// whose sortCol value is v and whose id (in the column idCol) is id, in
// the order orderBy gives sortCol in the direction desc; sortCol "" is
// the id order, v unused.
func keysetPast(w *where, idCol, sortCol string, desc bool, v any, id int64) {
	op := ">"
	if desc {
		op = "<"
	}
	if sortCol == "" {
		w.add(idCol+" "+op+" ?", id)
		return
	}
	// Spelled out rather than as a row value, and bounded first by the
	// value alone: both databases then walk the sort column's index from
	// the position, where SQLite would test the OR on every entry ahead.
	w.add(sortCol+" "+op+"= ? AND ("+sortCol+" "+op+" ? OR ("+sortCol+" = ? AND "+idCol+" "+op+" ?))", v, v, v, id)
}

// sortValue is r's value of a sortable column (NomenclatureSorts), as the
// database holds it.
func sortValue(col string, r *Record) (any, error) {
	switch col {
	case "marketplace_sku":
		return r.MarketplaceSKU, nil
	case "seller_sku":
		return r.SellerSKU, nil
	case "barcode":
		return r.Barcode, nil
	case "name":
		return r.Name, nil
	case "brand":
		return r.Brand, nil
	case "size":
		return r.Size, nil
	case "warehouse":
		return r.Warehouse, nil
	case "status":
		return r.Status, nil
	case "price_status":
		return r.PriceStatus, nil
	case "price":
		return r.Price, nil
	case "sale_price":
		return r.SalePrice, nil
	case "quantity":
		return int64(r.Quantity), nil
	case "updated_at":
		return sqldb.Millis(r.UpdatedAt), nil
	}
	return nil, fmt.Errorf("copystore: no keyset value for column %q", col)
}

// broadLimit is how many full-text matches make a search broad: a sorted
// page of it is then found by walking the sort's index (about
// limit x records / matches rows) rather than by sorting every match.
const broadLimit = 1000

// broadMatch reports whether the words of q match at least broadLimit
// records of any copy (SQLite only: PostgreSQL plans with statistics).
func (s *Store) broadMatch(ctx context.Context, q string) (bool, error) {
	words := queryWords(q)
	if len(words) == 0 || s.pg {
		return false, nil
	}
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM catalog_nomenclature_fts WHERE catalog_nomenclature_fts MATCH ? LIMIT ?)`,
		ftsMatch(words), broadLimit).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("copystore: %w", err)
	}
	return n >= broadLimit, nil
}

// nomenclatureCount is the statement of CountNomenclature and its
// arguments.
func (s *Store) nomenclatureCount(k Key, q Query) (string, []any) {
	w := s.nomenclatureWhere(k, q, "", false)
	from := ` FROM catalog_nomenclature`
	if !s.pg && len(queryWords(q.Q)) > 0 && q.Status == "" && q.Warehouse == "" && q.StockMax == nil && q.PriceMin == 0 && q.PriceMax == 0 {
		// Counting a search needs only each match's seller and
		// environment: the narrow owner index holds them in a few pages
		// where the rows spread over the whole table.
		from += ` INDEXED BY catalog_nomenclature_owner`
	}
	return s.q(`SELECT COUNT(*)` + from + w.sql.String()), w.args
}

// CountNomenclature counts the records of k that q selects, after the
// access check (ErrRevoked): from the kept counts when q filters by status
// and out-of-stock only, else by a query remembered while the copy's
// version holds (countCache). Either way the check and the count (or the
// version) are one statement.
func (s *Store) CountNomenclature(ctx context.Context, k Key, q Query) (int, error) {
	n, err := s.countNomenclature(ctx, k, q)
	return n, readable(err)
}

// countNomenclature is CountNomenclature failing with errGone for a
// forgotten copy.
func (s *Store) countNomenclature(ctx context.Context, k Key, q Query) (int, error) {
	if list, ok := nomenclatureFacet(q); ok {
		return s.keptCount(ctx, k, list, q.Status)
	}
	return s.rememberedCount(ctx, k, q)
}

// prefixRange adds a prefix match of q's folded words on a one-word search
// column, as a range the column's index serves.
func prefixRange(w *where, q string) {
	if p := foldedPrefix(q); p != "" {
		w.add("search >= ? AND search < ?", p, p+"\U0010FFFF")
	}
}
