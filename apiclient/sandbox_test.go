package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// sb is a sandbox on an httptest server with a client whose token clock is
// the sandbox clock.
type sb struct {
	s      *sandbox.Sandbox
	srv    *httptest.Server
	client *apiclient.Client
	cred   sandbox.Credential
	acct   *apiclient.Account
}

func newSandbox(t testing.TB, mod ...func(*apiclient.Options)) *sb {
	t.Helper()
	s := sandbox.New(sandbox.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return newSandboxClient(t, s, srv.URL, nil, mod...)
}

// newSandboxInMemory serves the sandbox without sockets (for synctest).
func newSandboxInMemory(t testing.TB, mod ...func(*apiclient.Options)) *sb {
	t.Helper()
	s := sandbox.New(sandbox.Options{})
	return newSandboxClient(t, s, "http://sandbox.test", &http.Client{Transport: handlerTransport{s}}, mod...)
}

func newSandboxClient(t testing.TB, s *sandbox.Sandbox, origin string, hc *http.Client, mod ...func(*apiclient.Options)) *sb {
	t.Helper()
	opts := apiclient.Options{
		B2BBaseURL:     origin,
		B2BTestBaseURL: origin + "/test",
		SellerBaseURL:  origin,
		HTTPClient:     hc,
		Now:            s.Now,
	}
	for _, f := range mod {
		f(&opts)
	}
	c, err := apiclient.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cred := sandbox.SeededCredentials()[0]
	acct := c.Account(apiclient.Credentials{ClientID: cred.ClientID, ClientSecret: cred.ClientSecret, Environment: apiclient.Production}, nil)
	return &sb{s: s, client: c, cred: cred, acct: acct}
}

func TestSandboxB2B(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	if err := e.acct.Login(ctx); err != nil {
		t.Fatal(err)
	}

	page, err := e.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Page: 1, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if page.Page != 1 || page.Limit != 5 || len(page.Orders) != 5 || page.Total < 6 || page.Pages < 2 {
		t.Fatalf("page = %+v", page)
	}
	for _, o := range page.Orders {
		if o.ID == "" || o.OrderNr == "" || o.Status == "" || o.FullSum <= 0 || o.Currency == "" ||
			o.CreatedAt.IsZero() || len(o.Items) == 0 || o.Items[0].MarketplaceSKU == "" || o.Items[0].SalePrice <= 0 {
			t.Errorf("order not fully decoded: %+v", o)
		}
	}
	n := 0
	for o, err := range e.acct.B2B.AllOrders(ctx, &apiclient.ListOrdersOptions{Limit: 7}) {
		if err != nil {
			t.Fatal(err)
		}
		if o.OrderNr == "" {
			t.Error("empty order")
		}
		n++
	}
	if n != page.Total {
		t.Errorf("AllOrders yielded %d, total %d", n, page.Total)
	}
	nrs := e.s.OrderNumbers(e.cred.SellerID, "new")
	if len(nrs) > 0 {
		l, err := e.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Status: "new", Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if l.Total != len(nrs) {
			t.Errorf("status filter: total %d, want %d", l.Total, len(nrs))
		}
	}

	// validation error with field details
	_, err = e.acct.B2B.ListOrders(ctx, &apiclient.ListOrdersOptions{Limit: 1000})
	var be *apiclient.B2BError
	if !errors.Is(err, apiclient.ErrValidation) || !errors.As(err, &be) || be.Status != 400 || be.RequestID == "" {
		t.Fatalf("err = %v", err)
	}
	if fe := apiclient.FieldErrors(err); len(fe) != 1 || fe[0].Field != "limit" || fe[0].Message == "" {
		t.Errorf("FieldErrors = %+v", fe)
	}

	// resend: accepted, then 429 while processing (not retried), then accepted again
	order := page.Orders[0].OrderNr
	res, err := e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{order}, Types: []string{"statusChanged"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Queued != 1 || len(res.Notifications) != 1 || res.Notifications[0].OrderNr != order || res.Notifications[0].Status != "processing" {
		t.Errorf("resend = %+v", res)
	}
	before := e.s.Counters().Requests[sandbox.RouteB2BResend]
	_, err = e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{order}, Types: []string{"statusChanged"}})
	var rl *apiclient.RateLimitError
	if !errors.As(err, &rl) || !errors.Is(err, apiclient.ErrRateLimited) || !errors.As(err, &be) || be.Description != "Rate limit has been reached" {
		t.Fatalf("second resend: %v", err)
	}
	if got := e.s.Counters().Requests[sandbox.RouteB2BResend] - before; got != 1 {
		t.Errorf("resend sent %d times, want 1", got)
	}
	e.s.Advance(sandbox.DefaultResendProcessing + time.Second)
	if _, err := e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{order}, Types: []string{"statusChanged"}}); err != nil {
		t.Errorf("resend after processing: %v", err)
	}

	// gift certificates: own, another seller's, unknown, malformed
	codes := e.s.GiftCertificateCodes(e.cred.SellerID)
	if len(codes) == 0 {
		t.Fatal("no seeded gift certificates")
	}
	gc, err := e.acct.B2B.GiftCertificate(ctx, codes[0])
	if err != nil {
		t.Fatal(err)
	}
	if gc.Code != codes[0] || gc.Status == "" || gc.Nominal <= 0 || len(gc.Raw) == 0 {
		t.Errorf("gift certificate = %+v", gc)
	}
	other := e.s.GiftCertificateCodes(sandbox.SeededCredentials()[1].SellerID)
	for _, tc := range []struct {
		code     string
		sentinel error
		gift     int
	}{
		{other[0], apiclient.ErrForbidden, 403},
		{"GC-0000-0000", apiclient.ErrNotFound, 404},
		{"bad code!", apiclient.ErrValidation, 32602},
	} {
		_, err := e.acct.B2B.GiftCertificate(ctx, tc.code)
		var ge *apiclient.GiftCertificateError
		if !errors.Is(err, tc.sentinel) || !errors.As(err, &ge) || ge.Code != tc.gift {
			t.Errorf("gift %q: %v", tc.code, err)
		}
	}
}

