package apiclient

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Money is an amount in kopecks (hundredths of a rouble). It is exact: values
// are parsed from their decimal text, never through a float.
//
// In JSON it accepts a number (1299, 1299.5, 1299.50) or a decimal string
// ("1234.00") and is written as a number with exactly two decimals (1299.50).
type Money int64

// Errors returned by ParseMoney. Their messages are short and lower-case so
// that a form can show them beside the field as they are.
var (
	// ErrMoneyEmpty means the input was empty or only spaces.
	ErrMoneyEmpty = errors.New("must not be empty")
	// ErrMoneyFormat means the input is not a plain decimal number.
	ErrMoneyFormat = errors.New("must be a number")
	// ErrMoneyPrecision means the input has more than two decimals.
	ErrMoneyPrecision = errors.New("at most 2 decimals")
	// ErrMoneyRange means the amount does not fit (more than about 92 quadrillion roubles).
	ErrMoneyRange = errors.New("amount is too large")
)

// errMoneyJSON is returned by UnmarshalJSON; it never echoes the input.
var errMoneyJSON = errors.New("apiclient: money: invalid amount")

// ParseMoney parses an amount typed by a person, for form validation.
//
// Rules: optional leading '-'; digits 0-9 only (ASCII); '.' or ',' as the
// decimal separator followed by one or two digits; space, no-break space
// (U+00A0), narrow no-break space (U+202F) or thin space (U+2009) as
// thousands separators, only between groups of exactly three digits
// ("1 299,50", "12 345.6"); surrounding spaces are ignored. Rejected:
// an empty input (ErrMoneyEmpty); exponents, NaN, Inf, signs other than a
// leading '-', currency symbols, non-ASCII digits, a lone or trailing
// separator, misplaced thousands separators (ErrMoneyFormat); more than two
// decimals, even zeros ("1.500", and "1,299", which is read as 1.299)
// (ErrMoneyPrecision); amounts beyond the int64 range of kopecks
// (ErrMoneyRange). The returned errors are the sentinels themselves.
func ParseMoney(s string) (Money, error) {
	s = strings.TrimFunc(s, isMoneySpace)
	if s == "" {
		return 0, ErrMoneyEmpty
	}
	return parseDecimal(s, true, false)
}

// MustParseMoney is like ParseMoney but panics on an invalid input. It is
// meant for constants in tests and examples.
func MustParseMoney(s string) Money {
	m, err := ParseMoney(s)
	if err != nil {
		panic("apiclient: MustParseMoney: " + err.Error())
	}
	return m
}

func isMoneySpace(r rune) bool {
	switch r {
	case ' ', '\u00a0', '\u202f', '\u2009', '\t':
		return true
	}
	return false
}

// parseDecimal parses [-]digits[(.|,)digits]. human enables thousands
// separators and ',' as decimal separator; lenientZeros allows extra decimals
// when they are all zeros (for machine input such as "1299.500").
func parseDecimal(s string, human, lenientZeros bool) (Money, error) {
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	// Backed by arrays on the stack: a price form parses two amounts per
	// row, and heap slices here were most of a 10,000-row form's validation.
	var intBuf, fracBuf [24]byte
	intPart, fracPart := intBuf[:0], fracBuf[:0]
	sawSep := false
	groupLen := -1 // digits since the last thousands separator; -1 = none seen yet
	firstGroup := 0
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			intPart = append(intPart, c)
			if groupLen >= 0 {
				groupLen++
				if groupLen > 3 {
					return 0, ErrMoneyFormat
				}
			} else {
				firstGroup++
			}
			i++
		case c == '.' || (human && c == ','):
			sawSep = true
		default:
			if !human {
				return 0, ErrMoneyFormat
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isMoneySpace(r) || r == '\t' {
				return 0, ErrMoneyFormat
			}
			// a separator must follow a digit and precede one, and the
			// group before it must be complete
			if len(intPart) == 0 || i+size >= len(s) || s[i+size] < '0' || s[i+size] > '9' {
				return 0, ErrMoneyFormat
			}
			if groupLen >= 0 && groupLen != 3 {
				return 0, ErrMoneyFormat
			}
			if groupLen < 0 && firstGroup > 3 {
				return 0, ErrMoneyFormat
			}
			groupLen = 0
			i += size
		}
		if sawSep {
			i++
			break
		}
	}
	if groupLen >= 0 && groupLen != 3 {
		return 0, ErrMoneyFormat
	}
	if len(intPart) == 0 {
		return 0, ErrMoneyFormat
	}
	if sawSep {
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, ErrMoneyFormat
			}
			fracPart = append(fracPart, c)
		}
		if len(fracPart) == 0 {
			return 0, ErrMoneyFormat
		}
	}
	if len(fracPart) > 2 {
		if !lenientZeros || strings.Trim(string(fracPart[2:]), "0") != "" {
			return 0, ErrMoneyPrecision
		}
		fracPart = fracPart[:2]
	}
	for len(fracPart) < 2 {
		fracPart = append(fracPart, '0')
	}
	var v uint64
	const limit = uint64(1) << 63 // magnitude of math.MinInt64
	for _, c := range append(intPart, fracPart...) {
		d := uint64(c - '0')
		if v > (limit-d)/10 {
			return 0, ErrMoneyRange
		}
		v = v*10 + d
	}
	if neg {
		if v == limit {
			return Money(-1 << 63), nil
		}
		return -Money(v), nil
	}
	if v >= limit {
		return 0, ErrMoneyRange
	}
	return Money(v), nil
}

// UnmarshalJSON accepts a JSON number or a decimal string with at most two
// significant decimals (extra zero decimals are allowed). null leaves the
// value unchanged. Exponents are rejected.
func (m *Money) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		return nil
	}
	s := string(data)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" {
		return errMoneyJSON
	}
	v, err := parseDecimal(s, false, true)
	if err != nil {
		return errMoneyJSON
	}
	*m = v
	return nil
}

// MarshalJSON writes the amount as a JSON number with exactly two decimals.
func (m Money) MarshalJSON() ([]byte, error) {
	return []byte(m.Decimal()), nil
}

// Kopecks returns the amount in kopecks.
func (m Money) Kopecks() int64 { return int64(m) }

// Decimal formats the amount as plain decimal text with two decimals and no
// thousands separators, e.g. "1234.50" or "-0.05" (for form values and JSON).
func (m Money) Decimal() string {
	return m.format(false)
}

// String formats the amount with a plain space between thousands and two
// decimals, e.g. "1 234.50".
func (m Money) String() string {
	return m.format(true)
}

func (m Money) format(group bool) string {
	u := uint64(m)
	neg := m < 0
	if neg {
		u = -u
	}
	ip := strconv.FormatUint(u/100, 10)
	frac := u % 100
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if group {
		for i, c := range ip {
			if i > 0 && (len(ip)-i)%3 == 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(c)
		}
	} else {
		b.WriteString(ip)
	}
	b.WriteByte('.')
	b.WriteByte(byte('0' + frac/10))
	b.WriteByte(byte('0' + frac%10))
	return b.String()
}
