package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// get asks Handler for url with the given request headers.
func get(t *testing.T, h http.Handler, url string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("broken gzip: %v", err)
	}
	return out
}

// TestHandlerGzip: a client accepting gzip gets the compressed file, made
// once, which unpacks to the file itself; with a validator, Vary and the
// cache-busted URL's long lifetime.
func TestHandlerGzip(t *testing.T) {
	h := Handler()
	for _, name := range []string{HTMX, CSS, JS} {
		t.Run(name, func(t *testing.T) {
			want, err := files.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			r := get(t, h, Path(name), map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"})
			b := body(t, r)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d", r.StatusCode)
			}
			if ce := r.Header.Get("Content-Encoding"); ce != "gzip" {
				t.Fatalf("Content-Encoding %q, want gzip", ce)
			}
			if len(b) >= len(want) {
				t.Errorf("%d bytes on the wire for a %d-byte file", len(b), len(want))
			}
			if cl := r.Header.Get("Content-Length"); cl != strconv.Itoa(len(b)) {
				t.Errorf("Content-Length %q for %d bytes", cl, len(b))
			}
			if !bytes.Equal(gunzip(t, b), want) {
				t.Error("the compressed body does not unpack to the file")
			}
			if v := r.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
				t.Errorf("Vary %q, want Accept-Encoding", v)
			}
			if et := r.Header.Get("ETag"); !strings.HasPrefix(et, `"`) || len(et) < 18 {
				t.Errorf("ETag %q, want a strong content hash", et)
			}
			if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") || !strings.Contains(cc, "immutable") {
				t.Errorf("Cache-Control %q, want a year, immutable", cc)
			}
			if ct := r.Header.Get("Content-Type"); ct == "" || strings.HasPrefix(ct, "application/x-gzip") {
				t.Errorf("Content-Type %q, want the file's own type", ct)
			}
		})
	}
}

// TestHandlerIdentity: a client that does not accept gzip (or refuses it
// with q=0) gets the file as it is, still with Vary and a validator of its
// own, different from the compressed one's.
func TestHandlerIdentity(t *testing.T) {
	h := Handler()
	want, _ := files.ReadFile(HTMX)
	zipped := get(t, h, Path(HTMX), map[string]string{"Accept-Encoding": "gzip"})
	for _, ae := range []string{"", "identity", "gzip;q=0, deflate", "br"} {
		r := get(t, h, Path(HTMX), map[string]string{"Accept-Encoding": ae})
		b := body(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "" || !bytes.Equal(b, want) {
			t.Errorf("Accept-Encoding %q: status %d, Content-Encoding %q, %d bytes; want the file as it is", ae, r.StatusCode, r.Header.Get("Content-Encoding"), len(b))
		}
		if v := r.Header.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: Vary %q", ae, v)
		}
		if et := r.Header.Get("ETag"); et == "" || et == zipped.Header.Get("ETag") {
			t.Errorf("Accept-Encoding %q: ETag %q, want one of its own (the compressed one is %q)", ae, et, zipped.Header.Get("ETag"))
		}
	}
}

// TestHandlerNotModified: If-None-Match naming the current validator (alone,
// in a list, weak, or *) is a 304 with no body; a stale one gets the file.
func TestHandlerNotModified(t *testing.T) {
	h := Handler()
	first := get(t, h, Path(CSS), map[string]string{"Accept-Encoding": "gzip"})
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	for name, inm := range map[string]string{
		"alone": etag,
		"list":  `"stale", ` + etag + `, "other"`,
		"weak":  "W/" + etag,
		"star":  "*",
	} {
		t.Run(name, func(t *testing.T) {
			r := get(t, h, Path(CSS), map[string]string{"Accept-Encoding": "gzip", "If-None-Match": inm})
			b := body(t, r)
			if r.StatusCode != http.StatusNotModified || len(b) != 0 {
				t.Fatalf("If-None-Match %s: status %d, %d body bytes; want 304 and none", inm, r.StatusCode, len(b))
			}
			if r.Header.Get("ETag") != etag {
				t.Errorf("304 ETag %q, want %q", r.Header.Get("ETag"), etag)
			}
			if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") {
				t.Errorf("304 Cache-Control %q", cc)
			}
		})
	}
	r := get(t, h, Path(CSS), map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"stale"`})
	if b := body(t, r); r.StatusCode != http.StatusOK || len(b) == 0 {
		t.Errorf("a stale validator: status %d, %d bytes; want the file", r.StatusCode, len(b))
	}
}

// TestHandlerUnversioned: an asset asked for without its current hash gets
// a short lifetime (so a stale link never pins an old file), and a name
// that is not an asset is a 404.
func TestHandlerUnversioned(t *testing.T) {
	h := Handler()
	r := get(t, h, Prefix+CSS+"?v=old", nil)
	if cc := r.Header.Get("Cache-Control"); r.StatusCode != http.StatusOK || cc != "public, max-age=300" {
		t.Errorf("stale hash: status %d, Cache-Control %q", r.StatusCode, cc)
	}
	if r := get(t, h, Prefix+"nothing.js", nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("unknown file: status %d", r.StatusCode)
	}
}

// TestFaviconValidated: /favicon.ico carries a validator and answers 304.
func TestFaviconValidated(t *testing.T) {
	h := Favicon()
	r := get(t, h, "/favicon.ico", nil)
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" || r.Header.Get("ETag") == "" {
		t.Fatalf("status %d, type %q, ETag %q", r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("ETag"))
	}
	r2 := get(t, h, "/favicon.ico", map[string]string{"If-None-Match": r.Header.Get("ETag")})
	if b := body(t, r2); r2.StatusCode != http.StatusNotModified || len(b) != 0 {
		t.Errorf("revalidated: status %d, %d bytes", r2.StatusCode, len(b))
	}
}