func TestSandboxSeller(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	seller := e.cred.SellerID

	l, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Page: 1, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Nomenclatures) == 0 || l.Total == 0 {
		t.Fatalf("list = %+v", l)
	}
	for _, n := range l.Nomenclatures {
		if n.SellerID != seller || n.WarehouseCode == "" || n.Barcode == "" || n.MarketplaceSKU == "" || n.Price <= 0 ||
			n.Status == "" || n.PriceUpdateStatus == "" || n.UpdatedAt.IsZero() {
			t.Errorf("record not fully decoded: %+v", n)
		}
	}
	count := 0
	for _, err := range e.acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: 25}) {
		if err != nil {
			t.Fatal(err)
		}
		count++
	}
	if count != l.Total {
		t.Errorf("AllNomenclatures yielded %d, total %d", count, l.Total)
	}

	// set prices: one valid change, and item errors of shape B
	prod := e.s.Products(seller)[0]
	newPrice := apiclient.Money(prod.Price) + 1000
	sale := newPrice - 500
	res, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{
		{MarketplaceSKU: prod.MarketplaceSKU, Price: newPrice, SalePrice: &sale, SaleStartDate: "2026-11-01", SaleEndDate: "2026-12-01"},
		{MarketplaceSKU: "MP000UNKNOWN0000", Price: 100},
		{MarketplaceSKU: e.s.Products(seller)[1].MarketplaceSKU, Price: -1},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 1 || res.ErrorCount != 2 || len(res.Errors) != 2 {
		t.Fatalf("set prices = %+v", res)
	}
	if res.Errors[0].MarketplaceSKU != "MP000UNKNOWN0000" || res.Errors[0].Code != 404 || len(res.Errors[0].Messages) == 0 {
		t.Errorf("item error = %+v", res.Errors[0])
	}
	found := false
	for n, err := range e.acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		if n.MarketplaceSKU == prod.MarketplaceSKU {
			found = true
			if n.Price != newPrice || n.SalePrice != sale {
				t.Errorf("after set prices: price %v sale %v, want %v %v", n.Price, n.SalePrice, newPrice, sale)
			}
		}
	}
	if !found {
		t.Error("product not listed")
	}

	// store: one valid change, and item errors of shape A
	qty := 7
	neg := -1
	wh := prod.Warehouses[0]
	res, err = e.acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: seller, Items: []apiclient.StoreItem{
		{WarehouseCode: wh, Barcode: prod.Barcode, Quantity: &qty},
		{WarehouseCode: wh, Barcode: "0000000000000", Quantity: &qty},
		{WarehouseCode: wh, Barcode: prod.Barcode, Quantity: &neg},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 1 || res.ErrorCount != 2 || len(res.Errors) != 2 {
		t.Fatalf("store = %+v", res)
	}
	if d := cmp.Diff(apiclient.ItemError{WarehouseCode: wh, Barcode: "0000000000000", Code: 404}, res.Errors[0],
		cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Messages" }, cmp.Ignore())); d != "" || len(res.Errors[0].Messages) != 1 {
		t.Errorf("item error (-want +got):\n%s %v", d, res.Errors[0].Messages)
	}

	// request-level errors
	_, err = e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: 100000})
	var re *apiclient.RPCError
	if !errors.Is(err, apiclient.ErrValidation) || !errors.As(err, &re) || re.Code != apiclient.RPCInvalidParams {
		t.Fatalf("err = %v", err)
	}
	if fe := apiclient.FieldErrors(err); len(fe) != 1 || fe[0].Field != "limit" {
		t.Errorf("FieldErrors = %+v", fe)
	}
	_, err = e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: sandbox.SeededCredentials()[1].SellerID})
	if !errors.Is(err, apiclient.ErrForbidden) || !errors.As(err, &re) || re.Code != 403 {
		t.Errorf("other seller: %v", err)
	}
}

