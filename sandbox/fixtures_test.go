package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

func TestFixtures(t *testing.T) {
	s := New(Options{})
	skus := map[string]bool{}
	for _, id := range sellerIDs {
		t.Run(itoa(id), func(t *testing.T) {
			orders := s.OrderNumbers(id, "")
			if len(orders) < 250 {
				t.Errorf("%d orders", len(orders))
			}
			for _, st := range orderStatuses {
				if len(s.OrderNumbers(id, st)) == 0 {
					t.Errorf("no %s orders", st)
				}
			}
			products := s.Products(id)
			if n := len(products) * len(s.Warehouses(id)); n != 600 {
				t.Errorf("%d nomenclature records", n)
			}
			if len(s.ReturnBoxCodes(id)) != 60 {
				t.Errorf("%d boxes", len(s.ReturnBoxCodes(id)))
			}
			var cyr, lat, amp, quote, angle, long, noBrand, noSize bool
			barcodes := map[string]bool{}
			for _, p := range products {
				if skus[p.MarketplaceSKU] || barcodes[p.Barcode] {
					t.Fatalf("duplicate SKU or barcode %+v", p)
				}
				skus[p.MarketplaceSKU], barcodes[p.Barcode] = true, true
				if len(p.Barcode) != 13 || !validEAN13(p.Barcode) {
					t.Errorf("bad EAN-13 %q", p.Barcode)
				}
				if p.SalePrice > p.Price || p.Price <= 0 {
					t.Errorf("bad prices %+v", p)
				}
				all := p.Name + p.Brand
				for _, r := range all {
					cyr = cyr || unicode.Is(unicode.Cyrillic, r)
					lat = lat || unicode.Is(unicode.Latin, r)
				}
				amp = amp || strings.Contains(all, "&")
				quote = quote || strings.ContainsAny(all, `"'`)
				angle = angle || strings.Contains(all, "<")
				long = long || len([]rune(p.Name)) > 200
				noBrand = noBrand || p.Brand == ""
				noSize = noSize || p.Size == ""
			}
			if !(cyr && lat && amp && quote && angle && long && noBrand && noSize) {
				t.Errorf("awkwardness missing: cyr=%v lat=%v amp=%v quote=%v angle=%v long=%v noBrand=%v noSize=%v",
					cyr, lat, amp, quote, angle, long, noBrand, noSize)
			}
		})
	}
}

func validEAN13(code string) bool {
	sum := 0
	for i, c := range code[:12] {
		d := int(c - '0')
		if i%2 == 1 {
			d *= 3
		}
		sum += d
	}
	return int(code[12]-'0') == (10-sum%10)%10
}

// TestDeterminism checks that the same seed gives the same answers, byte for
// byte, and another seed different ones.
func TestDeterminism(t *testing.T) {
	answers := func(seed int64) [][]byte {
		s := New(Options{Seed: seed})
		b2b := b2bToken(t, s, "", cred1001)
		seller := sellerToken(t, s, cred1001)
		var out [][]byte
		out = append(out, []byte(b2b), []byte(seller))
		out = append(out, doReq(t, s, http.MethodGet, "/api/v1/orders?limit=100&page=2", "", bearer(b2b)...).body)
		out = append(out, rpc(t, s, seller, "v1.nomenclatures.list", map[string]any{"seller_id": 1001, "limit": 100}).body)
		out = append(out, doReq(t, s, http.MethodGet, "/api/v2/fbs/return-boxes?seller_id=1001&limit=100", "", bearer(seller)...).body)
		out = append(out, doReq(t, s, http.MethodPost, "/api/v1/notifications/resend", `{"orderNrs":["`+s.OrderNumbers(1001, "")[0]+`"]}`, bearer(b2b)...).body)
		return out
	}
	a, b, c := answers(1), answers(1), answers(2)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("answer %d differs between two runs with seed 1", i)
		}
		if bytes.Equal(a[i], c[i]) {
			t.Errorf("answer %d is the same for seeds 1 and 2", i)
		}
	}
	if diff := cmp.Diff(New(Options{Seed: 0}).Products(1002), New(Options{Seed: DefaultSeed}).Products(1002)); diff != "" {
		t.Errorf("seed 0 should mean the default seed:\n%s", diff)
	}
}

func TestHostileFixtures(t *testing.T) {
	plain := New(Options{})
	hostile := New(Options{Hostile: true})
	hp := hostile.Products(1001)
	pp := plain.Products(1001)
	extra := len(hp) - len(pp)
	if extra <= 0 {
		t.Fatalf("no hostile products")
	}
	if diff := cmp.Diff(pp, hp[extra:]); diff != "" {
		t.Errorf("regular data changed by Options.Hostile:\n%s", diff)
	}
	var joined strings.Builder
	var big bool
	for _, p := range hp[:extra] {
		joined.WriteString(p.Name + " " + p.Brand + " ")
		big = big || len(p.Name) >= 100*1024
	}
	for _, want := range []string{"<script>", "onerror=", "javascript:", "\x00", "\x1b", "\u202e"} {
		if !strings.Contains(joined.String(), want) {
			t.Errorf("hostile data lacks %q", want)
		}
	}
	if !big {
		t.Error("no 100 KB name")
	}
	for _, id := range []int64{1002, 1003} {
		if diff := cmp.Diff(plain.Products(id), hostile.Products(id)); diff != "" {
			t.Errorf("seller %d changed by Options.Hostile", id)
		}
	}
	// The hostile records travel through every list as valid JSON.
	tok := sellerToken(t, hostile, cred1001)
	r := rpc(t, hostile, tok, "v1.nomenclatures.list", map[string]any{"seller_id": 1001, "limit": 50})
	var l struct {
		Result nomList `json:"result"`
	}
	if err := json.Unmarshal(r.body, &l); err != nil || l.Result.Total != 600+3*extra || !strings.Contains(l.Result.Nomenclatures[0].Name, "<script>") {
		t.Fatalf("err=%v total=%d", err, l.Result.Total)
	}
	b2b := b2bToken(t, hostile, "", cred1001)
	orders := doReq(t, hostile, http.MethodGet, "/api/v1/orders?limit=10", "", bearer(b2b)...)
	if orders.status != 200 || !bytes.Contains(orders.body, []byte("<script>")) {
		t.Fatalf("hostile orders: %d", orders.status)
	}
}
