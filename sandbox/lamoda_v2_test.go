package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// v2Token issues a Seller API v2 token for c.
func v2Token(t *testing.T, s *Sandbox, c Credential) string {
	t.Helper()
	r := doReq(t, s, http.MethodPost, "/api/v2/auth-token",
		fmt.Sprintf(`{"grant_type":"client_credentials","client_id":%q,"client_secret":%q}`, c.ClientID, c.ClientSecret))
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &tok) != nil || tok.AccessToken == "" || tok.ExpiresIn != 900 {
		t.Fatalf("auth-token: %d %s", r.status, r.body)
	}
	return tok.AccessToken
}

// TestLamodaV2Strict: the v2 price path takes exactly its shapes: its own
// token, integer minor units in the country's currency, the token's
// seller as a string, at most 100 cards a write and 25 a page; anything
// else is refused before a price changes.
func TestLamodaV2Strict(t *testing.T) {
	s := New(Options{Profile: ProfileLamoda})
	c := cred1001
	tok := v2Token(t, s, c)
	parent := s.sellers[c.SellerID].products[0].parent
	want := s.sellers[c.SellerID].products[0].price - 100 // a kopeck amount the checks let through

	t.Run("token", func(t *testing.T) {
		for body, status := range map[string]int{
			`{"client_id":"` + c.ClientID + `","client_secret":"` + c.ClientSecret + `"}`:                                  400,
			`{"grant_type":"password","client_id":"` + c.ClientID + `","client_secret":"` + c.ClientSecret + `"}`:          400,
			`{"grant_type":"client_credentials","client_id":"` + c.ClientID + `","client_secret":"wrong"}`:                 401,
			`{"grant_type":"client_credentials","clientId":"` + c.ClientID + `","client_secret":"` + c.ClientSecret + `"}`: 400,
		} {
			if r := doReq(t, s, http.MethodPost, "/api/v2/auth-token", body); r.status != status {
				t.Errorf("%s: %d %s, want %d", body, r.status, r.body, status)
			}
		}
		// The v1 seller token is not the v2 token.
		v1 := lamodaSellerToken(t, s, c)
		if r := doReq(t, s, http.MethodGet, "/api/v2/nomenclatures-sell-values?sellerId=1001", "", bearer(v1)...); r.status != 401 {
			t.Errorf("v1 token on v2: %d", r.status)
		}
		if r := doReq(t, s, http.MethodGet, "/api/v2/nomenclatures-sell-values?sellerId=1001", "", bearer(tok)...); r.status != 200 {
			t.Errorf("v2 token: %d %s", r.status, r.body)
		}
	})

	t.Run("price write", func(t *testing.T) {
		item := func(amount string) string {
			return `{"parentSku":"` + parent + `","price":{"amount":` + amount + `,"currency":"RUB"}}`
		}
		many := make([]string, 101)
		for i := range many {
			many[i] = item("100000")
		}
		for name, tc := range map[string]struct {
			body   string
			status int
		}{
			"fraction":        {`{"sellerId":"1001","country":"RU","prices":[` + item("1234.5") + `]}`, 400},
			"currency":        {`{"sellerId":"1001","country":"KZ","prices":[` + item("100000") + `]}`, 400},
			"seller number":   {`{"sellerId":1001,"country":"RU","prices":[` + item("100000") + `]}`, 400},
			"no seller":       {`{"country":"RU","prices":[` + item("100000") + `]}`, 400},
			"unknown member":  {`{"sellerId":"1001","country":"RU","prices":[{"lamoda_parent_sku":"` + parent + `","price":{"amount":1,"currency":"RUB"}}]}`, 400},
			"101 cards":       {`{"sellerId":"1001","country":"RU","prices":[` + strings.Join(many, ",") + `]}`, 400},
			"another seller":  {`{"sellerId":"1002","country":"RU","prices":[` + item("100000") + `]}`, 403},
			"kopecks applied": {`{"sellerId":"1001","country":"RU","force":false,"prices":[` + item(fmt.Sprint(int64(want))) + `]}`, 200},
		} {
			r := doReq(t, s, http.MethodPost, "/api/v2/nomenclatures-prices", tc.body, bearer(tok)...)
			if r.status != tc.status {
				t.Errorf("%s: %d %s, want %d", name, r.status, short(r.body), tc.status)
			}
		}
		if p := s.sellers[c.SellerID].cards[parent][0]; p.price != want {
			t.Errorf("price after the write: %d kopecks, want %d", p.price, want)
		}
		if n := s.Counters().Requests[RouteV2SetPrices]; n != 8 {
			t.Errorf("%d v2 writes counted, want 8", n)
		}
	})

	t.Run("sell values", func(t *testing.T) {
		for _, q := range []string{"sellerId=1001&limit=26", "sellerId=1001&seller_id=1001", "limit=10"} {
			if r := doReq(t, s, http.MethodGet, "/api/v2/nomenclatures-sell-values?"+q, "", bearer(tok)...); r.status != 400 {
				t.Errorf("%s: %d, want 400", q, r.status)
			}
		}
		page := func(n int) (parents []string, totalPages int) {
			r := doReq(t, s, http.MethodGet, fmt.Sprintf("/api/v2/nomenclatures-sell-values?sellerId=1001&page=%d&limit=25", n), "", bearer(tok)...)
			var out struct {
				Nomenclatures []struct {
					ParentSKU  string `json:"parentSku"`
					SellValues []struct {
						Price struct {
							Amount   int64  `json:"amount"`
							Currency string `json:"currency"`
						} `json:"price"`
					} `json:"sellValues"`
				} `json:"nomenclatures"`
				Meta struct{ TotalPages int } `json:"meta"`
			}
			if r.status != 200 || json.Unmarshal(r.body, &out) != nil {
				t.Fatalf("page %d: %d %s", n, r.status, short(r.body))
			}
			for _, e := range out.Nomenclatures {
				if len(e.SellValues) != 1 || e.SellValues[0].Price.Currency != "RUB" || e.SellValues[0].Price.Amount <= 0 {
					t.Errorf("entry %+v", e)
				}
				parents = append(parents, e.ParentSKU)
			}
			return parents, out.Meta.TotalPages
		}
		p1, pages := page(1)
		p2, _ := page(2)
		if pages < 2 || len(p1) != 25 || len(p2) == 0 || p2[0] != p1[len(p1)-1] {
			t.Errorf("page 2 does not repeat page 1's last card: %v … / %v …", p1[len(p1)-1], p2)
		}
	})

	t.Run("not in the contract profile", func(t *testing.T) {
		cs := New(Options{})
		if r := doReq(t, cs, http.MethodPost, "/api/v2/auth-token", `{}`); r.status != 404 {
			t.Errorf("contract profile: %d, want 404", r.status)
		}
	})
}
