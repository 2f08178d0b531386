package handlers_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// wireTap records the params of every set-prices call the dashboard makes
// and, when dropParent is set, blanks lamodaParentSku in the answer's item
// errors (a marketplace that names only the size).
type wireTap struct {
	mu         sync.Mutex
	calls      []map[string]json.RawMessage
	dropParent bool
	// rewrite, when set, changes the set-prices answers' bodies.
	rewrite func([]byte) []byte
	next    http.RoundTripper
}

var parentInError = regexp.MustCompile(`"lamodaParentSku":"[^"]*"`)

func (w *wireTap) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, "set-prices") || r.Body == nil {
		return w.next.RoundTrip(r)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	var env struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &env); err == nil {
		w.mu.Lock()
		w.calls = append(w.calls, env.Params)
		w.mu.Unlock()
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := w.next.RoundTrip(r)
	if err != nil || (!w.dropParent && w.rewrite == nil) {
		return resp, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	if w.dropParent {
		raw = parentInError.ReplaceAll(raw, []byte(`"lamodaParentSku":""`))
	}
	if w.rewrite != nil {
		raw = w.rewrite(raw)
	}
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	resp.ContentLength = int64(len(raw))
	resp.Header.Del("Content-Length")
	return resp, nil
}

func (w *wireTap) params() []map[string]json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), w.calls...)
}

// newCardApp is a lamoda-profile dashboard whose set-prices calls are
// tapped.
func newCardApp(t *testing.T, dropParent bool) (*testapp.App, *wireTap) {
	t.Helper()
	tap := &wireTap{dropParent: dropParent, next: http.DefaultTransport}
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, GuardPercent: -1, APIOptions: func(o *apiclient.Options) {
		o.HTTPClient = &http.Client{Transport: tap}
	}}) // the marketplace's answers are these tests' subject: the dashboard's own price guard is off
	return app, tap
}

type card struct {
	parent string
	sizes  []sandbox.Product
}

// cardsOf lists the seller's product cards in list order.
func cardsOf(sb *sandbox.Sandbox, seller int64) []card {
	var out []card
	at := map[string]int{}
	for _, p := range sb.Products(seller) {
		i, ok := at[p.ParentSKU]
		if !ok {
			i = len(out)
			at[p.ParentSKU] = i
			out = append(out, card{parent: p.ParentSKU})
		}
		out[i].sizes = append(out[i].sizes, p)
	}
	return out
}

func moneyIn(kopecks int64) string { return format.MoneyInput(kopecks) }

// TestCardPricesPage: in the lamoda profile the prices page lists one row
// per product card with its sizes beneath, and the form posts one row per
// card.
func TestCardPricesPage(t *testing.T) {
	t.Parallel()
	app, _ := newCardApp(t, false)
	b := app.Browser(t)
	b.LoginDemo()
	p := b.Get("/prices?limit=20")
	if p.Status != http.StatusOK || !p.Has("[data-testid=by-card]") {
		t.Fatalf("prices: %d, by-card note %t", p.Status, p.Has("[data-testid=by-card]"))
	}
	cards := cardsOf(app.Sandbox, 1001)
	first := cards[0]
	body := p.Doc.Find("[data-testid=card-" + first.parent + "]")
	if body.Length() != 1 {
		t.Fatalf("card %s: %d bodies, want 1", first.parent, body.Length())
	}
	if n := body.Find("tr.size").Length(); n != len(first.sizes) {
		t.Errorf("card %s shows %d sizes, want %d", first.parent, n, len(first.sizes))
	}
	for _, s := range first.sizes {
		if body.Find("[data-testid=size-"+s.MarketplaceSKU+"]").Length() != 1 {
			t.Errorf("size %s not beneath its card", s.MarketplaceSKU)
		}
	}
	form := p.FormValues("#prices-form")
	skus := form["sku"]
	if len(skus) != p.Doc.Find("tbody.card").Length() || len(skus) >= 20 {
		t.Errorf("form has %d rows for %d cards (page of 20 sizes)", len(skus), p.Doc.Find("tbody.card").Length())
	}
	if skus[0] != first.parent {
		t.Errorf("first form row %q, want the card %q", skus[0], first.parent)
	}
	if p.Has("[data-testid=send-anyway]") {
		t.Error("a fresh page offers to send anyway")
	}
	// The form warns of a drop the marketplace refuses as it is typed
	// (static/app.js), with the marketplace's limit and the catalogue's words.
	f := p.Doc.Find("#prices-form")
	if got := f.AttrOr("data-drop-limit", ""); got != strconv.Itoa(massupdate.MarketDropLimit) {
		t.Errorf("data-drop-limit %q, want %d", got, massupdate.MarketDropLimit)
	}
	if got := f.AttrOr("data-drop-warning", ""); !strings.Contains(got, "{pct}") || !strings.Contains(got, strconv.Itoa(massupdate.MarketDropLimit)) {
		t.Errorf("data-drop-warning %q", got)
	}
}

