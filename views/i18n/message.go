package i18n

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// Msg is a message for the user kept as data rather than as a sentence:
// a catalogue key with its arguments, translated when it is shown. Code
// that cannot know the reader's language (massupdate's checks, a job's
// rows stored in the database) returns and stores messages this way, so a
// job started in English reads Russian once the user switches.
//
// Args are text (numbers already written as plain digits, amounts as
// "1299.50"), or an encoded message of their own (translated in turn); an
// int Args["Count"] chooses the plural form. Label, when set, is the key of
// a field name put before the message ("Quantity: …"). Without a Key,
// Status is a marketplace status shown with its label (Status), and Text
// is shown as it is (a marketplace message, a typed value).
type Msg struct {
	Key    string         `json:"k,omitempty"`
	Args   map[string]any `json:"a,omitempty"`
	Label  string         `json:"l,omitempty"`
	Status string         `json:"s,omitempty"`
	Text   string         `json:"t,omitempty"`
}

// M is the message key with args; write the key as a literal so the key
// test finds it: i18n.M("mass.no_sku", nil).
func M(key string, args map[string]any) Msg { return Msg{Key: key, Args: args} }

// msgMark starts an encoded message. It is printable, so the stores that
// clean control characters out of what they keep (the history,
// format.Clean) keep it; no marketplace message or sentence starts with it,
// and a string that did would at worst read as one of our catalogue's
// messages, its arguments inserted as text.
const msgMark = "§i18n:"

// Encode writes messages as one string to keep (a job row's message, a
// field's problem); shown, they read as their translations joined by a
// space. No messages are "".
func Encode(ms ...Msg) string {
	if len(ms) == 0 {
		return ""
	}
	b, err := json.Marshal(ms)
	if err != nil { // only text and numbers go in
		return ""
	}
	return msgMark + string(b)
}

// Decode reads a string Encode wrote. A plain string (an old job row's
// English sentence, a marketplace message) is not encoded: ok is false.
func Decode(s string) (ms []Msg, ok bool) {
	if !strings.HasPrefix(s, msgMark) {
		return nil, false
	}
	if json.Unmarshal([]byte(s[len(msgMark):]), &ms) != nil {
		return nil, false
	}
	return ms, true
}

// Messages is the parts of s: the messages Encode wrote, or s itself as
// one plain text (shown as it is).
func Messages(s string) []Msg {
	if ms, ok := Decode(s); ok {
		return ms
	}
	if s == "" {
		return nil
	}
	return []Msg{{Text: s}}
}

// Text is s as the user reads it in the language of ctx: an encoded
// message translated, any other string as it is.
func Text(ctx context.Context, s string) string {
	return TextIn(LangOf(ctx), s, nil)
}

// TextIn is s in language l. arg, when not nil, rewrites each text
// argument (by its name; "" for a Text part) before it is put in: format
// writes amounts and times the way l does (format.MessageIn).
func TextIn(l Lang, s string, arg func(name, value string) string) string {
	ms, ok := Decode(s)
	if !ok {
		return s
	}
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		if t := m.In(l, arg); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// In is one message in language l (see TextIn for arg).
func (m Msg) In(l Lang, arg func(name, value string) string) string {
	if m.Key == "" {
		if m.Status != "" {
			return statusIn(l, m.Status)
		}
		if arg != nil {
			return arg("", m.Text)
		}
		return m.Text
	}
	data := make(map[string]any, len(m.Args)+1)
	var count any
	for k, v := range m.Args {
		if s, ok := v.(string); ok {
			if _, enc := Decode(s); enc {
				v = TextIn(l, s, arg)
			} else if arg != nil {
				v = arg(k, s)
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
