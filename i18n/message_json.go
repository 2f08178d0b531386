package i18n

import (
	"slices"
	"unicode/utf8"
)

// appendMsgs appends the JSON encoding/json gives ms, written without
// reflection: Value runs once per stored column, and a 10,000-row form
// stores four columns of messages a row. It reports false, having
// appended nothing of use, for what it does not write byte for byte as
// encoding/json would: an argument that is not text, or a string that
// json.Marshal escapes (quotes, backslashes, control characters, <, >,
// &, U+2028, U+2029, invalid UTF-8). The caller then uses json.Marshal.
func appendMsgs(b []byte, ms Msgs) ([]byte, bool) {
	b = append(b, '[')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendMsg(b, m); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendMsg appends one message as Msg's JSON tags spell it, the empty
// fields left out and Args' keys sorted, as encoding/json does.
func appendMsg(b []byte, m Msg) ([]byte, bool) {
	b = append(b, '{')
	sep := false
	field := func(name, v string) bool {
		if v == "" {
			return true
		}
		if sep {
			b = append(b, ',')
		}
		sep = true
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		var ok bool
		b, ok = appendString(b, v)
		return ok
	}
	if !field("k", m.Key) {
		return b, false
	}
	if len(m.Args) > 0 {
		keys := make([]string, 0, len(m.Args))
		for k := range m.Args {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if sep {
			b = append(b, ',')
		}
		sep = true
		b = append(b, `"a":{`...)
		for i, k := range keys {
			v, isText := m.Args[k].(string)
			if !isText {
				return b, false
			}
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendString(b, k); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = appendString(b, v); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	}
	if !field("l", m.Label) || !field("s", m.Status) || !field("t", m.Text) {
		return b, false
	}
	if m.Verbatim {
		if sep {
			b = append(b, ',')
		}
		b = append(b, `"v":true`...)
	}
	return append(b, '}'), true
}

// appendString appends s quoted, when json.Marshal would write it as it
// is between the quotes.
func appendString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return b, false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return b, false
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
