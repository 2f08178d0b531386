package apiclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Marketplace answers are decoded with github.com/go-json-experiment/json,
// the implementation behind Go's encoding/json/v2 experiment: it reads a
// list answer in one pass instead of encoding/json's validate-then-decode
// two, and skips what is not wanted without allocating. On a 50-order page
// that is about 2.4 times faster with a tenth of the allocations
// (BENCHMARKS.md, P6). When encoding/json/v2 leaves the experiment, only the
// import changes.
//
// The options keep encoding/json's tolerance, because the data is not ours
// to reject: invalid UTF-8 becomes U+FFFD, a repeated member name keeps its
// last value and names match regardless of case. Requests are still
// encoded with encoding/json.
//
// Money gets a decoder function of its own, so the decoder hands it the
// value in place instead of copying it out for an UnmarshalJSON method; the
// method stays for encoding/json users. Identifiers and timestamps get
// liberal readers (see lenient.go): a string or a number for an id, every
// timestamp form seen in the wild.
var baseUnmarshalers = jsonv2.JoinUnmarshalers(
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, m *Money) error {
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return m.UnmarshalJSON(v)
	}),
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, id *OrderID) error {
		s, err := readID(dec, orderIDType)
		*id = OrderID(s)
		return err
	}),
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, id *OrderItemID) error {
		s, err := readID(dec, orderItemIDType)
		*id = OrderItemID(s)
		return err
	}),
	jsonv2.UnmarshalFromFunc(readTime),
)

var toleranceOptions = jsonv2.JoinOptions(
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	jsonv2.MatchCaseInsensitiveNames(true),
)

var decodeOptions = jsonv2.JoinOptions(toleranceOptions, jsonv2.WithUnmarshalers(baseUnmarshalers))

// withoutItemsOptions decode like decodeOptions but skip the items of
// every order without allocating (ListOrdersOptions.WithoutItems).
var withoutItemsOptions = jsonv2.JoinOptions(toleranceOptions, jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
	baseUnmarshalers,
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *[]OrderItem) error {
		return dec.SkipValue()
	}),
)))

// decodeWith asks response.decode to use other options than decodeOptions.
type decodeWith struct {
	v    any
	opts jsonv2.Options
}

// unmarshal decodes one JSON value of a marketplace answer into v.
func unmarshal(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, decodeOptions)
}

// maxFieldPath bounds the field path an error names: the path comes from
// the answer (array indices, member names), so it is not allowed to grow
// an error message without limit.
const maxFieldPath = 80

// jsonErrorReason says why a body did not decode, without quoting it: the
// offset of a syntax error, or the field and the kinds of a type mismatch.
func jsonErrorReason(err error) string {
	var se *jsontext.SyntacticError
	var sem *jsonv2.SemanticError
	var se1 *json.SyntaxError
	var te1 *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated JSON"
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at offset %d", se.ByteOffset)
	case errors.As(err, &sem):
		field := fieldPath(string(sem.JSONPointer))
		what := "invalid value"
		if sem.JSONKind != 0 && sem.GoType != nil {
			what = fmt.Sprintf("JSON %s where %s was expected", kindName(sem.JSONKind), sem.GoType)
		}
		if field == "" {
			return what
		}
		return "field " + field + ": " + what
	case errors.As(err, &se1): // from a type's own UnmarshalJSON
		if strings.Contains(se1.Error(), "unexpected end of JSON input") {
			return "truncated JSON"
		}
		return fmt.Sprintf("invalid JSON at offset %d", se1.Offset)
	case errors.As(err, &te1):
		if te1.Field != "" {
			return fmt.Sprintf("field %s: JSON %s where %s was expected", te1.Field, te1.Value, te1.Type)
		}
		return fmt.Sprintf("JSON %s where %s was expected", te1.Value, te1.Type)
	}
	return "invalid field value"
}

// fieldPath turns a JSON pointer ("/_embedded/orders/3/fullSum") into the
// dotted form errors use ("_embedded.orders.3.fullSum"), cut to
// maxFieldPath bytes on a rune boundary.
func fieldPath(ptr string) string {
	p := strings.ReplaceAll(strings.TrimPrefix(ptr, "/"), "/", ".")
	p = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
	if len(p) <= maxFieldPath {
		return p
	}
	cut := maxFieldPath
	for cut > 0 && p[cut]&0xC0 == 0x80 {
		cut--
	}
	return p[:cut] + "…"
}

// kindName names a JSON kind the way encoding/json's errors did.
func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "bool"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}