// TestCardPricesMixedResults: one item per changed card; an accepted card,
// a card the marketplace refuses (its error beside it), an unknown card, and
// a card the price check holds with a warning. The first submit never sends
// force; the answer shows the warning and offers "send anyway", which sends
// force for that card only, and then it is applied.
func TestCardPricesMixedResults(t *testing.T) {
	t.Parallel()
	app, tap := newCardApp(t, false)
	b := app.Browser(t)
	b.LoginDemo()
	cards := cardsOf(app.Sandbox, 1001)
	ok, refused, held := cards[0], cards[1], cards[2]
	p := b.Get("/prices?limit=100")
	form := p.FormValues("#prices-form")
	set := func(parent, price string) {
		for i, s := range form["sku"] {
			if s == parent {
				form["price"][i] = price
				if sale := form["sale"][i]; sale != "" {
					form["sale"][i] = ""
				}
				return
			}
		}
		t.Fatalf("card %s not in the form", parent)
	}
	set(ok.parent, moneyIn(ok.sizes[0].Price+10000))
	set(refused.parent, moneyIn(refused.sizes[0].Price/20)) // more than 90 % off: refused
	held0 := held.sizes[0].Price
	set(held.parent, moneyIn(held0/3)) // more than half off: the price check holds it
	for _, k := range []string{"sku", "orig_price", "orig_sale", "orig_start", "orig_end", "price", "sale", "start", "end"} {
		form.Add(k, map[string]string{"sku": "NOSUCHCARD", "orig_price": "100.00", "price": "120.00"}[k])
	}
	form.Set("action", "send")
	res := b.Post("/prices?limit=100", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("mixed submit: %d, want 422", res.Status)
	}
	calls := tap.params()
	if len(calls) != 1 {
		t.Fatalf("%d set-prices calls, want 1", len(calls))
	}
	if f, sent := calls[0]["force"]; sent && string(f) != "false" {
		t.Fatalf("the first submit sent force=%s", f)
	}
	var items []map[string]any
	_ = json.Unmarshal(calls[0]["prices"], &items)
	if len(items) != 4 {
		t.Errorf("sent %d items, want one per changed card (4)", len(items))
	}
	for _, it := range items {
		if _, ok := it["lamoda_parent_sku"]; !ok {
			t.Errorf("item without its card: %v", it)
		}
	}
	result := func(parent string) string { return res.Text("[data-testid=card-" + parent + "] [data-testid=result]") }
	if got := res.Doc.Find("[data-testid=card-"+ok.parent+"]").AttrOr("class", ""); !strings.Contains(got, "accepted") {
		t.Errorf("accepted card: class %q, result %q", got, result(ok.parent))
	}
	if got := res.Doc.Find("[data-testid=card-"+refused.parent+"]").AttrOr("class", ""); !strings.Contains(got, "rejected") || result(refused.parent) == "" {
		t.Errorf("refused card: class %q, result %q", got, result(refused.parent))
	}
	if got := result("NOSUCHCARD"); !strings.Contains(got, "not found") {
		t.Errorf("unknown card: result %q", got)
	}
	heldRes := res.Doc.Find("[data-testid=card-" + held.parent + "] [data-testid=fraud]")
	if heldRes.Length() != 1 || heldRes.AttrOr("data-status", "") != "warning" {
		t.Fatalf("held card: %d price-check notes, result %q", heldRes.Length(), result(held.parent))
	}
	if !res.Has("[data-testid=send-anyway]") {
		t.Fatal("no send-anyway submit for the warned card")
	}
	// Enter in a field submits with the form's first button: never "send
	// anyway".
	if first := res.Doc.Find("#prices-form button[type=submit]").First(); first.AttrOr("value", "") != "send" {
		t.Errorf("the form's default button is %q, want the plain submit", first.AttrOr("value", ""))
	}
	if got := res.Doc.Find("input[name=force_card]"); got.Length() != 1 || got.AttrOr("value", "") != held.parent {
		t.Fatalf("force_card inputs: %d, first %q; want only %s", got.Length(), got.AttrOr("value", ""), held.parent)
	}
	if app.Sandbox.Products(1001)[indexOf(app.Sandbox, held.sizes[0].MarketplaceSKU)].Price != held0 {
		t.Fatal("the held price was applied without confirmation")
	}

	// Submitting the answer as it stands (the plain submit) still never
	// sends force.
	again := res.FormValues("#prices-form")
	again.Set("action", "send")
	b.Post("/prices?limit=100", again)
	calls = tap.params()
	if f, sent := calls[len(calls)-1]["force"]; sent && string(f) != "false" {
		t.Fatalf("a plain resubmit sent force=%s", f)
	}

	// "Send anyway" confirms the warned card only.
	confirm := res.FormValues("#prices-form")
	confirm.Set("action", "force")
	before := len(tap.params())
	done := b.Post("/prices?limit=100", confirm)
	calls = tap.params()[before:]
	var forcedItems []string
	for _, c := range calls {
		if string(c["force"]) == "true" {
			var its []map[string]any
			_ = json.Unmarshal(c["prices"], &its)
			for _, it := range its {
				forcedItems = append(forcedItems, it["lamoda_parent_sku"].(string))
			}
		}
	}
	if len(forcedItems) != 1 || forcedItems[0] != held.parent {
		t.Fatalf("forced items %v, want only %s", forcedItems, held.parent)
	}
	for _, s := range held.sizes {
		if got := app.Sandbox.Products(1001)[indexOf(app.Sandbox, s.MarketplaceSKU)].Price; got != held0/3/100*100 && got != held0/3 {
			t.Errorf("size %s: price %d after confirmation, want %d", s.MarketplaceSKU, got, held0/3)
		}
	}
	if done.Status != http.StatusUnprocessableEntity && done.Status != http.StatusSeeOther {
		t.Errorf("confirm: status %d", done.Status)
	}
}

