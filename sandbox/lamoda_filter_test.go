package sandbox

import (
	"encoding/json"
	"testing"
)

// TestLamodaFilterWrites: the filtered writes select by the seller's SKU
// under supplierSku and sellerSku; any other key is ignored and selects
// every product, as the danger is described; the counters say what was
// written.
func TestLamodaFilterWrites(t *testing.T) {
	s := New(Options{Profile: ProfileLamoda})
	tok := lamodaSellerToken(t, s, cred1001)
	prods := s.Products(1001)
	a, b := prods[0].SellerSKU, prods[1].SellerSKU
	in := func(key string, v ...string) []map[string]any {
		return []map[string]any{{"key": key, "operator": "IN", "value": v}}
	}
	list := func(filter any) (total int, skus []string) {
		r := lamodaRPC(t, s, tok, "v1.nomenclatures.list", map[string]any{"country": "RU", "filter": filter, "limit": 100})
		var env struct {
			Result struct {
				Total         int
				Nomenclatures []struct {
					Nomenclature struct {
						SellerSku string
						Quantity  int
						Status    string
					}
				}
			}
		}
		if err := json.Unmarshal(r.body, &env); err != nil {
			t.Fatalf("list: %s", r.body)
		}
		for _, n := range env.Result.Nomenclatures {
			skus = append(skus, n.Nomenclature.SellerSku)
		}
		return env.Result.Total, skus
	}

	if total, skus := list(in("supplierSku", a, b, "NO-SUCH")); total != 2 || len(skus) != 2 {
		t.Errorf("list IN supplierSku: total %d %v; want the two", total, skus)
	}
	if total, _ := list([]map[string]any{{"key": "sellerSku", "operator": "EQ", "value": []string{a}}}); total != 1 {
		t.Errorf("list EQ sellerSku: total %d; want 1", total)
	}
	if total, _ := list(in("article", a)); total != len(prods) {
		t.Errorf("list with an unknown key: total %d; want every product (%d)", total, len(prods))
	}

	s.ResetCounters()
	r := lamodaRPC(t, s, tok, "v1.nomenclatures.update-stock", map[string]any{"filter": in("supplierSku", a, b), "stock": 7})
	if string(r.body) == "" || s.Counters().Written[WrittenStock] != 2 {
		t.Fatalf("update-stock: %s, written %v", r.body, s.Counters().Written)
	}
	if _, skus := list(in("supplierSku", a)); len(skus) != 1 {
		t.Fatal("list after the write")
	}
	r = lamodaRPC(t, s, tok, "v1.nomenclatures.update-stock", map[string]any{"filter": in("article", a), "stock": 7})
	if got := s.Counters().Written[WrittenStock]; got != 2+len(prods) {
		t.Errorf("an unknown key wrote %d products; want every one (%d): %s", got-2, len(prods), r.body)
	}
	r = lamodaRPC(t, s, tok, "v1.nomenclatures.update-stock", map[string]any{"filter": in("supplierSku", a), "stock": lamodaMaxStock + 1})
	var res struct {
		Result struct {
			Errors []struct {
				Code      int
				LamodaSku string
				Messages  []string
			}
		}
	}
	if err := json.Unmarshal(r.body, &res); err != nil || len(res.Result.Errors) != 1 || res.Result.Errors[0].LamodaSku != prods[0].MarketplaceSKU || len(res.Result.Errors[0].Messages) == 0 {
		t.Errorf("a refused stock: %s", r.body)
	}

	t.Run("activation needs the country and follows moderation", func(t *testing.T) {
		r := lamodaRPC(t, s, tok, "v1.nomenclatures.update-activation", map[string]any{"filter": in("supplierSku", a), "active": false})
		if code, data := rpcErrorOf(t, r); code != codeInvalidParams || data["param"] != "country" {
			t.Errorf("no country: %d %v", code, data)
		}
		before := s.Counters().Written[WrittenActivation]
		r = lamodaRPC(t, s, tok, "v1.nomenclatures.update-activation", map[string]any{"country": "RU", "filter": in("supplierSku", a, b), "active": false})
		if got := s.Counters().Written[WrittenActivation] - before; got != 2 {
			t.Errorf("deactivated %d: %s", got, r.body)
		}
	})
	t.Run("a malformed filter is refused", func(t *testing.T) {
		for _, f := range []any{"x", []any{map[string]any{"key": "supplierSku", "operator": "IN"}}, []any{map[string]any{"key": "supplierSku", "operator": "CONTAINS", "value": []string{a}}}} {
			r := lamodaRPC(t, s, tok, "v1.nomenclatures.update-stock", map[string]any{"filter": f, "stock": 1})
			if code, _ := rpcErrorOf(t, r); code != codeInvalidParams {
				t.Errorf("%v: code %d", f, code)
			}
		}
	})
}

// TestLamodaCardsAreOneProduct: in the lamoda profile a card's sizes are
// sizes of one product (one name and brand, distinct sizes), and most
// cards have one price for all their sizes.
func TestLamodaCardsAreOneProduct(t *testing.T) {
	byCard := map[string][]Product{}
	for _, p := range New(Options{Profile: ProfileLamoda}).Products(1002) {
		byCard[p.ParentSKU] = append(byCard[p.ParentSKU], p)
	}
	samePrice := 0
	for parent, sizes := range byCard {
		seen := map[string]bool{}
		same := true
		for _, s := range sizes {
			if s.Name != sizes[0].Name || s.Brand != sizes[0].Brand || seen[s.Size] {
				t.Fatalf("card %s mixes products or repeats a size: %+v", parent, sizes)
			}
			seen[s.Size] = true
			same = same && s.Price == sizes[0].Price
		}
		if same {
			samePrice++
		}
	}
	if samePrice*10 < len(byCard)*8 || samePrice == len(byCard) {
		t.Errorf("%d of %d cards at one price; want most, not all", samePrice, len(byCard))
	}
}
