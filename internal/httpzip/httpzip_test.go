package httpzip

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// server is an echo with the middleware (Level 1, MinLength 1024) and the
// routes the tests need.
func server(t *testing.T, routes func(e *echo.Echo)) *httptest.Server {
	t.Helper()
	e := echo.New()
	e.Use(Middleware(Config{Level: 1, MinLength: 1024, Skip: func(c echo.Context) bool { return c.Path() == "/healthz" }}))
	routes(e)
	s := httptest.NewServer(e)
	t.Cleanup(s.Close)
	return s
}

// fetch GETs url with Accept-Encoding ae ("" = none), never unpacking on
// its own.
func fetch(t *testing.T, method, url, ae string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func unzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("broken gzip: %v", err)
	}
	return string(out)
}

var page = "<!doctype html><p>" + strings.Repeat("строка таблицы ", 400) + "</p>"

func TestCompressesAboveMinimum(t *testing.T) {
	s := server(t, func(e *echo.Echo) {
		e.GET("/page", func(c echo.Context) error { return c.HTML(http.StatusOK, page) })
		e.GET("/small", func(c echo.Context) error { return c.HTML(http.StatusOK, "<p>short</p>") })
		e.GET("/json", func(c echo.Context) error {
			return c.JSONBlob(http.StatusOK, []byte(`{"rows":"`+strings.Repeat("x", 3000)+`"}`))
		})
		e.GET("/csv", func(c echo.Context) error {
			return c.Blob(http.StatusOK, "text/csv; charset=utf-8", []byte(strings.Repeat("a;b;c\r\n", 500)))
		})
		e.GET("/missing", func(c echo.Context) error {
			return echo.NewHTTPError(http.StatusNotFound, strings.Repeat("no such page ", 200))
		})
	})
	for _, path := range []string{"/page", "/json", "/csv"} {
		resp, b := fetch(t, http.MethodGet, s.URL+path, "gzip, deflate, br")
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: Content-Encoding %q, want gzip", path, resp.Header.Get("Content-Encoding"))
			continue
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", path, resp.Header.Get("Vary"))
		}
		_, plain := fetch(t, http.MethodGet, s.URL+path, "")
		if got := unzip(t, b); got != string(plain) || len(b) >= len(plain) {
			t.Errorf("%s: %d compressed bytes unpack to %d, the plain answer is %d", path, len(b), len(got), len(plain))
		}
	}
	// Below the minimum: as it is, but still varying on the header.
	resp, b := fetch(t, http.MethodGet, s.URL+"/small", "gzip")
	if resp.Header.Get("Content-Encoding") != "" || string(b) != "<p>short</p>" {
		t.Errorf("short body: Content-Encoding %q, body %q", resp.Header.Get("Content-Encoding"), b)
	}
	if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("short body: Vary %q", resp.Header.Get("Vary"))
	}
	// Error answers returned by handlers are compressed too.
	resp, b = fetch(t, http.MethodGet, s.URL+"/missing", "gzip")
	if resp.StatusCode != http.StatusNotFound || resp.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(unzip(t, b), "no such page") {
		t.Errorf("error answer: status %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
}

func TestLeavesAlone(t *testing.T) {
	xlsx := bytes.Repeat([]byte("PK\x03\x04 zipped already "), 400)
	s := server(t, func(e *echo.Echo) {
		e.GET("/healthz", func(c echo.Context) error { return c.HTML(http.StatusOK, page) })
		e.GET("/page", func(c echo.Context) error { return c.HTML(http.StatusOK, page) })
		e.HEAD("/page", func(c echo.Context) error { return c.HTML(http.StatusOK, page) })
		e.GET("/x.xlsx", func(c echo.Context) error {
			return c.Blob(http.StatusOK, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", xlsx)
		})
		e.GET("/js", func(c echo.Context) error {
			c.Response().Header().Set("Content-Encoding", "gzip") // compressed already (static)
			return c.Blob(http.StatusOK, "text/html; charset=utf-8", []byte(page))
		})
		e.GET("/none", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) })
		e.GET("/same", func(c echo.Context) error { return c.NoContent(http.StatusNotModified) })
	})
	cases := []struct {
		method, path, ae string
		want             []byte
		vary             bool
	}{
		{http.MethodGet, "/page", "", []byte(page), true},             // the client does not accept gzip
		{http.MethodGet, "/page", "gzip;q=0, br", []byte(page), true}, // nor here
		{http.MethodGet, "/x.xlsx", "gzip", xlsx, false},              // never XLSX
		{http.MethodGet, "/js", "gzip", []byte(page), false},          // never twice
		{http.MethodGet, "/healthz", "gzip", []byte(page), false},     // skipped
		{http.MethodHead, "/page", "gzip", nil, false},                // no body to compress
		{http.MethodGet, "/none", "gzip", nil, false},                 // 204
		{http.MethodGet, "/same", "gzip", nil, false},                 // 304
	}
	for _, tc := range cases {
		resp, b := fetch(t, tc.method, s.URL+tc.path, tc.ae)
		wantCE := ""
		if tc.path == "/js" {
			wantCE = "gzip"
		}
		if got := resp.Header.Get("Content-Encoding"); got != wantCE || !bytes.Equal(b, tc.want) {
			t.Errorf("%s %s (Accept-Encoding %q): Content-Encoding %q, %d bytes; want %q and the body as written (%d)", tc.method, tc.path, tc.ae, got, len(b), wantCE, len(tc.want))
		}
		if got := strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding"); got != tc.vary {
			t.Errorf("%s %s: Vary %q, want Accept-Encoding: %v", tc.method, tc.path, resp.Header.Get("Vary"), tc.vary)
		}
	}
}

