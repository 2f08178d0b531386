package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// pagedOrders serves 3 pages of 2 orders; failPage answers 500 on that page.
func pagedOrders(requests *atomic.Int64, failPage int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page == failPage {
			writeJSON(w, 500, `{"code":0,"description":"internal error","errors":[]}`)
			return
		}
		var orders []string
		for i := range 2 {
			orders = append(orders, fmt.Sprintf(`{"id":%d,"orderNr":"RU-%d-%d","fullSum":"1234.00"}`, page*10+i, page, i))
		}
		writeJSON(w, 200, fmt.Sprintf(`{"page":%d,"limit":2,"pages":3,"total":6,"_embedded":{"orders":[%s]}}`, page, strings.Join(orders, ",")))
	}
}

func TestAllOrders(t *testing.T) {
	ctx := context.Background()
	t.Run("all pages", func(t *testing.T) {
		var requests atomic.Int64
		m := newMarket()
		m.b2b = pagedOrders(&requests, 0)
		acct, _ := serve(t, m)
		var ids []apiclient.OrderID
		for o, err := range acct.B2B.AllOrders(ctx, &apiclient.ListOrdersOptions{Limit: 2}) {
			if err != nil {
				t.Fatal(err)
			}
			if o.FullSum != 123400 {
				t.Errorf("FullSum = %v", o.FullSum)
			}
			ids = append(ids, o.ID)
		}
		if fmt.Sprint(ids) != "[10 11 20 21 30 31]" || requests.Load() != 3 {
			t.Errorf("ids %v, requests %d", ids, requests.Load())
		}
	})
	t.Run("lazy and stops on break", func(t *testing.T) {
		var requests atomic.Int64
		m := newMarket()
		m.b2b = pagedOrders(&requests, 0)
		acct, _ := serve(t, m)
		seq := acct.B2B.AllOrders(ctx, nil)
		if requests.Load() != 0 {
			t.Fatal("fetched before iterating")
		}
		n := 0
		for range seq {
			n++
			if n == 3 {
				break
			}
		}
		if requests.Load() != 2 {
			t.Errorf("requests = %d, want 2", requests.Load())
		}
	})
	t.Run("error ends the walk", func(t *testing.T) {
		var requests atomic.Int64
		m := newMarket()
		m.b2b = pagedOrders(&requests, 2)
		acct, _ := serve(t, m)
		var items, errs int
		for _, err := range acct.B2B.AllOrders(ctx, nil) {
			if err != nil {
				errs++
				continue
			}
			items++
		}
		if items != 2 || errs != 1 {
			t.Errorf("items %d errs %d", items, errs)
		}
	})
	t.Run("context ends the walk", func(t *testing.T) {
		var requests atomic.Int64
		m := newMarket()
		m.b2b = pagedOrders(&requests, 0)
		acct, _ := serve(t, m)
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var last error
		for _, err := range acct.B2B.AllOrders(cctx, nil) {
			cancel()
			last = err
		}
		if !errors.Is(last, context.Canceled) || requests.Load() != 1 {
			t.Errorf("last = %v, requests %d", last, requests.Load())
		}
	})
}

func TestAllNomenclaturesAndReturnBoxes(t *testing.T) {
	m := newMarket()
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		var p struct{ Page int }
		_ = jsonUnmarshal(req.Params, &p)
		rpcResult(w, req.ID, fmt.Sprintf(`{"page":%d,"limit":1,"pages":2,"total":2,"nomenclatures":[{"barcode":"b%d","price":10.5}]}`, p.Page, p.Page))
	}
	m.rest = func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		if r.URL.Query().Get("seller_id") != "7" {
			writeJSON(w, 403, `{"error":{"code":"FORBIDDEN","message":"x"}}`)
			return
		}
		writeJSON(w, 200, fmt.Sprintf(`{"data":[{"code":"B-%s","status":"shipped","dimension_symbol":"S","item_quantity":2,"created_at":"2026-11-01T10:00:00Z","updated_at":"2026-11-01T11:00:00Z","shipped_at":"2026-11-01T12:00:00Z"}],"pagination":{"page":%s,"limit":1,"pages":3,"total":3}}`, page, page))
	}
	acct, _ := serve(t, m)
	ctx := context.Background()
	var barcodes []string
	for n, err := range acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 7, Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		if n.Price != 1050 {
			t.Errorf("price %v", n.Price)
		}
		barcodes = append(barcodes, n.Barcode)
	}
	var codes []string
	for b, err := range acct.ReturnBoxes.All(ctx, &apiclient.ListReturnBoxesOptions{SellerID: 7}) {
		if err != nil {
			t.Fatal(err)
		}
		if b.ShippedAt == nil || b.ItemQuantity != 2 {
			t.Errorf("box %+v", b)
		}
		codes = append(codes, b.Code)
	}
	if fmt.Sprint(barcodes, codes) != "[b1 b2] [B-1 B-2 B-3]" {
		t.Errorf("got %v %v", barcodes, codes)
	}
}
