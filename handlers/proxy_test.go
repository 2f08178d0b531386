package handlers_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
)

// loginCookie logs in with the given extra headers and returns the session
// cookie's Set-Cookie line.
func loginCookie(t *testing.T, app *testapp.App, hdr http.Header) string {
	t.Helper()
	form := url.Values{"client_id": {"demo-1001"}, "client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"test"}}
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp, err := app.Browser(t).Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	for _, c := range resp.Header.Values("Set-Cookie") {
		if strings.HasPrefix(c, "sd_session=") {
			return c
		}
	}
	t.Fatal("no session cookie")
	return ""
}

// X-Forwarded-Proto marks cookies Secure only when a trusted proxy sent it.
func TestForwardedProtoOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	https := http.Header{"X-Forwarded-Proto": {"https"}}
	untrusted := testapp.New(t, testapp.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.9.9.9/32")}})
	if c := loginCookie(t, untrusted, https); strings.Contains(c, "Secure") {
		t.Errorf("a client's own X-Forwarded-Proto made the cookie Secure: %s", c)
	}
	trusted := testapp.New(t, testapp.Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	if c := loginCookie(t, trusted, https); !strings.Contains(c, "Secure") {
		t.Errorf("the trusted proxy's X-Forwarded-Proto was ignored: %s", c)
	}
	if c := loginCookie(t, trusted, nil); strings.Contains(c, "Secure") {
		t.Errorf("plain HTTP without the header got a Secure cookie: %s", c)
	}
}
