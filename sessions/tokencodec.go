package sessions

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"
)

// A token is stored in a compact binary form rather than as JSON, so that
// a session holding MaxAccounts accounts with both their tokens stays
// small enough to be read on every page: the times are integers, and a
// JWT or a hex or base64url string is kept as the bytes it encodes
// (three quarters or half of its text). Every form decodes to exactly the
// string that was encoded; anything else is kept as it is. Tokens stored
// as JSON (the first byte is '{') still decode.

// tokenFormat is the first byte of a token in the compact form.
const tokenFormat = 1

// How a string is kept.
const (
	strRaw       = 0 // the bytes of the string
	strHex       = 1 // lowercase hex, kept as the bytes it encodes
	strBase64URL = 2 // unpadded base64url, kept as the bytes it encodes
	strJWT       = 3 // three unpadded base64url segments joined by dots
	strJWTFlate  = 4 // a JWT whose header and claims are deflated with jwtDict
)

// jwtDict primes the deflation of a JWT's header and claims with the
// names and values every JWT repeats (RFC 7519, RFC 7515) and the
// marketplace's seller claim, so that the short JSON of one token shrinks.
var jwtDict = []byte(`{"alg":"RS256","typ":"JWT","kid":"{"alg":"HS256","typ":"JWT"}` +
	`{"iss":"https://","sub":"client-","aud":"","scope":"","azp":"","nbf":1,"seller_id":1,"env":"test","exp":1,"iat":1,"jti":"`)

// maxDecodedClaims bounds what a stored JWT's header and claims inflate to.
const maxDecodedClaims = 64 << 10

var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriterDict(nil, flate.BestCompression, jwtDict)
	return w
}}

var flateReaders = sync.Pool{New: func() any { return flate.NewReaderDict(bytes.NewReader(nil), jwtDict) }}

func deflateClaims(b []byte) []byte {
	var buf bytes.Buffer
	w := flateWriters.Get().(*flate.Writer)
	w.Reset(&buf)
	_, _ = w.Write(b)
	_ = w.Close()
	flateWriters.Put(w)
	return buf.Bytes()
}

func inflateClaims(b []byte) ([]byte, bool) {
	r := flateReaders.Get().(io.ReadCloser)
	defer flateReaders.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b), jwtDict); err != nil {
		return nil, false
	}
	out, err := io.ReadAll(io.LimitReader(r, maxDecodedClaims+1))
	if err != nil || len(out) > maxDecodedClaims {
		return nil, false
	}
	return out, true
}

// Flags of the times.
const (
	flagIssuedZero  = 1 << 0
	flagExpiresZero = 1 << 1
)

var b64 = base64.RawURLEncoding

// encodeToken returns t in the compact form.
func encodeToken(t StoredToken) []byte {
	out := make([]byte, 0, 32+len(t.AccessToken)+len(t.RefreshToken))
	out = append(out, tokenFormat)
	var flags byte
	if t.IssuedAt.IsZero() {
		flags |= flagIssuedZero
	}
	if t.ExpiresAt.IsZero() {
		flags |= flagExpiresZero
	}
	out = append(out, flags)
	if !t.IssuedAt.IsZero() {
		out = binary.AppendVarint(out, t.IssuedAt.UnixNano())
	}
	if !t.ExpiresAt.IsZero() {
		out = binary.AppendVarint(out, t.ExpiresAt.UnixNano())
	}
	out = appendTokenString(out, t.AccessToken)
	return appendTokenString(out, t.RefreshToken)
}

// appendTokenString appends s in the shortest form that decodes back to s.
func appendTokenString(out []byte, s string) []byte {
	if parts := strings.Split(s, "."); len(parts) == 3 {
		var segs [3][]byte
		ok := true
		for i, p := range parts {
			if segs[i], ok = exactBase64URL(p); !ok {
				break
			}
		}
		if ok {
			head := append(append([]byte(nil), segs[0]...), segs[1]...)
			if z := deflateClaims(head); len(z)+binary.MaxVarintLen16 < len(head) {
				out = append(out, strJWTFlate)
				out = binary.AppendUvarint(out, uint64(len(segs[0])))
				out = appendBytes(out, z)
				return appendBytes(out, segs[2])
			}
			out = append(out, strJWT)
			for _, seg := range segs {
				out = binary.AppendUvarint(out, uint64(len(seg)))
				out = append(out, seg...)
			}
			return out
		}
	}
	if b, err := hex.DecodeString(s); err == nil && len(s) > 0 && hex.EncodeToString(b) == s {
		return appendBytes(append(out, strHex), b)
	}
	if b, ok := exactBase64URL(s); ok && len(s) > 0 {
		return appendBytes(append(out, strBase64URL), b)
	}
	return appendBytes(append(out, strRaw), []byte(s))
}

