package handlers_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/static"
)

// rawGet sends GET path (in b's account) with b's cookies and the given
// headers and returns the answer's bytes as they came over the wire: an
// Accept-Encoding set here is not undone by the transport.
func rawGet(t *testing.T, app *testapp.App, b *testapp.Browser, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, app.URL+b.InAccount(path), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", "en")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, raw
}

func gunzipped(t *testing.T, what string, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not gzip: %v", what, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: broken gzip: %v", what, err)
	}
	return out
}

// TestPagesCompressed: a page is gzipped for a client that accepts it and
// varies on Accept-Encoding, and it unpacks to the page a client without
// gzip gets; a static file arrives compressed once, never twice; health
// and readiness are left alone.
func TestPagesCompressed(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 40}, Catalog: true})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)

	resp, zipped := rawGet(t, app, b, "/nomenclature?limit=100", map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("page: status %d, Content-Encoding %q; want 200, gzip", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	if v := strings.Join(resp.Header.Values("Vary"), ", "); !strings.Contains(v, "Accept-Encoding") {
		t.Errorf("page: Vary %q", v)
	}
	_, plain := rawGet(t, app, b, "/nomenclature?limit=100", map[string]string{"Accept-Encoding": "identity"})
	page := gunzipped(t, "page", zipped)
	if !bytes.Contains(page, []byte(`id="nomenclature-table"`)) || len(zipped)*3 > len(plain) {
		t.Errorf("page: %d bytes compressed for %d plain; want the table, and a third at most", len(zipped), len(plain))
	}

	// The static package compresses its own files: the router must not
	// compress them again.
	resp, js := rawGet(t, app, b, static.Path(static.HTMX), map[string]string{"Accept-Encoding": "gzip"})
	if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.HasPrefix(gunzipped(t, "htmx", js), []byte("var htmx")) {
		t.Errorf("htmx: Content-Encoding %q, %d bytes; want gzip once", resp.Header.Get("Content-Encoding"), len(js))
	}
	etag := resp.Header.Get("ETag")
	resp, again := rawGet(t, app, b, static.Path(static.HTMX), map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	if resp.StatusCode != http.StatusNotModified || len(again) != 0 {
		t.Errorf("htmx revalidated: status %d, %d bytes; want 304 and none", resp.StatusCode, len(again))
	}

	for _, p := range []string{"/healthz", "/readyz"} {
		req, _ := http.NewRequest(http.MethodGet, app.URL+p, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Vary") != "" || resp.StatusCode != http.StatusOK || len(body) > 16 {
			t.Errorf("%s: Content-Encoding %q, Vary %q, body %q; want it untouched", p, resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), body)
		}
	}
}

// TestDownloadsCompressed: the whole-catalogue CSV, streamed, arrives
// complete and unpacks to the same CSV a client without gzip gets; the
// XLSX downloads (compressed already) never are.
func TestDownloadsCompressed(t *testing.T) {
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 60}, Catalog: true, Jobs: &bulkjobs.RunnerOptions{}})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)

	resp, zipped := rawGet(t, app, b, "/nomenclature/export-all.csv", map[string]string{"Accept-Encoding": "gzip"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("export-all.csv: status %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	_, plain := rawGet(t, app, b, "/nomenclature/export-all.csv", nil)
	got := gunzipped(t, "export-all.csv", zipped)
	if !bytes.Equal(got, plain) || bytes.Count(plain, []byte("\n")) != 60*3+1 {
		t.Errorf("export-all.csv: %d lines unpacked, %d plain (want %d); equal: %v", bytes.Count(got, []byte("\n")), bytes.Count(plain, []byte("\n")), 60*3+1, bytes.Equal(got, plain))
	}

	for _, p := range []string{"/nomenclature/export-all.xlsx", "/nomenclature/export.xlsx?limit=100", "/prices/export.xlsx?limit=100"} {
		resp, body := rawGet(t, app, b, p, map[string]string{"Accept-Encoding": "gzip"})
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" || !bytes.HasPrefix(body, []byte("PK")) {
			t.Errorf("%s: status %d, Content-Encoding %q; want the XLSX as it is", p, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
	}
}

func parse(t *testing.T, b []byte) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// rowKeys names rows by their data-testid, else their text.
func rowKeys(s *goquery.Selection) []string {
	var out []string
	s.Each(func(_ int, r *goquery.Selection) {
		k := r.AttrOr("data-testid", "")
		if k == "" {
			k = strings.Join(strings.Fields(r.Text()), " ")
		}
		out = append(out, k)
	})
	return out
}
