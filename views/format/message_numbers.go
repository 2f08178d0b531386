package format

import (
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// maxMessageNumberDigits bounds the whole part of a number the message
// helpers rewrite: longer digit runs (an id, a barcode with a point) stay
// as sent, and no amount overflows kopecks.
const maxMessageNumberDigits = 13

// MessageNumbersIn rewrites the plain decimal amounts in a marketplace
// message ("current price 25499.00") the way l writes money ("25 499,00"
// in Russian, U+202F; "25,499.00" in English), keeping the rest of the
// message as sent, cleaned and bounded to MaxShown characters. Only
// numbers with a decimal point and one or two decimals that stand alone
// (not inside an SKU, a date, a version or a longer number) are rewritten:
// integers such as barcodes, quantities and percentages stay as they are.
func MessageNumbersIn(l i18n.Lang, s string) string {
	return messageNumbers(s, func(k int64) string { return MoneyIn(l, k) })
}

// GridNumbersIn is MessageNumbersIn with amounts written as GridMoneyIn
// writes them.
func GridNumbersIn(l i18n.Lang, s string) string {
	return messageNumbers(s, func(k int64) string { return GridMoneyIn(l, k) })
}

func messageNumbers(s string, money func(int64) string) string {
	s, _ = Short(s, MaxShown)
	if !strings.Contains(s, ".") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	last := 0
	for i := 0; i < len(s); {
		if !isDigit(s[i]) || (i > 0 && (isWordByte(s[i-1]) || s[i-1] == '.' || s[i-1] == ',')) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		whole := s[i:j]
		if j+1 >= len(s) || s[j] != '.' || !isDigit(s[j+1]) {
			i = j
			continue
		}
		k := j + 1
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		frac := s[j+1 : k]
		// A number ending the sentence ("… 25499.00.") is still a number;
		// "1.2.3", "25499.00x" and "1.005" are not amounts.
		tail := k < len(s) && (isWordByte(s[k]) || (s[k] == '.' || s[k] == ',') && k+1 < len(s) && isDigit(s[k+1]))
		if len(frac) > 2 || len(whole) > maxMessageNumberDigits || tail {
			i = k
			continue
		}
		if len(frac) == 1 {
			frac += "0"
		}
		n, err := strconv.ParseInt(whole+frac, 10, 64)
		if err != nil {
			i = k
			continue
		}
		if i > 0 && s[i-1] == '-' && (i == 1 || !isWordByte(s[i-2])) {
			// "-150.00": the sign goes with the number.
			b.WriteString(s[last : i-1])
			b.WriteString(money(-n))
		} else {
			b.WriteString(s[last:i])
			b.WriteString(money(n))
		}
		last, i = k, k
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte reports letters, digits, '_' and any byte of a multi-byte
// character (a Cyrillic letter glued to a number keeps it a code).
func isWordByte(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}
