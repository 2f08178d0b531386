package handlers_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/demo"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// rawPost sends a form post over a bare connection with the browser's
// cookies, writing the body through send, and returns the status line's
// code and the Connection it read. The body is announced with the given
// Content-Length (or chunked when length < 0).
func rawPost(t *testing.T, app *testapp.App, b *testapp.Browser, path string, length int, send func(w *bufio.Writer) error) *http.Response {
	t.Helper()
	u, _ := url.Parse(app.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nOrigin: %s\r\n", path, u.Host, app.URL)
	for _, c := range b.Client.Jar.Cookies(u) {
		fmt.Fprintf(w, "Cookie: %s=%s\r\n", c.Name, c.Value)
	}
	if length >= 0 {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", length)
	} else {
		fmt.Fprintf(w, "Transfer-Encoding: chunked\r\n\r\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = send(w)
		_ = w.Flush()
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func bodyText(t *testing.T, r *http.Response) string {
	t.Helper()
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	return string(b)
}

// TestClientBodyErrorsAreTheClients: a request body that arrives too
// slowly, breaks off or is too large is the client's problem, answered
// 408, 400 or 413, never blamed on the marketplace (504/502) or logged as a
// server error; and a body that is slow but complete does not eat the
// marketplace's time budget.
func TestClientBodyErrorsAreTheClients(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{BodyReadTimeout: 300 * time.Millisecond})
	b := app.Browser(t)
	b.LoginDemo()
	form := "price.X=1"

	t.Run("too slow", func(t *testing.T) {
		r := rawPost(t, app, b, "/prices", 1000, func(w *bufio.Writer) error {
			for range 600 { // a byte every 100 ms: a minute, far past the read timeout
				if _, err := w.WriteString("a"); err != nil {
					return err
				}
				if err := w.Flush(); err != nil {
					return err
				}
				time.Sleep(100 * time.Millisecond)
			}
			return nil
		})
		if text := bodyText(t, r); r.StatusCode != http.StatusRequestTimeout || blamesMarketplace(text) {
			t.Errorf("status %d, want 408 without blaming the marketplace:\n%s", r.StatusCode, excerpt(text))
		}
	})
	// The other cases are recognised by what arrives, so they run with the
	// default body deadline: a loaded machine must not turn them into 408.
	slowApp := app
	app = testapp.New(t, testapp.Options{})
	b = app.Browser(t)
	b.LoginDemo()
	t.Run("broken off", func(t *testing.T) {
		r := rawPost(t, app, b, "/prices", 1000, func(w *bufio.Writer) error {
			_, err := w.WriteString(form) // then the client half-closes: 991 bytes never come
			return err
		})
		if text := bodyText(t, r); r.StatusCode != http.StatusBadRequest || blamesMarketplace(text) {
			t.Errorf("status %d, want 400 without blaming the marketplace:\n%s", r.StatusCode, excerpt(text))
		}
	})
	t.Run("chunked over the limit", func(t *testing.T) {
		r := rawPost(t, app, b, "/prices", -1, func(w *bufio.Writer) error {
			chunk := strings.Repeat("a", 1<<20)
			for range 12 { // 12 MB against the 8 MB limit
				if _, err := fmt.Fprintf(w, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
					return err
				}
			}
			_, err := w.WriteString("0\r\n\r\n")
			return err
		})
		if r.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("status %d, want 413", r.StatusCode)
		}
	})
	t.Run("slow but complete", func(t *testing.T) {
		// The body takes longer than the upstream budget to arrive (but
		// less than the body's own timeout): the budget starts when it is
		// in, so the prices page still answers.
		// The budget is generous, so a busy machine serving the page after
		// the body is in never turns it into a 503; the body takes longer
		// still, so a budget started before it would have run out.
		app := testapp.New(t, testapp.Options{UpstreamTimeout: 5 * time.Second})
		b := app.Browser(t)
		b.LoginDemo()
		body := "return=%2Fprices"
		r := rawPost(t, app, b, "/prices", len(body), func(w *bufio.Writer) error {
			for i := range len(body) {
				if err := w.WriteByte(body[i]); err != nil {
					return err
				}
				if err := w.Flush(); err != nil {
					return err
				}
				time.Sleep(400 * time.Millisecond) // 6.4 s in all, past the 5 s budget
			}
			return nil
		})
		if text := bodyText(t, r); r.StatusCode >= 400 {
			t.Errorf("status %d, want the prices page:\n%s", r.StatusCode, excerpt(text))
		}
	})
	for _, line := range strings.Split(slowApp.Logs.String()+app.Logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") {
			t.Errorf("a client's body problem was logged as an error: %s", excerpt(line))
		}
	}
}

// TestBusyPagesCarryRetryAfter: 429 and 503 pages say when to come back
// in the header too, for clients and proxies that do not read the page.
func TestBusyPagesCarryRetryAfter(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{PageRetryBudget: time.Millisecond})
	b := app.Browser(t)
	b.LoginDemo()
	for _, kind := range []sandbox.FaultKind{sandbox.FaultRateLimit, sandbox.FaultUnavailable} {
		app.Sandbox.ClearFaults()
		app.Sandbox.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: kind, Times: -1})
		p := b.Get("/return-boxes")
		if p.Status != http.StatusTooManyRequests && p.Status != http.StatusServiceUnavailable {
			t.Fatalf("%s: status %d", kind, p.Status)
		}
		if s, err := strconv.Atoi(p.Header.Get("Retry-After")); err != nil || s < 1 {
			t.Errorf("%s: %d page with Retry-After %q", kind, p.Status, p.Header.Get("Retry-After"))
		}
	}
}