func TestSandboxReturnBoxes(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	seller := e.cred.SellerID
	l, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: seller, Page: 1, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if l.Total != len(e.s.ReturnBoxCodes(seller)) || len(l.Boxes) == 0 {
		t.Fatalf("list = %+v", l)
	}
	for _, b := range l.Boxes {
		if b.Code == "" || b.Status == "" || b.DimensionSymbol == "" || b.CreatedAt.IsZero() || (b.Status == "shipped") != (b.ShippedAt != nil) {
			t.Errorf("box not fully decoded: %+v", b)
		}
	}
	var codes []string
	for b, err := range e.acct.ReturnBoxes.All(ctx, &apiclient.ListReturnBoxesOptions{SellerID: seller, Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, b.Code)
	}
	if d := cmp.Diff(e.s.ReturnBoxCodes(seller), codes); d != "" {
		t.Errorf("All (-want +got):\n%s", d)
	}
	_, err = e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: sandbox.SeededCredentials()[1].SellerID})
	var rest *apiclient.RESTError
	if !errors.Is(err, apiclient.ErrForbidden) || !errors.As(err, &rest) || rest.Code != "FORBIDDEN" {
		t.Errorf("other seller: %v", err)
	}
	_, err = e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: seller, Status: "lost"})
	if !errors.Is(err, apiclient.ErrValidation) || !errors.As(err, &rest) || rest.Code != "VALIDATION_FAILED" {
		t.Fatalf("bad status: %v", err)
	}
	if fe := apiclient.FieldErrors(err); len(fe) != 1 || fe[0].Field != "status" {
		t.Errorf("FieldErrors = %+v", fe)
	}
}

func TestSandboxCredentials(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	wrong := e.client.Account(apiclient.Credentials{ClientID: e.cred.ClientID, ClientSecret: "wrong", Environment: apiclient.Production}, nil)
	err := wrong.Login(ctx)
	var ce *apiclient.CredentialsError
	var be *apiclient.B2BError
	var re *apiclient.RPCError
	if !errors.Is(err, apiclient.ErrUnauthorized) || !errors.As(err, &ce) || !errors.As(err, &be) || be.Status != 400 || !errors.As(err, &re) || re.Code != 401 {
		t.Errorf("wrong secret: %v", err)
	}

	// test-only credentials: rejected by B2B production, fine in test
	testCred := sandbox.SeededCredentials()[2]
	prod := e.client.Account(apiclient.Credentials{ClientID: testCred.ClientID, ClientSecret: testCred.ClientSecret, Environment: apiclient.Production}, nil)
	if err := prod.Login(ctx); !errors.As(err, &ce) || ce.Kind != apiclient.KindB2B {
		t.Errorf("test creds in production: %v", err)
	}
	test := e.client.Account(apiclient.Credentials{ClientID: testCred.ClientID, ClientSecret: testCred.ClientSecret, Environment: apiclient.Test}, nil)
	if err := test.Login(ctx); err != nil {
		t.Fatalf("test creds in test: %v", err)
	}
	if _, err := test.B2B.ListOrders(ctx, nil); err != nil {
		t.Errorf("orders in test: %v", err)
	}
	if got := e.s.Counters().TokensIssued["b2b/test"]; got != 1 {
		t.Errorf("b2b/test tokens = %d, want 1", got)
	}

	// seller token at the method path
	c2, err := apiclient.New(apiclient.Options{B2BBaseURL: "http://unused.invalid", SellerBaseURL: e.srvURL(t), SellerTokenPath: "/jsonrpc/v1/tokens.create", Now: e.s.Now})
	if err != nil {
		t.Fatal(err)
	}
	a2 := c2.Account(apiclient.Credentials{ClientID: e.cred.ClientID, ClientSecret: e.cred.ClientSecret}, nil)
	if _, err := a2.Token(ctx, apiclient.KindSeller); err != nil {
		t.Errorf("token at /jsonrpc/v1/tokens.create: %v", err)
	}
}

