//go:build linux || darwin

package scaleout

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// stalledExport starts GET path on app with b's cookies on a connection of
// its own whose buffers are small, and reads the answer's status line and
// headers, never its body: a client that takes nothing more, so that the
// server's writes soon block and the export stays running.
func stalledExport(t *testing.T, app *testapp.App, b *testapp.Browser, path string) (*http.Response, net.Conn) {
	t.Helper()
	path = b.InAccount(path)
	u, _ := url.Parse(app.URL)
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = errors.Join(syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10),
				syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_MAXSEG, 536))
		})
		return errors.Join(err, serr)
	}}
	conn, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var cookies []string
	for _, c := range b.Client.Jar.Cookies(u) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nAccept-Language: en\r\n\r\n", path, u.Host, strings.Join(cookies, "; "))
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 512), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp, conn
}

// TestExportPlacePerCopyAcrossInstances: the one whole-catalogue export a
// copy may run at once is held in the database. While a client that reads
// nothing keeps an export of the copy running on instance A, the same
// export on instance B is refused with 429 and Retry-After; once that
// client goes, B exports.
func TestExportPlacePerCopyAcrossInstances(t *testing.T) {
	t.Parallel()
	p := sharedPair(t, testapp.Options{Catalog: true, Sandbox: sandbox.Options{ProductsPerSeller: 1500}})
	a := p.A.Browser(t)
	a.LoginDemo()
	k := copystore.Key{SellerID: 1001, Env: "test"}
	if !waitFor(3*time.Minute, func() bool {
		st, err := p.A.Catalog.Store().SyncStates(context.Background(), k)
		if err != nil {
			return false
		}
		for _, kind := range copystore.Kinds {
			if st[kind].Running || !st[kind].Complete() {
				return false
			}
		}
		return !p.A.Catalog.Running(k)
	}) {
		t.Fatal("no full copy in 3 min")
	}
	b := on(t, a, p.A, p.B)

	first, conn := stalledExport(t, p.A, a, "/nomenclature/export-all.csv")
	if first.StatusCode != http.StatusOK {
		t.Fatalf("export on A: %d", first.StatusCode)
	}
	second := b.Get("/nomenclature/export-all.csv")
	if second.Status != http.StatusTooManyRequests {
		t.Fatalf("the same copy's export on B while A's runs: %d, want 429", second.Status)
	}
	if second.Header.Get("Retry-After") == "" {
		t.Error("the refusal has no Retry-After")
	}
	conn.Close()
	if !waitFor(time.Minute, func() bool { return b.Get("/nomenclature/export-all.csv").Status == http.StatusOK }) {
		t.Error("B's export still refused after A's client went")
	}
}
