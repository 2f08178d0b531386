package sheets

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxExportChars bounds one written cell: Excel's own limit for a cell,
// so a value no page shows whole still fits a spreadsheet, and a hostile
// 100 MB value does not make a 100 MB export.
const MaxExportChars = 32767

// CellText is s as a Text cell holds it: control and bidi-control
// characters dropped (tabs and line breaks become spaces), cut to
// MaxExportChars with a note saying how long it was, and defused.
func CellText(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			return ' '
		case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
	if n := utf8.RuneCountInString(s); n > MaxExportChars {
		note := fmt.Sprintf("… [truncated, %d characters]", n)
		keep := MaxExportChars - utf8.RuneCountInString(note)
		i := 0
		for range keep {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		s = s[:i] + note
	}
	return Defuse(s)
}

// Defuse keeps text from running as a spreadsheet formula ("CSV
// injection"): a leading = + - @ tab or CR gets an apostrophe before it, and so does
// one after a ';' or ',' (a spreadsheet that splits the cell there would
// start a new cell with it). Leading spaces are looked past, as
// spreadsheets do.
func Defuse(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	start := true // at the start of the value or of a piece after a separator
	for _, r := range s {
		if start && r != ' ' {
			if r == '=' || r == '+' || r == '-' || r == '@' || r == '\t' || r == '\r' {
				if b.Len() == 0 {
					b.Grow(len(s) + 4)
				}
				b.WriteByte('\'')
			}
			start = false
		}
		if r == ';' || r == ',' {
			start = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

// IsDecimal reports whether s is a plain decimal: an optional minus, digits,
// and optionally a point and more digits ("-3", "1299.50"). Only such a
// value is written as a number; nothing else a spreadsheet could read as a
// formula or a date is.
func IsDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, point := strings.Cut(s, ".")
	return len(s) <= 40 && digits(whole) && (!point || digits(frac))
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
