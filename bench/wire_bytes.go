package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// wireFirstPage is the page of P16's first visit.
const wireFirstPage = "/nomenclature?limit=100"

// wireQuery is the search box's text after three keystrokes (P16): the
// first three letters of a kind of product the fixtures name often, or,
// where the first page names none (the smoke run's tiny copy), of its
// first product.
const wireQuery = "кро"

// searchFor picks the three letters P16 types, from the first page.
func searchFor(doc *goquery.Document) string {
	var names []string
	doc.Find("#nomenclature-table tbody tr td:nth-child(3)").Each(func(_ int, td *goquery.Selection) {
		names = append(names, strings.ToLower(strings.TrimSpace(td.Contents().First().Text())))
	})
	for _, n := range names {
		if strings.Contains(n, wireQuery) {
			return wireQuery
		}
	}
	for _, n := range names {
		if r := []rune(strings.Fields(n + " x")[0]); len(r) >= 3 {
			return string(r[:3])
		}
	}
	return wireQuery
}

// WireBytes (target P16) measures bytes on the wire, side by side in one
// run, with a client that accepts gzip and one that does not:
//
//   - a first visit to wireFirstPage with an empty cache: the page and
//     every static file it references, as a browser fetches them (body
//     bytes; the response headers are given apart);
//   - one keystroke of the copy's live search: the request htmx sends
//     (HX-Request, HX-Target copy-results), answered with the results;
//   - a static file revalidated with its ETag: a 304, no body;
//   - the server's CPU per page with compression minus without: the page
//     served in process (the dashboard's http.Handler, a recorder, no
//     socket) in interleaved rounds with Accept-Encoding gzip and without,
//     each round's process CPU time (getrusage user+sys) divided by its
//     pages; the figure is the median of the rounds' differences.
func WireBytes(s Sizes) (Result, error) {
	r := Result{ID: "P16", Target: "first visit <= 45 KB, keystroke <= 8 KB, 304 with 0 B, compression CPU <= 1 ms/page"}
	ce, err := startCopy(s.CopySmall, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	u := ce.user

	query := wireQuery
	visit := func(ae string) (page, statics, headers int, files []string, err error) {
		resp, body, err := u.raw(wireFirstPage, map[string]string{"Accept-Encoding": ae})
		if err != nil {
			return 0, 0, 0, nil, err
		}
		page, headers = len(body), headerBytes(resp)
		html, err := unpacked(resp, body)
		if err != nil {
			return 0, 0, 0, nil, err
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
		if err != nil {
			return 0, 0, 0, nil, err
		}
		query = searchFor(doc)
		var refs []string
		doc.Find("link[href], script[src], img[src]").Each(func(_ int, el *goquery.Selection) {
			for _, a := range []string{"href", "src"} {
				if v, ok := el.Attr(a); ok && strings.HasPrefix(v, "/static/") {
					refs = append(refs, v)
				}
			}
		})
		if len(refs) == 0 {
			return 0, 0, 0, nil, fmt.Errorf("%s references no static file", wireFirstPage)
		}
		for _, ref := range refs {
			resp, body, err := u.raw(ref, map[string]string{"Accept-Encoding": ae})
			if err != nil {
				return 0, 0, 0, nil, err
			}
			if resp.StatusCode != http.StatusOK {
				return 0, 0, 0, nil, fmt.Errorf("GET %s: %d", ref, resp.StatusCode)
			}
			statics += len(body)
			headers += headerBytes(resp)
			files = append(files, fmt.Sprintf("%s %d B", strings.SplitN(ref, "?", 2)[0], len(body)))
		}
		return page, statics, headers, files, nil
	}
	zPage, zStatic, zHead, zFiles, err := visit("gzip, deflate, br, zstd")
	if err != nil {
		return r, err
	}
	pPage, pStatic, pHead, _, err := visit("identity")
	if err != nil {
		return r, err
	}

	keystroke := func(ae string) (int, int, error) {
		path := wireFirstPage + "&q=" + url.QueryEscape(query)
		resp, body, err := u.raw(path, map[string]string{"Accept-Encoding": ae, "HX-Request": "true", "HX-Target": "copy-results",
			"HX-Current-URL": ce.URL + dash(wireFirstPage)})
		if err != nil {
			return 0, 0, err
		}
		html, err := unpacked(resp, body)
		if err != nil {
			return 0, 0, err
		}
		if resp.StatusCode != http.StatusOK || bytes.Contains(html, []byte("<html")) {
			return 0, 0, fmt.Errorf("keystroke: status %d, a whole page: %v", resp.StatusCode, bytes.Contains(html, []byte("<html")))
		}
		return len(body), bytes.Count(html, []byte(`data-testid="row-`)), nil
	}
	zKey, rows, err := keystroke("gzip")
	if err != nil {
		return r, err
	}
	pKey, _, err := keystroke("identity")
	if err != nil {
		return r, err
	}
	if rows == 0 {
		return r, fmt.Errorf("the search %q finds no row", query)
	}

	// A revalidation of htmx, the largest file, with the ETag it came with.
	htmx := ""
	for _, f := range zFiles {
		if strings.Contains(f, "htmx") {
			htmx = strings.Fields(f)[0]
		}
	}
	resp, _, err := u.raw(htmx, map[string]string{"Accept-Encoding": "gzip"})
	if err != nil {
		return r, err
	}
	etag := resp.Header.Get("ETag")
	resp, revalidated, err := u.raw(htmx, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag})
	if err != nil {
		return r, err
	}

	cpuZip, cpuPlain, err := compressionCPU(ce, max(2, s.CopyViews/2), max(3, s.CopyViews))
	if err != nil {
		return r, err
	}
	extra := cpuZip - cpuPlain

	first := zPage + zStatic
	r.Holds = first <= 45_000 && zKey <= 8_000 && resp.StatusCode == http.StatusNotModified && len(revalidated) == 0 && extra <= time.Millisecond
	r.Figure = fmt.Sprintf("first visit %s, keystroke %s, revalidation %d with %d B, +%s CPU/page",
		kb(first), kb(zKey), resp.StatusCode, len(revalidated), extra.Round(time.Microsecond))
	r.Detail = append(r.Detail,
		fmt.Sprintf("first visit to %s (%d records in the copy), body bytes: %d gzipped (page %d + static %d) vs %d without compression (page %d + static %d); response headers %d vs %d B more",
			wireFirstPage, ce.records, first, zPage, zStatic, pPage+pStatic, pPage, pStatic, zHead, pHead),
		"static files fetched, gzipped: "+strings.Join(zFiles, ", "),
		fmt.Sprintf("keystroke: GET %s&q=%s with HX-Request and HX-Target copy-results: %d B gzipped vs %d B plain, %d rows (the whole page it replaces: %d B gzipped, %d B plain)",
			wireFirstPage, query, zKey, pKey, rows, zPage, pPage),
		fmt.Sprintf("revalidation: GET %s with If-None-Match %s: status %d, %d body bytes", htmx, etag, resp.StatusCode, len(revalidated)),
		fmt.Sprintf("CPU per page of %s in process (getrusage user+sys over interleaved rounds, median): %s with gzip, %s without, difference %s",
			wireFirstPage, cpuZip.Round(time.Microsecond), cpuPlain.Round(time.Microsecond), extra.Round(time.Microsecond)),
	)
	return r, nil
}

// raw GETs a page of the bench seller's account (or a static path) with
// the given headers and returns the body as it came over the wire: an
// Accept-Encoding set here is not undone by the transport.
func (u *User) raw(path string, header map[string]string) (*http.Response, []byte, error) {
	target := u.e.URL + path
	if !strings.HasPrefix(path, "/static/") {
		target = u.e.URL + dash(path)
	}
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := u.Client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// unpacked is a body as its Content-Encoding says to read it.
func unpacked(resp *http.Response, body []byte) ([]byte, error) {
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// headerBytes is the size of a response's status line and headers.
func headerBytes(resp *http.Response) int {
	b, err := httputil.DumpResponse(&http.Response{Status: resp.Status, StatusCode: resp.StatusCode, Proto: resp.Proto,
		ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor, Header: resp.Header, ContentLength: resp.ContentLength, Body: http.NoBody}, false)
	if err != nil {
		return 0
	}
	return len(b)
}

func kb(n int) string { return fmt.Sprintf("%.1f KB", float64(n)/1000) }

// compressionCPU serves wireFirstPage in process, rounds times per side,
// pages each time, alternating the side that goes first, and returns the
// median CPU time per page with gzip and without.
func compressionCPU(ce *copyEnv, rounds, pages int) (zip, plain time.Duration, err error) {
	serve := func(ae string) (time.Duration, error) {
		t0 := cpuTime()
		for range pages {
			req := httptest.NewRequest(http.MethodGet, dash(wireFirstPage), nil)
			req.Header.Set("Cookie", ce.user.Cookie)
			req.Header.Set("Accept-Encoding", ae)
			rec := httptest.NewRecorder()
			ce.App.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || (ae == "gzip") != (rec.Header().Get("Content-Encoding") == "gzip") {
				return 0, fmt.Errorf("in process %s (%s): status %d, Content-Encoding %q", wireFirstPage, ae, rec.Code, rec.Header().Get("Content-Encoding"))
			}
		}
		return (cpuTime() - t0) / time.Duration(pages), nil
	}
	if _, err := serve("identity"); err != nil { // warm up both paths
		return 0, 0, err
	}
	if _, err := serve("gzip"); err != nil {
		return 0, 0, err
	}
	var zs, ps []time.Duration
	for i := range rounds {
		sides := []string{"gzip", "identity"}
		if i%2 == 1 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, ae := range sides {
			d, err := serve(ae)
			if err != nil {
				return 0, 0, err
			}
			if ae == "gzip" {
				zs = append(zs, d)
			} else {
				ps = append(ps, d)
			}
		}
	}
	return median(zs), median(ps), nil
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
