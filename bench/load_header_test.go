package bench

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// TestLoadReadsCompressed holds the copy loads (P10, P10b, P10m) to a
// browser's bargain: the dashboard is asked for gzip and compresses, and
// the load generator reads the compressed bytes as they came, without
// decompressing them on the cores it shares with the dashboard.
func TestLoadReadsCompressed(t *testing.T) {
	ce, err := startCopy(Smoke.CopyLarge, "")
	if err != nil {
		t.Fatal(err)
	}
	defer ce.Close()
	u, err := ce.Login()
	if err != nil {
		t.Fatal(err)
	}
	target := vegeta.Target{Method: http.MethodGet, URL: ce.URL + dash(loadPages[2]), Header: loadHeader(u.Cookie)}
	a := vegeta.NewAttacker(vegeta.Workers(1), vegeta.MaxWorkers(1), vegeta.KeepAlive(true), vegeta.Timeout(30*time.Second))
	var got []*vegeta.Result
	for res := range a.Attack(vegeta.NewStaticTargeter(target), vegeta.Rate{Freq: 1, Per: time.Second}, time.Second, "one") {
		got = append(got, res)
	}
	if len(got) == 0 {
		t.Fatal("no answer")
	}
	res := got[0]
	if res.Code != http.StatusOK {
		t.Fatalf("status %d (%s)", res.Code, res.Error)
	}
	if enc := res.Headers.Get("Content-Encoding"); enc != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", enc)
	}
	if !bytes.HasPrefix(res.Body, []byte{0x1f, 0x8b}) {
		t.Fatalf("the load read %q..., not the gzipped bytes", res.Body[:min(16, len(res.Body))])
	}
	zr, err := gzip.NewReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(zr)
	if err != nil || !bytes.Contains(page, []byte("</html>")) {
		t.Fatalf("not a page once decompressed (%v): %d bytes", err, len(page))
	}

	// The static side's file is the same page as it went on the wire.
	st, wire, err := rawGet(u, loadPages[2])
	if err != nil || st != http.StatusOK || !bytes.HasPrefix(wire, []byte{0x1f, 0x8b}) {
		t.Fatalf("rawGet: %d, %v, %d bytes", st, err, len(wire))
	}
}