// TestLogoutOneCookie: logging out sends exactly one Set-Cookie, the one
// that deletes the session cookie.
func TestLogoutOneCookie(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Post("/logout", url.Values{})
	lines := p.Header.Values("Set-Cookie")
	if len(lines) != 1 {
		t.Fatalf("logout sent %d Set-Cookie lines: %q", len(lines), lines)
	}
	if c, err := http.ParseSetCookie(lines[0]); err != nil || c.MaxAge >= 0 {
		t.Errorf("the cookie is not deleted: %q", lines[0])
	}
}

// TestLoginServiceFailureIsNotRejection: a token endpoint that answers 405
// or a 5xx has not judged the credentials; the login form says the
// marketplace's login failed, not that the credentials were rejected, and
// the attempt does not count as a wrong guess.
func TestLoginServiceFailureIsNotRejection(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status int
		json   bool
	}{{http.StatusMethodNotAllowed, true}, {http.StatusMethodNotAllowed, false}, {http.StatusInternalServerError, true}, {http.StatusBadGateway, false}} {
		status := tt.status
		t.Run(fmt.Sprint(status, map[bool]string{true: "-json", false: "-html"}[tt.json]), func(t *testing.T) {
			sb := sandbox.New(sandbox.Options{})
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/auth/token") {
					if tt.json { // the B2B error shape
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(status)
						fmt.Fprintf(w, `{"code":%d,"description":"%s","errors":[]}`, status, http.StatusText(status))
						return
					}
					w.Header().Set("Content-Type", "text/html")
					w.WriteHeader(status)
					fmt.Fprintf(w, "<html><body>%d</body></html>", status)
					return
				}
				sb.ServeHTTP(w, r)
			}))
			defer front.Close()
			mp := &demo.Marketplace{Sandbox: sb, B2BURL: front.URL, B2BTestURL: front.URL + "/test", SellerURL: front.URL}
			app := testapp.New(t, testapp.Options{Market: mp, PageRetryBudget: time.Millisecond})
			b := app.Browser(t)
			for range 12 { // more than the per-client lockout (10)
				p := b.Post("/login", url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"production"}})
				msg := p.Text("[data-testid=login-error]") + p.Text("[data-testid=error]")
				if p.Status == http.StatusTooManyRequests {
					t.Fatalf("the marketplace's failures were counted as wrong guesses: %q", msg)
				}
				if p.Status < 500 || strings.Contains(msg, "rejected these credentials") || !strings.Contains(msg, "login") {
					t.Fatalf("token endpoint %d: login answered %d %q; want a 5xx saying the marketplace's login failed", status, p.Status, msg)
				}
			}
		})
	}
}

// blamesMarketplace tells whether an answer puts a problem on the
// marketplace.
func blamesMarketplace(text string) bool {
	for _, s := range []string{"marketplace is slow", "answer from the marketplace", "marketplace answered", "marketplace is busy"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

func excerpt(s string) string {
	if len(s) > 800 {
		return s[:800] + "…"
	}
	return s
}
