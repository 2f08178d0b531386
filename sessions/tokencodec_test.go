package sessions

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestTokenCodecRoundTrip: every token decodes to exactly what was
// encoded, whatever form its strings take, and tokens stored as JSON
// still decode.
func TestTokenCodecRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 27, 3, 4, 5, 123456789, time.UTC)
	jwt := realisticJWT("seed")
	strs := []string{
		"", jwt, "abc.def.ghi", "a..b", "abc.def", "x.y.z.w", "00ff", "00FF", "abc", "ab_-",
		"YWJj=", "a", "токен", strings.Repeat("r", 64), "eyJ.eyJ.!", jwt + "=",
		sandboxJWT(t, Account{ClientID: "client-1", SellerID: 42}, "b2b/test", now),
	}
	for _, a := range strs {
		for _, r := range []string{"", "0123456789abcdef", "not hex"} {
			for _, ts := range [][2]time.Time{{now, now.Add(15 * time.Minute)}, {}, {time.Unix(0, 0).UTC(), now}} {
				in := StoredToken{AccessToken: a, RefreshToken: r, IssuedAt: ts[0], ExpiresAt: ts[1]}
				out, err := decodeToken(encodeToken(in))
				if err != nil {
					t.Fatalf("%q/%q: %v", a, r, err)
				}
				if out.AccessToken != in.AccessToken || out.RefreshToken != in.RefreshToken ||
					!out.IssuedAt.Equal(in.IssuedAt) || !out.ExpiresAt.Equal(in.ExpiresAt) ||
					out.IssuedAt.IsZero() != in.IssuedAt.IsZero() || out.ExpiresAt.IsZero() != in.ExpiresAt.IsZero() {
					t.Fatalf("round trip of %+v gave %+v", in, out)
				}
			}
		}
	}
	old := StoredToken{AccessToken: jwt, RefreshToken: "r", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}
	b, _ := json.Marshal(old)
	got, err := decodeToken(b)
	if err != nil || got.AccessToken != old.AccessToken || !got.ExpiresAt.Equal(old.ExpiresAt) {
		t.Fatalf("JSON token: %+v, %v", got, err)
	}
	if enc := encodeToken(old); len(enc) >= len(b)*3/4 {
		t.Fatalf("compact form %d bytes, JSON %d: not compact", len(enc), len(b))
	}
}

// TestTokenCodecRejectsDamage: a truncated or extended stored token does
// not decode (it reads as missing and is fetched again), and never panics.
func TestTokenCodecRejectsDamage(t *testing.T) {
	now := time.Now()
	enc := encodeToken(StoredToken{AccessToken: realisticJWT("seed"), RefreshToken: "0123abcd", IssuedAt: now, ExpiresAt: now})
	for i := range enc {
		if _, err := decodeToken(enc[:i]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: decoded", i, len(enc))
		}
	}
	if _, err := decodeToken(append(enc, 0)); err == nil {
		t.Fatal("a trailing byte: decoded")
	}
	for _, b := range [][]byte{nil, {9}, {tokenFormat, 0, 0, 0, 0, 0}, {tokenFormat, 3, strJWTFlate, 200, 1, 0}} {
		if _, err := decodeToken(b); err == nil {
			t.Fatalf("%v: decoded", b)
		}
	}
}

// TestPayloadPack: a long payload is stored deflated and reads back as the
// same JSON; a short one and a payload stored as JSON are read as they are.
func TestPayloadPack(t *testing.T) {
	d := &Data{}
	for i := range MaxAccounts {
		if err := d.AddAccount(Account{ClientID: "client-" + strings.Repeat("x", i+1), ClientSecret: randomHex(t, 16), Environment: "test", SellerID: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	long, _ := json.Marshal(d)
	short := []byte(`{"ci":"c"}`)
	for _, plain := range [][]byte{long, short} {
		packed := packPayload(plain)
		if len(plain) > packThreshold && (len(packed) >= len(plain) || packed[0] != payloadPacked) {
			t.Fatalf("payload of %d bytes stored as %d bytes", len(plain), len(packed))
		}
		got, err := unpackPayload(packed)
		if err != nil || string(got) != string(plain) {
			t.Fatalf("unpack: %v", err)
		}
		if got, err := unpackPayload(plain); err != nil || string(got) != string(plain) {
			t.Fatalf("JSON payload: %v", err)
		}
	}
	if _, err := unpackPayload([]byte{payloadPacked, 0xff, 0x00}); err == nil {
		t.Fatal("a damaged packed payload was read")
	}
}

// BenchmarkTokenDecode is the cost of reading one stored token, in the
// compact form and as JSON.
func BenchmarkTokenDecode(b *testing.B) {
	now := time.Now()
	t := &testing.T{}
	tok := StoredToken{AccessToken: sandboxJWT(t, Account{ClientID: "client-1", SellerID: 42}, "b2b/test", now), RefreshToken: randomHex(t, 32), IssuedAt: now, ExpiresAt: now}
	js, _ := json.Marshal(tok)
	for _, tc := range []struct {
		name string
		b    []byte
	}{{"compact", encodeToken(tok)}, {"json", js}} {
		b.Run("form="+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeToken(tc.b); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
