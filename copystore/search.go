package copystore

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Search works on one folded document per row: the words of the searched
// fields, lower-cased, "ё" folded to "е", split at every character that is
// neither a letter, a digit nor a mark, joined by spaces. Both SQLite's
// unicode61 tokenizer and PostgreSQL's 'simple' configuration split such a
// document the same way, so a query is folded alike and every word of it
// must prefix-match a word of the document. A barcode, a SKU or an order
// number is one word or a few (ART-1001-00042 is "art 1001 00042").

// Bounds of what the copy keeps from the marketplace's untrusted text.
const (
	maxNameBytes  = 1024 // a 100 KB name is stored cut at a rune boundary
	maxFieldBytes = 256  // SKUs, barcodes, brands, sizes, statuses, codes
	maxQueryWords = 8
	maxQueryBytes = 200
)

// bound cuts s to at most n bytes at a rune boundary and drops invalid
// UTF-8 and control characters.
func bound(s string, n int) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean && len(s) <= n {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			r = ' '
		}
		if b.Len()+utf8.RuneLen(r) > n {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// appendFolded appends the folded words of s to b, each preceded by a
// space.
func appendFolded(b []byte, s string) []byte {
	in := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			if !in {
				b = append(b, ' ')
				in = true
			}
			r = unicode.ToLower(r)
			if r == 'ё' {
				r = 'е'
			}
			b = utf8.AppendRune(b, r)
			continue
		}
		in = false
	}
	return b
}

// searchDoc builds the search document of a row from its fields. The
// seller and environment are not in it: the row's own columns filter them,
// and a word every row of a copy shares made the index walk the whole
// copy's list for a search as selective as one barcode.
func searchDoc(fields ...string) string {
	b := make([]byte, 0, 128)
	for _, f := range fields {
		b = appendFolded(b, f)
	}
	return string(b[min(1, len(b)):])
}

// queryWords folds a user's query into at most maxQueryWords words.
func queryWords(q string) []string {
	if len(q) > maxQueryBytes {
		q = bound(q, maxQueryBytes)
	}
	f := strings.Fields(string(appendFolded(nil, q)))
	if len(f) > maxQueryWords {
		f = f[:maxQueryWords]
	}
	return f
}

// ftsMatch is the FTS5 expression of a query: every word as a prefix. The
// words hold letters, digits and marks only, so quoting them is all the
// escaping FTS5 needs.
func ftsMatch(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(`"` + w + `"*`)
	}
	return b.String()
}

// tsQuery is the PostgreSQL to_tsquery('simple', ...) expression of the
// same search: prefix matches (":*") joined by "&".
func tsQuery(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString(" & ")
		}
		b.WriteString(w + ":*")
	}
	return b.String()
}

// foldedPrefix is the folded, space-joined form of q for prefix matches on
// one-word columns (order numbers, box codes): "RU2611-0" is "ru 2611 0".
func foldedPrefix(q string) string {
	return strings.Join(queryWords(q), " ")
}