// TestStreams: a handler that flushes gets its first rows to the client
// while it is still writing, compressed, and the whole body unpacks to
// what it wrote.
func TestStreams(t *testing.T) {
	release := make(chan struct{})
	s := server(t, func(e *echo.Echo) {
		e.GET("/export.csv", func(c echo.Context) error {
			c.Response().Header().Set("Content-Type", "text/csv; charset=utf-8")
			c.Response().WriteHeader(http.StatusOK)
			_, _ = io.WriteString(c.Response(), "sku;price\r\nfirst;1\r\n")
			c.Response().Flush()
			select {
			case <-release:
			case <-time.After(time.Minute):
				return nil
			}
			for i := range 2000 {
				_, _ = io.WriteString(c.Response(), "row;"+strings.Repeat("9", i%7+1)+"\r\n")
			}
			return nil
		})
	})
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/export.csv", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	// The first two lines arrive while the handler waits for release.
	for _, want := range []string{"sku;price\r\n", "first;1\r\n"} {
		if line, err := br.ReadString('\n'); err != nil || line != want {
			t.Fatalf("streamed line %q (%v), want %q", line, err, want)
		}
	}
	close(release)
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(rest), "\r\n"); n != 2000 {
		t.Errorf("%d rows after the release, want 2000", n)
	}
}

// TestWireBytes: the bytes that went out, compressed, are recorded for the
// access line; the handler's own count stays the uncompressed size.
func TestWireBytes(t *testing.T) {
	var wire, size int64
	e := echo.New()
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			err := next(c)
			wire, size = WireBytes(c), c.Response().Size
			return err
		}
	}, Middleware(Config{}))
	e.GET("/page", func(c echo.Context) error { return c.HTML(http.StatusOK, page) })
	s := httptest.NewServer(e)
	defer s.Close()
	_, b := fetch(t, http.MethodGet, s.URL+"/page", "gzip")
	if wire != int64(len(b)) || size != int64(len(page)) {
		t.Errorf("wire %d (sent %d), size %d (page %d)", wire, len(b), size, len(page))
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"":                    false,
		"gzip":                true,
		"GZIP":                true,
		"deflate, gzip;q=0.5": true,
		"gzip;q=0":            false,
		"gzip; q=0.0, br":     false,
		"br, zstd":            false,
		"*":                   true,
		"*;q=0":               false,
		"gzip;q=0, *":         false,
		"identity, x-gzip":    true,
		"gzipped":             false,
	} {
		if got := AcceptsGzip(h); got != want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", h, got, want)
		}
	}
}