func (e *sb) srvURL(t testing.TB) string {
	t.Helper()
	if e.srv == nil {
		e.srv = httptest.NewServer(e.s)
		t.Cleanup(e.srv.Close)
	}
	return e.srv.URL
}

func TestSandboxTokenExpiry(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	issued := func() (int, int) {
		c := e.s.Counters()
		return c.TokensIssued["b2b/production"], c.TokensIssued["seller"]
	}
	list := func() {
		t.Helper()
		if _, err := e.acct.B2B.ListOrders(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID}); err != nil {
			t.Fatal(err)
		}
	}
	list()
	if b, s := issued(); b != 1 || s != 1 {
		t.Fatalf("tokens issued %d/%d, want 1/1", b, s)
	}
	e.s.Advance(700 * time.Second)
	list()
	if b, s := issued(); b != 1 || s != 1 {
		t.Fatalf("after 700 s: tokens issued %d/%d, want 1/1", b, s)
	}
	e.s.Advance(30 * time.Second) // 730 s: past 80 % of 900 s
	list()
	if b, s := issued(); b != 2 || s != 2 {
		t.Fatalf("after 730 s: tokens issued %d/%d, want 2/2", b, s)
	}
	e.s.Advance(10 * time.Hour) // long idle: expired tokens are replaced, no 401
	before := e.s.Counters().Requests[sandbox.RouteB2BOrders]
	list()
	if b, s := issued(); b != 3 || s != 3 {
		t.Fatalf("after idle: tokens issued %d/%d, want 3/3", b, s)
	}
	if got := e.s.Counters().Requests[sandbox.RouteB2BOrders] - before; got != 1 {
		t.Errorf("orders requests = %d, want 1 (no 401)", got)
	}
	// a shorter server lifetime is honoured
	e.s.SetTokenTTL(100 * time.Second)
	if _, err := e.acct.Token(ctx, apiclient.KindB2B); err != nil {
		t.Fatal(err)
	}
	e.s.Advance(15 * time.Minute) // the cached 900 s token is due
	tok, err := e.acct.Token(ctx, apiclient.KindB2B)
	if err != nil {
		t.Fatal(err)
	}
	if life := tok.ExpiresAt.Sub(tok.IssuedAt); life != 100*time.Second {
		t.Errorf("lifetime = %v, want 100s", life)
	}
}

func TestSandbox401RetryOnce(t *testing.T) {
	// The client's clock lags the sandbox's: it believes its token is valid
	// while the sandbox says it expired, so the sandbox answers 401.
	s := sandbox.New(sandbox.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	frozen := s.Now()
	e := newSandboxClient(t, s, srv.URL, nil, func(o *apiclient.Options) { o.Now = func() time.Time { return frozen } })
	ctx := context.Background()
	if err := e.acct.Login(ctx); err != nil {
		t.Fatal(err)
	}
	s.Advance(901 * time.Second)
	s.ResetCounters()
	if _, err := e.acct.B2B.ListOrders(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID}); err != nil {
		t.Fatal(err)
	}
	c := s.Counters()
	if c.Requests[sandbox.RouteB2BOrders] != 2 || c.Requests[sandbox.RouteRPCList] != 2 || c.Requests[sandbox.RouteReturnBoxes] != 1 {
		t.Errorf("requests = %v", c.Requests)
	}
	if c.TokensIssued["b2b/production"] != 1 || c.TokensIssued["seller"] != 1 {
		t.Errorf("tokens issued = %v", c.TokensIssued)
	}

	// revoked credentials: one 401, one token attempt, then ErrUnauthorized
	s.RevokeCredentials(e.cred.ClientID)
	s.ResetCounters()
	_, err := e.acct.B2B.ListOrders(ctx, nil)
	var ce *apiclient.CredentialsError
	if !errors.Is(err, apiclient.ErrUnauthorized) || !errors.As(err, &ce) {
		t.Fatalf("revoked: %v", err)
	}
	c = s.Counters()
	if c.Requests[sandbox.RouteB2BOrders] != 1 || c.Requests[sandbox.RouteB2BToken] != 1 {
		t.Errorf("requests = %v", c.Requests)
	}
}

