package i18n

import (
	"bytes"
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Msg is a message for the user kept as data rather than as a sentence:
// a catalogue key with its arguments, translated when it is shown. Code
// that cannot know the reader's language (massupdate's checks, a job's
// rows stored in the database) returns and stores messages this way, so a
// job started in English reads Russian once the user switches.
//
// Args are text (numbers already written as plain digits, amounts as
// "1299.50"), or messages of their own (a Msg or Msgs, translated in
// turn); an int Args["Count"] chooses the plural form. Label, when set, is
// the key of a field name put before the message ("Quantity: …"). Without
// a Key, Status is a marketplace status shown with its label (Status), and
// Text is a value (an amount, a date, written the reader's way when shown)
// or, Verbatim, words shown exactly as written (a marketplace message).
type Msg struct {
	Key      string         `json:"k,omitempty"`
	Args     map[string]any `json:"a,omitempty"`
	Label    string         `json:"l,omitempty"`
	Status   string         `json:"s,omitempty"`
	Text     string         `json:"t,omitempty"`
	Verbatim bool           `json:"v,omitempty"`
}

// M is the message key with args; write the key as a literal so the key
// test finds it: i18n.M("mass.no_sku", nil).
func M(key string, args map[string]any) Msg { return Msg{Key: key, Args: args} }

// Msgs is a sequence of messages shown together, their translations joined
// by a space: a job row's outcome, a field's problem, a history entry's
// message. The zero value is no message. Stored in a database column it is
// a JSON array ("" for none): see Value and Scan.
type Msgs []Msg

// Of is the messages ms as one Msgs.
func Of(ms ...Msg) Msgs {
	if len(ms) == 0 {
		return nil
	}
	return Msgs(ms)
}

// Plain is s shown exactly as it is (a marketplace message, an old stored
// sentence), its control characters made spaces; "" is no message.
func Plain(s string) Msgs {
	if s == "" {
		return nil
	}
	return Msgs{{Text: Clean(s), Verbatim: true}}
}

// Join is the messages of every part, in order.
func Join(parts ...Msgs) Msgs {
	var out Msgs
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Text is ms as the user reads it in the language of ctx.
func Text(ctx context.Context, ms Msgs) string {
	return ms.In(LangOf(ctx), nil)
}

// In is ms in language l. arg, when not nil, rewrites each text argument
// (by its name; "" for a Text part) before it is put in: format writes
// amounts and times the way l does (format.Message).
func (ms Msgs) In(l Lang, arg func(name, value string) string) string {
	switch len(ms) {
	case 0:
		return ""
	case 1:
		return ms[0].In(l, arg)
	}
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		if t := m.In(l, arg); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// String is ms in English, for logs and error strings.
func (ms Msgs) String() string { return ms.In(EN, nil) }

// Value stores ms as a JSON array, "" for no message.
func (ms Msgs) Value() (driver.Value, error) {
	if len(ms) == 0 {
		return "", nil
	}
	if b, ok := appendMsgs(make([]byte, 0, 64), ms); ok {
		return string(b), nil
	}
	b, err := json.Marshal(ms)
	if err != nil {
		return nil, fmt.Errorf("i18n: storing messages: %w", err)
	}
	return string(b), nil
}

// Scan reads what Value stored.
func (ms *Msgs) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("i18n: cannot read messages from %T", src)
	}
	*ms = nil
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if err := json.Unmarshal(b, ms); err != nil {
		return fmt.Errorf("i18n: reading stored messages: %w", err)
	}
	return nil
}

// UnmarshalJSON reads a message MarshalJSON wrote, its message arguments
// (a JSON object or array) read back as Msg and Msgs.
func (m *Msg) UnmarshalJSON(b []byte) error {
	var raw struct {
		Key    string                     `json:"k"`
		Args   map[string]json.RawMessage `json:"a"`
		Label  string                     `json:"l"`
		Status string                     `json:"s"`
		Text   string                     `json:"t"`
		Verb   bool                       `json:"v"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*m = Msg{Key: raw.Key, Label: raw.Label, Status: raw.Status, Text: raw.Text, Verbatim: raw.Verb}
	if raw.Args == nil {
		return nil
	}
	m.Args = make(map[string]any, len(raw.Args))
	for k, v := range raw.Args {
		var err error
		switch t := bytes.TrimSpace(v); {
		case len(t) > 0 && t[0] == '{':
			var sub Msg
			err = json.Unmarshal(t, &sub)
			m.Args[k] = sub
		case len(t) > 0 && t[0] == '[':
			var sub Msgs
			err = json.Unmarshal(t, &sub)
			m.Args[k] = sub
		default:
			var x any
			err = json.Unmarshal(t, &x)
			if str, ok := x.(string); ok && strings.HasPrefix(str, legacyMark) {
				var sub Msgs
				if json.Unmarshal([]byte(str[len(legacyMark):]), &sub) == nil {
					x = sub
				}
			}
			m.Args[k] = x
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// legacyMark started a message encoded into a string by earlier versions,
// which stored messages as text. MigrateSQL rewrites such columns; a
// message argument encoded this way inside one is read here.
const legacyMark = "\u00a7i18n:"

// MigrateSQL is the statement that rewrites column of table from the
// text earlier versions stored to what Msgs.Value stores: an encoded
// message loses its mark, a plain sentence becomes one Verbatim message, and
// "" stays no message.
func MigrateSQL(postgres bool, table, column string) string {
	mark, plain := "char(167) || 'i18n:'", "json_array(json_object('t', "+column+", 'v', json('true')))"
	if postgres {
		mark, plain = "chr(167) || 'i18n:'", "json_build_array(json_build_object('t', "+column+", 'v', true))::text"
	}
	return "UPDATE " + table + " SET " + column + " = CASE WHEN substr(" + column + ", 1, 6) = " + mark +
		" THEN substr(" + column + ", 7) ELSE " + plain + " END WHERE " + column + " <> '';"
}

// In is one message in language l (see Msgs.In for arg).
func (m Msg) In(l Lang, arg func(name, value string) string) string {
	if m.Key == "" {
		if m.Status != "" {
			return statusIn(l, m.Status)
		}
		if arg != nil && !m.Verbatim {
			return arg("", m.Text)
		}
		return m.Text
	}
	data := make(map[string]any, len(m.Args)+1)
	var count any
	for k, v := range m.Args {
		switch a := v.(type) {
		case Msgs:
			v = a.In(l, arg)
		case Msg:
			v = a.In(l, arg)
		case string:
			if arg != nil {
				v = arg(k, a)
			}
		}
		if k == "Count" {
			if n, ok := whole(v); ok {
				count, v = n, groupThousands(l, n)
			}
		}
		data[k] = v
	}
	out := In(l, m.Key, data, count)
	if m.Label != "" {
		out = In(l, m.Label, nil, nil) + ": " + out
	}
	return out
}

// whole reads a count kept in a message (a JSON number after a round trip).
func whole(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	case string:
		i, err := strconv.Atoi(n)
		return i, err == nil
	}
	return 0, false
}

// Error is an error whose words are messages: domain code returns it, and
// the view finds it with errors.As and shows its messages in the reader's
// language.
type Error struct{ Msgs Msgs }

// Err is an *Error of the message key with args.
func Err(key string, args map[string]any) error { return &Error{Msgs: Of(M(key, args))} }

// Error is the messages in English, for logs.
func (e *Error) Error() string { return e.Msgs.String() }

// MsgsOf is the messages err carries (an *Error in its chain), or nil.
func MsgsOf(err error) Msgs {
	var e *Error
	if errors.As(err, &e) {
		return e.Msgs
	}
	return nil
}

// Clean replaces control, bidi-control and invalid characters with spaces,
// keeping the rest of the string as it is: text from outside (a
// marketplace message, a file's cell) is shown on one line and cannot
// reorder what follows it.
func Clean(s string) string {
	ok := true
	for _, r := range s {
		if bad(r) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	return strings.Map(func(r rune) rune {
		if bad(r) {
			return ' '
		}
		return r
	}, s)
}

func bad(r rune) bool {
	return r == utf8.RuneError || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
}
