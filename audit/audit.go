// Package audit is the dashboard's audit trail: an append-only record of
// every change made through it (price and stock edits in the forms,
// notification resends, bulk jobs and their read-backs), who made it and
// when, for which seller and environment, each item's old and new value,
// and the marketplace's answer.
//
// Entries are never edited or deleted one by one: the only removal is the
// retention sweep (Store.PruneBefore), which drops whole entries older than
// the configured retention in bounded batches. An entry written along its
// change (Store.Begin) is appended to and then finished once by the one
// request that began it, and is not shown until then (open.go).
//
// Everything recorded is bounded: marketplace messages, product names and
// user names are untrusted, so each field is cut to a fixed length and an
// entry holds at most MaxItems items. No secret is ever recorded: the who
// is the login's client id and display name as the session knows them.
package audit

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Kinds of change.
const (
	KindPrice    = "price"    // a price edit in the prices form
	KindStock    = "stock"    // a quantity or status edit in the nomenclature form
	KindResend   = "resend"   // a notification resend
	KindBulk     = "bulk"     // a bulk job run, with its rows
	KindReadBack = "readback" // the read-back of a bulk job, with what was found
)

// Kinds lists every kind, in the order the history's filter offers them.
var Kinds = []string{KindPrice, KindStock, KindResend, KindBulk, KindReadBack}

// KindLabel names a kind for people.
func KindLabel(kind string) string {
	switch kind {
	case KindPrice:
		return "Price edit"
	case KindStock:
		return "Stock or status edit"
	case KindResend:
		return "Notification resend"
	case KindBulk:
		return "Bulk job"
	case KindReadBack:
		return "Bulk job read-back"
	}
	return kind
}

// Outcomes of an item or of a whole entry.
const (
	Accepted = "accepted" // the marketplace accepted it
	Refused  = "refused"  // the marketplace refused it (Message says why)
	Unknown  = "unknown"  // sent, no answer: may or may not have been applied
	Unsent   = "unsent"   // not sent (the run stopped first, or it was held)
	Queued   = "queued"   // a resend the marketplace queued
	Busy     = "busy"     // a resend refused because earlier ones were processing
	Partial  = "partial"  // an entry some of whose items were accepted and some not
)

// Field bounds, in characters.
const (
	MaxWho     = 120
	MaxKey     = 200
	MaxName    = 200
	MaxValue   = 300
	MaxMessage = 1000
	MaxRef     = 80
	// MaxItems bounds the items of one entry (a bulk job holds at most
	// 10,000 rows; the rest of a larger set is counted in Dropped).
	MaxItems = 20000
)

// Entry is one change made through the dashboard.
type Entry struct {
	ID          int64
	At          time.Time
	ClientID    string // the login's client id (never its secret)
	UserName    string // the display name the session holds
	SellerID    int64
	Environment string // production or test
	Kind        string
	Ref         string    // what the entry belongs to: a bulk job's id
	Outcome     string    // the whole change's answer (see the outcome constants)
	Message     i18n.Msgs // the marketplace's answer or why nothing was sent
	Items       []Item
	// ItemCount is the number of items stored (Items may be a prefix when
	// listed); Dropped the number left out beyond MaxItems.
	ItemCount, Dropped int
}

// Item is one changed thing: a product's price, a stock row, an order's
// notifications.
type Item struct {
	Key      string    // marketplace SKU, warehouse|barcode, or order number
	Name     string    // the product's name, when known
	Old, New i18n.Msgs // the value before and after, as shown on the pages
	Outcome  string
	Message  i18n.Msgs // the marketplace's message for this item
	ReadBack i18n.Msgs // what a read-back found, where there is one
}

// Recorder records changes. Handlers and the job runner record through
// it; Store implements it. Record never fails the change it records: the
// change has already been made at the marketplace, so a failure to record
// is logged by the caller, not shown as a failed change.
type Recorder interface {
	Record(ctx context.Context, e Entry) error
}

// Clean bounds an entry in place: every text field cut to its limit and
// cleaned of control characters, items beyond MaxItems dropped (and
// counted).
func (e *Entry) Clean() {
	e.ClientID = Bound(e.ClientID, MaxWho)
	e.UserName = Bound(e.UserName, MaxWho)
	e.Environment = Bound(e.Environment, 20)
	e.Kind = Bound(e.Kind, 20)
	e.Ref = Bound(e.Ref, MaxRef)
	e.Outcome = Bound(e.Outcome, 20)
	e.Message = BoundMsgs(e.Message, MaxMessage)
	if len(e.Items) > MaxItems {
		e.Dropped += len(e.Items) - MaxItems
		e.Items = e.Items[:MaxItems]
	}
	for i := range e.Items {
		e.Items[i].clean()
	}
	e.ItemCount = len(e.Items)
}