func TestSandboxOneTokenCallAtExpiry(t *testing.T) {
	e := newSandbox(t)
	ctx := context.Background()
	if err := e.acct.Login(ctx); err != nil {
		t.Fatal(err)
	}
	e.s.SetLatency(sandbox.RouteB2BToken, 20*time.Millisecond)
	e.s.SetLatency(sandbox.RouteRPCTokens, 20*time.Millisecond)
	e.s.Advance(900 * time.Second)
	e.s.ResetCounters()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 100 {
		wg.Go(func() {
			var err error
			switch i % 3 {
			case 0:
				_, err = e.acct.B2B.ListOrders(ctx, nil)
			case 1:
				_, err = e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID})
			default:
				_, err = e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID})
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c := e.s.Counters()
	if c.TokensIssued["b2b/production"] != 1 || c.TokensIssued["seller"] != 1 {
		t.Errorf("tokens issued = %v, want one of each", c.TokensIssued)
	}
	if c.Requests[sandbox.RouteB2BToken] != 1 || c.Requests[sandbox.RouteRPCTokens] != 1 {
		t.Errorf("token requests = %v", c.Requests)
	}
}

func TestSandboxFaults(t *testing.T) {
	ctx := context.Background()
	t.Run("html 502", func(t *testing.T) {
		e := newSandbox(t)
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BOrders, Kind: sandbox.FaultHTML})
		_, err := e.acct.B2B.ListOrders(ctx, nil)
		var ue *apiclient.UnexpectedResponseError
		if !errors.As(err, &ue) || ue.Status != 502 || ue.RequestID == "" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("malformed json", func(t *testing.T) {
		e := newSandbox(t)
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: sandbox.FaultMalformedJSON})
		_, err := e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID})
		if !errors.Is(err, apiclient.ErrUnexpectedResponse) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("internal error shapes", func(t *testing.T) {
		e := newSandbox(t)
		e.s.InjectFault(sandbox.Fault{Kind: sandbox.FaultInternal, Times: 3})
		_, err := e.acct.B2B.ListOrders(ctx, nil)
		var be *apiclient.B2BError
		if !errors.As(err, &be) || be.Status != 500 {
			t.Errorf("b2b: %v", err)
		}
		// the token calls were not faulted: the fault counts matching requests
		e.s.ClearFaults()
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		e.s.InjectFault(sandbox.Fault{Kind: sandbox.FaultInternal, Times: 2})
		_, err = e.acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID})
		if err == nil || errors.Is(err, apiclient.ErrUnauthorized) {
			t.Errorf("rpc: %v", err)
		}
		_, err = e.acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID})
		var rest *apiclient.RESTError
		if !errors.As(err, &rest) || rest.Status != 500 {
			t.Errorf("rest: %v", err)
		}
	})
	t.Run("truncated write is outcome unknown and applied", func(t *testing.T) {
		e := newSandbox(t)
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		prod := e.s.Products(e.cred.SellerID)[0]
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultTruncated})
		price := apiclient.Money(prod.Price) + 100
		_, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: prod.MarketplaceSKU, Price: price}}})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) {
			t.Fatalf("err = %v", err)
		}
		if got := e.s.Counters().Requests[sandbox.RouteRPCSetPrices]; got != 1 {
			t.Errorf("set-prices sent %d times", got)
		}
		if got := e.s.Products(e.cred.SellerID)[0].Price; got != int64(price) {
			t.Errorf("price %d, want %d (applied although unreadable)", got, price)
		}
	})
	t.Run("malformed answer to a write is outcome unknown", func(t *testing.T) {
		e := newSandbox(t)
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCStore, Kind: sandbox.FaultMalformedJSON})
		_, err := e.acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: e.cred.SellerID})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) || !errors.Is(err, apiclient.ErrUnexpectedResponse) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("reset write is outcome unknown and not replayed", func(t *testing.T) {
		e := newSandbox(t)
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCStore, Kind: sandbox.FaultReset})
		_, err := e.acct.Seller.StoreNomenclatures(ctx, &apiclient.StoreRequest{SellerID: e.cred.SellerID})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) || e.s.Counters().Requests[sandbox.RouteRPCStore] != 1 {
			t.Errorf("err = %v, requests %v", err, e.s.Counters().Requests)
		}
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BResend, Kind: sandbox.FaultReset})
		_, err = e.acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: e.s.OrderNumbers(e.cred.SellerID, "")[:1]})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) || e.s.Counters().Requests[sandbox.RouteB2BResend] != 1 {
			t.Errorf("resend: %v", err)
		}
	})
	t.Run("hang ends with the context", func(t *testing.T) {
		e := newSandbox(t)
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultHang})
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err := e.acct.Seller.SetPrices(cctx, &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: "X", Price: 1}}})
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, apiclient.ErrOutcomeUnknown) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestSandboxBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newSandboxInMemory(t)
		ctx := context.Background()
		if err := e.acct.Login(ctx); err != nil {
			t.Fatal(err)
		}
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteB2BOrders, Kind: sandbox.FaultRateLimit, Times: 3})
		var waits []time.Duration
		octx := apiclient.WithRetryObserver(ctx, func(ev apiclient.RetryEvent) { waits = append(waits, ev.Wait) })
		start := time.Now()
		if _, err := e.acct.B2B.ListOrders(octx, nil); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, waits); d != "" {
			t.Errorf("waits (-want +got):\n%s", d)
		}
		if el := time.Since(start); el != 7*time.Second {
			t.Errorf("elapsed %v, want 7s", el)
		}

		// Retry-After lengthens; the budget (30 s) runs out on the third wait
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCList, Kind: sandbox.FaultRateLimit, RetryAfter: "12", Times: -1})
		waits = nil
		start = time.Now()
		_, err := e.acct.Seller.ListNomenclatures(octx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID})
		var rl *apiclient.RateLimitError
		if !errors.As(err, &rl) || !errors.Is(err, apiclient.ErrRateLimited) {
			t.Fatalf("err = %v", err)
		}
		if d := cmp.Diff([]time.Duration{12 * time.Second, 12 * time.Second}, waits); d != "" {
			t.Errorf("waits (-want +got):\n%s", d)
		}
		if rl.Attempts != 3 || !rl.RetryAt.Equal(start.Add(36*time.Second)) {
			t.Errorf("Attempts %d, RetryAt %v (start %v)", rl.Attempts, rl.RetryAt, start)
		}
		e.s.ClearFaults()

		// 503 on the seller REST API: same schedule for reads
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteReturnBoxes, Kind: sandbox.FaultUnavailable, Times: 2})
		waits = nil
		if _, err := e.acct.ReturnBoxes.List(octx, &apiclient.ListReturnBoxesOptions{SellerID: e.cred.SellerID}); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]time.Duration{time.Second, 2 * time.Second}, waits); d != "" {
			t.Errorf("503 waits (-want +got):\n%s", d)
		}

		// writes retry 429 (not processed)
		e.s.InjectFault(sandbox.Fault{Route: sandbox.RouteRPCSetPrices, Kind: sandbox.FaultRateLimit, Times: 1})
		prod := e.s.Products(e.cred.SellerID)[0]
		res, err := e.acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: prod.MarketplaceSKU, Price: apiclient.Money(prod.Price)}}})
		if err != nil || res.Updated != 1 || e.s.Counters().Requests[sandbox.RouteRPCSetPrices] != 2 {
			t.Errorf("set prices after 429: %+v %v", res, err)
		}
	})
}

func TestSandboxHostileFixtures(t *testing.T) {
	s := sandbox.New(sandbox.Options{Hostile: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	e := newSandboxClient(t, s, srv.URL, nil)
	ctx := context.Background()
	n := 0
	for rec, err := range e.acct.Seller.AllNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: e.cred.SellerID, Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		if rec.MarketplaceSKU == "" {
			t.Errorf("record without SKU: %.80q", rec.Name)
		}
		n++
	}
	for _, err := range e.acct.B2B.AllOrders(ctx, &apiclient.ListOrdersOptions{Limit: 100}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != len(recordsOf(s, e.cred.SellerID)) {
		t.Errorf("listed %d records, want %d", n, len(recordsOf(s, e.cred.SellerID)))
	}
}

// recordsOf lists one entry per product and warehouse.
func recordsOf(s *sandbox.Sandbox, seller int64) []string {
	var out []string
	for _, p := range s.Products(seller) {
		for _, w := range p.Warehouses {
			out = append(out, w+"/"+p.Barcode)
		}
	}
	return out
}