func indexOf(sb *sandbox.Sandbox, sku string) int {
	for i, p := range sb.Products(1001) {
		if p.MarketplaceSKU == sku {
			return i
		}
	}
	return -1
}

// TestCardPricesErrorBySize: an item error that names only the size
// (lamodaSku) is placed beside the size's card.
func TestCardPricesErrorBySize(t *testing.T) {
	t.Parallel()
	app, _ := newCardApp(t, true)
	b := app.Browser(t)
	b.LoginDemo()
	cards := cardsOf(app.Sandbox, 1001)
	refused := cards[1]
	p := b.Get("/prices?limit=100")
	form := p.FormValues("#prices-form")
	for i, s := range form["sku"] {
		if s == refused.parent {
			form["price"][i], form["sale"][i] = moneyIn(refused.sizes[0].Price/20), ""
		}
	}
	res := b.Post("/prices?limit=100", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.Status)
	}
	cls := res.Doc.Find("[data-testid=card-"+refused.parent+"]").AttrOr("class", "")
	msg := res.Text("[data-testid=card-" + refused.parent + "] [data-testid=result]")
	if !strings.Contains(cls, "rejected") || msg == "" {
		t.Errorf("card %s: class %q, result %q; want the size's error beside it", refused.parent, cls, msg)
	}
}

// TestCardPricesRestrictionNotOffered: a price-check "restriction" is shown
// beside its card but never offered for "send anyway" (force cannot lift
// it), and the number of promotions it names is said.
func TestCardPricesRestrictionNotOffered(t *testing.T) {
	t.Parallel()
	tap := &wireTap{next: http.DefaultTransport, rewrite: func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(`"status":"warning"`), []byte(`"status":"restriction"`))
		return bytes.ReplaceAll(b, []byte(`"promotions":[]`), []byte(`"promotions":[{"promotion_id":7,"name":"Black Friday"}]`))
	}}
	app := testapp.New(t, testapp.Options{Profile: apiclient.ProfileLamoda, GuardPercent: -1, APIOptions: func(o *apiclient.Options) {
		o.HTTPClient = &http.Client{Transport: tap}
	}})
	b := app.Browser(t)
	b.LoginDemo()
	held := cardsOf(app.Sandbox, 1001)[0]
	form := b.Get("/prices?limit=100").FormValues("#prices-form")
	form["price"][0], form["sale"][0] = moneyIn(held.sizes[0].Price/3), ""
	res := b.Post("/prices?limit=100", form)
	note := res.Doc.Find("[data-testid=card-" + held.parent + "] [data-testid=fraud]")
	if note.AttrOr("data-status", "") != "restriction" || !strings.Contains(note.Text(), "1 promotion concerned") {
		t.Fatalf("restriction note: status %q, text %q", note.AttrOr("data-status", ""), note.Text())
	}
	if res.Has("[data-testid=send-anyway]") || res.Has("input[name=force_card]") {
		t.Error("a restriction is offered for send anyway")
	}
}
