package apiclient

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Be liberal in what you accept: the marketplace's answers are not ours to
// reject. Identifiers come as JSON strings or numbers, timestamps in several
// forms, optional fields as null. A record that still cannot be read is left
// out of its list and counted (see Skips), so one bad record never costs the
// whole page.

// MarketplaceLocation is the zone of timestamps the marketplace writes
// without one ("2026-11-20 10:00:00"): Moscow time. Moscow keeps UTC+3 all
// year since 2014, so a fixed zone is exact and needs no tz database.
var MarketplaceLocation = time.FixedZone("MSK", 3*60*60)

// OrderID identifies an order. The marketplace sends it as a JSON string
// (e.g. "RU260807-188386-001C") or as a number; a number is kept as its
// decimal text. It is sent back as a string.
type OrderID string

// OrderItemID identifies one item of an order, read like OrderID.
type OrderItemID string

// String returns the identifier's text.
func (id OrderID) String() string { return string(id) }

// String returns the identifier's text.
func (id OrderItemID) String() string { return string(id) }

// UnmarshalJSON accepts a JSON string, a number (kept as its text) or null
// (the empty identifier), for encoding/json users; the client's own
// decoder reads identifiers in place.
func (id *OrderID) UnmarshalJSON(data []byte) error {
	s, err := idFromJSON(data)
	if err == nil {
		*id = OrderID(s)
	}
	return err
}

// UnmarshalJSON accepts what OrderID.UnmarshalJSON accepts.
func (id *OrderItemID) UnmarshalJSON(data []byte) error {
	s, err := idFromJSON(data)
	if err == nil {
		*id = OrderItemID(s)
	}
	return err
}

var errIDKind = errors.New("apiclient: identifier must be a JSON string or number")

// idFromJSON reads one identifier value. The error never quotes the value.
func idFromJSON(data []byte) (string, error) {
	v := jsontext.Value(data)
	switch v.Kind() {
	case 'n':
		return "", nil
	case '0':
		return string(data), nil
	case '"':
		var s string
		if err := jsonv2.Unmarshal(data, &s, decodeOptions); err != nil {
			return "", errIDKind
		}
		return s, nil
	}
	return "", errIDKind
}

// readID is the in-place decoder of both identifier types.
func readID(dec *jsontext.Decoder, typ reflect.Type) (string, error) {
	switch dec.PeekKind() {
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return "", err
		}
		return tok.String(), nil
	case '0':
		v, err := dec.ReadValue()
		if err != nil {
			return "", err
		}
		return string(v), nil
	case 'n':
		_, err := dec.ReadToken()
		return "", err
	}
	k := dec.PeekKind()
	if err := dec.SkipValue(); err != nil {
		return "", err
	}
	return "", &jsonv2.SemanticError{JSONKind: k, GoType: typ, Err: errIDKind}
}

var errTimeFormat = errors.New("apiclient: unrecognised timestamp")

// Timestamp layouts read in MarketplaceLocation when they carry no zone.
var localLayouts = []string{
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02",
}

// Timestamp layouts that carry their own zone, besides RFC 3339 itself.
var zonedLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02T15:04:05.999999999Z07",
}

// ParseTimestamp reads a marketplace timestamp in any of the forms seen in
// the wild: RFC 3339 with or without a fraction of a second
// ("2026-11-20T10:00:00Z", "2026-11-20T10:00:00.123+03:00"), the same with a
// space instead of the "T" or a short offset ("+0300", "+03"), and local
// forms without a zone ("2026-11-20 10:00:00", "2026-11-20T10:00:00",
// "2026-11-20 10:00", "2026-11-20"), which are read in MarketplaceLocation.
// Surrounding spaces are ignored. The error never quotes the input.
func ParseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) < len("2006-01-02") || len(s) > 64 {
		return time.Time{}, errTimeFormat
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, l := range zonedLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	for _, l := range localLayouts {
		if t, err := time.ParseInLocation(l, s, MarketplaceLocation); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errTimeFormat
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	orderIDType     = reflect.TypeFor[OrderID]()
	orderItemIDType = reflect.TypeFor[OrderItemID]()
)

// readTime is the in-place decoder of time.Time: a timestamp string in any
// form ParseTimestamp reads; null or "" is the zero time.
func readTime(dec *jsontext.Decoder, t *time.Time) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*t = time.Time{}
		return err
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		s := tok.String()
		if s == "" {
			*t = time.Time{}
			return nil
		}
		v, err := ParseTimestamp(s)
		if err != nil {
			return &jsonv2.SemanticError{JSONKind: '"', GoType: timeType, Err: err}
		}
		*t = v
		return nil
	}
	k := dec.PeekKind()
	if err := dec.SkipValue(); err != nil {
		return err
	}
	return &jsonv2.SemanticError{JSONKind: k, GoType: timeType, Err: errTimeFormat}
}

