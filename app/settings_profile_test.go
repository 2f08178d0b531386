package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestLoadConfigProfile: SELLERDESK_API_PROFILE chooses the wire profile
// (contract by default), SELLERDESK_COUNTRY the lamoda profile's country
// (RU by default); anything else is refused at start, naming the variable.
func TestLoadConfigProfile(t *testing.T) {
	c, err := LoadSettings(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIProfile != apiclient.ProfileContract || c.Country != "RU" {
		t.Errorf("defaults: profile %q, country %q; want contract, RU", c.APIProfile, c.Country)
	}
	c, err = LoadSettings(env(map[string]string{"SELLERDESK_API_PROFILE": " Lamoda ", "SELLERDESK_COUNTRY": "kz"}))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := LoadSettings(env(map[string]string{"SELLERDESK_LAMODA_FILTER_KEY": "sellerSku"})); err != nil || c.LamodaFilterKey != "sellerSku" {
		t.Errorf("filter key: %q, %v", c.LamodaFilterKey, err)
	} else if got := c.Config(slog.New(slog.DiscardHandler)).MassUpdate.FilterKey; got != "sellerSku" {
		t.Errorf("the filter key reaches the engine as %q", got)
	}
	if c.LamodaPriceAPI != "" {
		t.Errorf("price API %q by default, want the client's default (v1)", c.LamodaPriceAPI)
	}
	if c, err := LoadSettings(env(map[string]string{"SELLERDESK_API_PROFILE": "lamoda", "SELLERDESK_LAMODA_PRICE_API": "V2"})); err != nil || c.LamodaPriceAPI != apiclient.PriceAPIV2 {
		t.Errorf("price API v2: %q, %v", c.LamodaPriceAPI, err)
	} else if got := c.Config(slog.New(slog.DiscardHandler)).PriceAPI; got != apiclient.PriceAPIV2 {
		t.Errorf("the price API reaches the client as %q", got)
	}
	if c.APIProfile != apiclient.ProfileLamoda || c.Country != "KZ" {
		t.Errorf("lamoda, kz: profile %q, country %q", c.APIProfile, c.Country)
	}
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SELLERDESK_API_PROFILE": "ozon"}, "SELLERDESK_API_PROFILE: want contract"},
		{map[string]string{"SELLERDESK_COUNTRY": "DE"}, "SELLERDESK_COUNTRY: want one of RU, BY, KZ, UA"},
		{map[string]string{"SELLERDESK_LAMODA_FILTER_KEY": "supplier sku"}, "SELLERDESK_LAMODA_FILTER_KEY: want a field name"},
		{map[string]string{"SELLERDESK_LAMODA_PRICE_API": "v3"}, "SELLERDESK_LAMODA_PRICE_API: want v1"},
		{map[string]string{"SELLERDESK_LAMODA_PRICE_API": "v2"}, "SELLERDESK_LAMODA_PRICE_API: v2 is the lamoda profile's"},
	} {
		if _, err := LoadSettings(env(tt.env)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want it to say %q", tt.env, err, tt.want)
		}
	}
}

// TestServeDemoLamoda: SELLERDESK_API_PROFILE=lamoda in demo mode starts a
// sandbox of the same profile; a demo login works and the prices page
// lists product cards, as a newcomer would see it.
func TestServeDemoLamoda(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, env(map[string]string{"SELLERDESK_ADDR": "127.0.0.1:0", "SELLERDESK_DATABASE_URL": filepath.Join(dir, "s.db"),
			"SELLERDESK_API_PROFILE": "lamoda"}), &syncBuffer{}, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("not ready")
	}
	base := "http://" + addr
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 20 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, base+"/login", strings.NewReader(url.Values{"client_id": {"demo-1001"},
		"client_secret": {"sandbox-secret-1001"}, "seller_id": {"1001"}, "environment": {"test"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/a/") { // the account's overview
		t.Fatalf("demo login: %d at %s", resp.StatusCode, resp.Request.URL.Path)
	}
	for path, want := range map[string]string{"/prices": `data-testid="by-card"`, "/nomenclature": `id="nomenclature-form"`, "/orders": `id="orders-table"`} {
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("%s: %d, %s present %t", path, resp.StatusCode, want, strings.Contains(string(body), want))
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no shutdown")
	}
}