// exactBase64URL decodes s when it is unpadded base64url that encodes
// back to the same text.
func exactBase64URL(s string) ([]byte, bool) {
	b, err := b64.DecodeString(s)
	if err != nil || b64.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}

func appendBytes(out, b []byte) []byte {
	out = binary.AppendUvarint(out, uint64(len(b)))
	return append(out, b...)
}

var errTokenForm = errors.New("sessions: malformed stored token")

// decodeToken reads a token in the compact form, or as JSON.
func decodeToken(b []byte) (StoredToken, error) {
	var t StoredToken
	if len(b) > 0 && b[0] == '{' {
		err := json.Unmarshal(b, &t)
		return t, err
	}
	if len(b) < 2 || b[0] != tokenFormat {
		return t, errTokenForm
	}
	flags, rest := b[1], b[2:]
	readTime := func() (time.Time, bool) {
		n, k := binary.Varint(rest)
		if k <= 0 {
			return time.Time{}, false
		}
		rest = rest[k:]
		return time.Unix(0, n).UTC(), true
	}
	var ok bool
	if flags&flagIssuedZero == 0 {
		if t.IssuedAt, ok = readTime(); !ok {
			return StoredToken{}, errTokenForm
		}
	}
	if flags&flagExpiresZero == 0 {
		if t.ExpiresAt, ok = readTime(); !ok {
			return StoredToken{}, errTokenForm
		}
	}
	if t.AccessToken, rest, ok = readTokenString(rest); !ok {
		return StoredToken{}, errTokenForm
	}
	if t.RefreshToken, rest, ok = readTokenString(rest); !ok || len(rest) != 0 {
		return StoredToken{}, errTokenForm
	}
	return t, nil
}

func readBytes(b []byte) (val, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

func readTokenString(b []byte) (string, []byte, bool) {
	if len(b) == 0 {
		return "", nil, false
	}
	form, rest := b[0], b[1:]
	switch form {
	case strJWTFlate:
		n, k := binary.Uvarint(rest)
		if k <= 0 {
			return "", nil, false
		}
		z, r, ok := readBytes(rest[k:])
		if !ok {
			return "", nil, false
		}
		head, ok := inflateClaims(z)
		if !ok || n > uint64(len(head)) {
			return "", nil, false
		}
		sig, r, ok := readBytes(r)
		if !ok {
			return "", nil, false
		}
		return b64.EncodeToString(head[:n]) + "." + b64.EncodeToString(head[n:]) + "." + b64.EncodeToString(sig), r, true
	case strJWT:
		var parts [3]string
		for i := range parts {
			seg, r, ok := readBytes(rest)
			if !ok {
				return "", nil, false
			}
			parts[i], rest = b64.EncodeToString(seg), r
		}
		return parts[0] + "." + parts[1] + "." + parts[2], rest, true
	case strHex, strBase64URL, strRaw:
		v, r, ok := readBytes(rest)
		if !ok {
			return "", nil, false
		}
		switch form {
		case strHex:
			return hex.EncodeToString(v), r, true
		case strBase64URL:
			return b64.EncodeToString(v), r, true
		}
		return string(v), r, true
	}
	return "", nil, false
}

// A payload longer than packThreshold (a session holding several
// accounts) is stored deflated: the accounts repeat their field names and
// much of their values. The first byte tells the forms apart: JSON starts
// with '{', a packed payload with payloadPacked.
const (
	packThreshold = 512
	payloadPacked = 1
	// maxPayload bounds what a stored payload inflates to.
	maxPayload = 1 << 20
)

var payloadWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.DefaultCompression)
	return w
}}

var payloadReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// packPayload returns the form of the JSON payload plain to seal.
func packPayload(plain []byte) []byte {
	if len(plain) <= packThreshold {
		return plain
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(plain)/2))
	buf.WriteByte(payloadPacked)
	w := payloadWriters.Get().(*flate.Writer)
	w.Reset(buf)
	_, _ = w.Write(plain)
	_ = w.Close()
	payloadWriters.Put(w)
	if buf.Len() >= len(plain) {
		return plain
	}
	return buf.Bytes()
}

// unpackPayload returns the JSON of a payload made by packPayload.
func unpackPayload(b []byte) ([]byte, error) {
	if len(b) == 0 || b[0] != payloadPacked {
		return b, nil
	}
	r := payloadReaders.Get().(io.ReadCloser)
	defer payloadReaders.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b[1:]), nil); err != nil {
		return nil, errTokenForm
	}
	out, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil || len(out) > maxPayload {
		return nil, errTokenForm
	}
	return out, nil
}