// maxSkipReason bounds the reason a list keeps for its first skipped record.
const maxSkipReason = 160

// recordList is a JSON array of records of which the unreadable ones are
// left out: each element is decoded in place, in the same pass as the rest
// of the answer, and an element that fails for its meaning (a field of the
// wrong kind, a timestamp in no known form) is skipped to its end and
// counted. A syntax error still fails the whole answer: past it, nothing
// says where the next record begins.
type recordList[T any] struct {
	items   []T
	skipped int
	reason  string // why the first skipped record could not be read; bounded
}

// UnmarshalJSONFrom implements jsonv2.UnmarshalerFrom.
func (l *recordList[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	l.items, l.skipped, l.reason = l.items[:0], 0, ""
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		l.items = nil
		return err
	case '[':
	default:
		return &jsonv2.SemanticError{JSONKind: dec.PeekKind(), Err: errors.New("a list was expected")}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	depth := dec.StackDepth()
	var zero T
	for dec.PeekKind() != ']' {
		_, before := dec.StackIndex(depth)
		l.items = append(l.items, zero)
		err := jsonv2.UnmarshalDecode(dec, &l.items[len(l.items)-1])
		if err == nil {
			continue
		}
		var se *jsonv2.SemanticError
		if !errors.As(err, &se) {
			return err // syntax or I/O: the answer as a whole is unreadable
		}
		l.items = l.items[:len(l.items)-1]
		if l.skipped == 0 {
			l.reason = truncate(jsonErrorReason(err), maxSkipReason)
		}
		l.skipped++
		// Skip what is left of the element: all of it when the decoder
		// refused it before reading (wrong kind of value), or the rest of
		// an object it stopped inside.
		if _, n := dec.StackIndex(depth); dec.StackDepth() == depth && n == before {
			if err := dec.SkipValue(); err != nil {
				return err
			}
		}
		for dec.StackDepth() > depth {
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if l.items == nil {
		l.items = []T{}
	}
	return nil
}

// Skips counts the records that list answers left out because they could
// not be read, across every list call made with a context from WithSkips
// (a page that reads several lists shows one notice). It is safe for
// concurrent use; the zero value is ready.
type Skips struct {
	mu        sync.Mutex
	count     int
	reason    string
	requestID string
}

// Count returns how many records were left out so far.
func (s *Skips) Count() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// First returns why the first left-out record could not be read (bounded,
// never quoting the data) and the X-Request-ID of the answer that held it.
func (s *Skips) First() (reason, requestID string) {
	if s == nil {
		return "", ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason, s.requestID
}

func (s *Skips) add(n int, reason, requestID string) {
	if s == nil || n <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.count == 0 {
		s.reason, s.requestID = reason, requestID
	}
	s.count += n
}

type skipsKey struct{}

// WithSkips returns a context whose list calls add the records they leave
// out to s, besides reporting them in their own result.
func WithSkips(ctx context.Context, s *Skips) context.Context {
	return context.WithValue(ctx, skipsKey{}, s)
}

// noteSkips reports a list answer's left-out records to the context's
// Skips, if any, and to the log.
func (c *Client) noteSkips(ctx context.Context, op string, n int, reason, requestID string) {
	if n <= 0 {
		return
	}
	if s, ok := ctx.Value(skipsKey{}).(*Skips); ok {
		s.add(n, reason, requestID)
	}
	c.log.WarnContext(ctx, "apiclient left out unreadable records", "op", op, "skipped", n, "reason", reason, "upstream_request_id", requestID)
}