// clean bounds an item in place (see Entry.Clean).
func (it *Item) clean() {
	it.Key = Bound(it.Key, MaxKey)
	it.Name = Bound(it.Name, MaxName)
	it.Old = BoundMsgs(it.Old, MaxValue)
	it.New = BoundMsgs(it.New, MaxValue)
	it.Outcome = Bound(it.Outcome, 20)
	it.Message = BoundMsgs(it.Message, MaxMessage)
	it.ReadBack = BoundMsgs(it.ReadBack, MaxMessage)
}

// Bound cleans s of control and bidi-control characters (line breaks
// become spaces) and invalid UTF-8, and cuts it to max characters, marking
// a cut with "…".
func Bound(s string, max int) string {
	if bounded(s, max) {
		return s
	}
	return bound(s, max)
}

// bound is Bound for a text that needs cleaning or cutting.
func bound(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			return ' '
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// bounded reports whether Bound would return s as it is: valid UTF-8 of
// at most max characters, none of them one Bound drops or turns into a
// space, and no space at either end. Most texts are, and are then kept
// without a copy.
func bounded(s string, max int) bool {
	if len(s) == 0 {
		return true
	}
	n := 0
	for i := 0; i < len(s); n++ {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return false
		}
		i += size
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	return n <= max && !unicode.IsSpace(first) && !unicode.IsSpace(last)
}

// MaxParts bounds the messages kept in one field.
const MaxParts = 16

// BoundMsgs bounds messages as Bound bounds text: at most MaxParts of them,
// each text part and text argument cleaned and cut to max characters.
func BoundMsgs(ms i18n.Msgs, max int) i18n.Msgs {
	if len(ms) == 0 {
		return nil
	}
	if msgsBounded(ms, max) {
		return ms
	}
	if len(ms) > MaxParts {
		ms = ms[:MaxParts]
	}
	out := make(i18n.Msgs, 0, len(ms))
	for _, m := range ms {
		m.Text = Bound(m.Text, max)
		if m.Args != nil {
			args := make(map[string]any, len(m.Args))
			for k, v := range m.Args {
				switch a := v.(type) {
				case string:
					v = Bound(a, max)
				case i18n.Msgs:
					v = BoundMsgs(a, max)
				case i18n.Msg:
					if b := BoundMsgs(i18n.Of(a), max); len(b) == 1 {
						v = b[0]
					}
				}
				args[k] = v
			}
			m.Args = args
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// msgsBounded reports whether BoundMsgs would return ms as it is.
func msgsBounded(ms i18n.Msgs, max int) bool {
	if len(ms) > MaxParts {
		return false
	}
	for _, m := range ms {
		if !bounded(m.Text, max) {
			return false
		}
		for _, v := range m.Args {
			switch a := v.(type) {
			case string:
				if !bounded(a, max) {
					return false
				}
			case i18n.Msgs:
				if len(a) == 0 || !msgsBounded(a, max) {
					return false
				}
			case i18n.Msg:
				if !msgsBounded(i18n.Of(a), max) {
					return false
				}
			}
		}
	}
	return true
}

// OutcomeOf sums up the outcomes of items: accepted when all were,
// refused when none was accepted and some were refused, partial when some
// were accepted and some not, else the first outcome found.
func OutcomeOf(items []Item) string {
	var t outcomes
	t.add(items)
	return t.outcome()
}

// outcomes counts the outcomes of items as they come, to sum them up as
// OutcomeOf does without holding them.
type outcomes struct {
	counts map[string]int
	n      int
	first  string
}

func (t *outcomes) add(items []Item) {
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	for _, it := range items {
		if t.n == 0 {
			t.first = it.Outcome
		}
		t.counts[it.Outcome]++
		t.n++
	}
}

func (t *outcomes) outcome() string {
	counts := t.counts
	switch {
	case t.n == 0:
		return Unsent
	case counts[Accepted] == t.n:
		return Accepted
	case counts[Queued] == t.n:
		return Queued
	case counts[Accepted] > 0 || counts[Queued] > 0:
		return Partial
	case counts[Refused] > 0:
		return Refused
	case counts[Unknown] > 0:
		return Unknown
	case counts[Busy] > 0:
		return Busy
	}
	return t.first
}
