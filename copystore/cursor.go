package copystore

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cursor is a keyset position in a nomenclature list, read through the
// sort column's index where an offset counts past every record ahead of
// the page. It names a record by its place in the list's order (the sort
// column, then id, as orderBy gives it).
type Cursor struct {
	// Sort is the sort (Query.Sort) the position belongs to; a query
	// sorted otherwise refuses the cursor (ErrBadCursor).
	Sort string
	// Before reads the Limit records before the named one, handed over in
	// the list's order; else the Limit records after it.
	Before bool
	// End, with Before, reads the last page of the list; no record is
	// named.
	End bool
	// Skip is how many records next to the named one are passed over
	// before the page (at most MaxLimit).
	Skip int
	// ID is the named record's id, Value its sort column's value: the
	// text as stored, a decimal number for a numeric column, empty for
	// the id order.
	ID    int64
	Value string
}

// ErrBadCursor is returned for a cursor that does not parse, or does not
// name a position in the query's sort.
var ErrBadCursor = errors.New("copystore: bad cursor")

// MaxCursorText bounds a cursor's text form: a position whose text would
// be longer is not made (Cursor.Text), and such text does not parse.
const MaxCursorText = 512

// CursorAt is the position of r in the list sorted by sort: the records
// after it (set Before for those before it).
func CursorAt(sort string, r *Record) (Cursor, error) {
	col, err := sortColumn(sort)
	if err != nil {
		return Cursor{}, err
	}
	c := Cursor{Sort: sort, ID: r.ID}
	if col != "" {
		v, err := sortValue(col, r)
		if err != nil {
			return Cursor{}, err
		}
		switch v := v.(type) {
		case int64:
			c.Value = strconv.FormatInt(v, 10)
		case string:
			c.Value = v
		}
	}
	return c, nil
}

// sortColumn is the column of a sort parameter, "" for the list order.
func sortColumn(sort string) (string, error) {
	if sort == "" {
		return "", nil
	}
	col, ok := NomenclatureSorts[strings.TrimPrefix(sort, "-")]
	if !ok {
		return "", ErrBadSort
	}
	return col, nil
}

// cursorEncoding writes a cursor's text; strict, so one position has one
// text.
var cursorEncoding = base64.RawURLEncoding.Strict()

// Text is c's form for a URL, opaque to users; ok is false when it would
// be longer than MaxCursorText.
func (c Cursor) Text() (text string, ok bool) {
	kind := byte('a')
	switch {
	case c.End:
		kind = 'e'
	case c.Before:
		kind = 'b'
	}
	// The value comes last: it is the only part that may hold a dot.
	b := make([]byte, 0, 24+len(c.Sort)+len(c.Value))
	b = append(b, kind)
	b = strconv.AppendInt(b, int64(c.Skip), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, c.ID, 10)
	b = append(b, '.')
	b = append(b, c.Sort...)
	b = append(b, '.')
	b = append(b, c.Value...)
	if cursorEncoding.EncodedLen(len(b)) > MaxCursorText {
		return "", false
	}
	return cursorEncoding.EncodeToString(b), true
}

// ParseCursor reads a cursor's text (Cursor.Text). Anything else, and
// any position no list could have (a value that does not fit its sort's
// column, an end with a record named), is ErrBadCursor.
func ParseCursor(s string) (Cursor, error) {
	if s == "" || len(s) > MaxCursorText {
		return Cursor{}, ErrBadCursor
	}
	b, err := cursorEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return Cursor{}, ErrBadCursor
	}
	var c Cursor
	switch b[0] {
	case 'a':
	case 'b':
		c.Before = true
	case 'e':
		c.Before, c.End = true, true
	default:
		return Cursor{}, ErrBadCursor
	}
	f := strings.SplitN(string(b[1:]), ".", 4)
	if len(f) != 4 {
		return Cursor{}, ErrBadCursor
	}
	if c.Skip, err = strconv.Atoi(f[0]); err != nil {
		return Cursor{}, ErrBadCursor
	}
	if c.ID, err = strconv.ParseInt(f[1], 10, 64); err != nil {
		return Cursor{}, ErrBadCursor
	}
	c.Sort, c.Value = f[2], f[3]
	if _, err := c.key(c.Sort); err != nil {
		return Cursor{}, err
	}
	// One text a position: no leading zeros or signs.
	if t, _ := c.Text(); t != s {
		return Cursor{}, ErrBadCursor
	}
	return c, nil
}

// key checks c against a query sorted by sort and returns the named
// record's sort value as the column holds it (nil for the id order or an
// end).
func (c Cursor) key(sort string) (any, error) {
	if c.Sort != sort {
		return nil, ErrBadCursor
	}
	col, err := sortColumn(sort)
	if err != nil {
		return nil, ErrBadCursor
	}
	if c.Skip < 0 || c.Skip > MaxLimit {
		return nil, ErrBadCursor
	}
	if c.End {
		if !c.Before || c.Skip != 0 || c.ID != 0 || c.Value != "" {
			return nil, ErrBadCursor
		}
		return nil, nil
	}
	if c.ID <= 0 {
		return nil, ErrBadCursor
	}
	if col == "" {
		if c.Value != "" {
			return nil, ErrBadCursor
		}
		return nil, nil
	}
	zero, _ := sortValue(col, &Record{})
	if _, numeric := zero.(int64); numeric {
		n, err := strconv.ParseInt(c.Value, 10, 64)
		if err != nil || strconv.FormatInt(n, 10) != c.Value {
			return nil, ErrBadCursor
		}
		return n, nil
	}
	// The databases refuse text that is not UTF-8 or holds a NUL (the
	// copy stores neither): refused here, not as a failed query.
	if !utf8.ValidString(c.Value) || strings.ContainsRune(c.Value, 0) {
		return nil, ErrBadCursor
	}
	return c.Value, nil
}
