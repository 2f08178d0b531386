// Package layouts holds the page frame every screen is drawn in.
package layouts

import (
	"context"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// Chrome is what the frame needs to know about the request: title, assets,
// who is logged in, which section is active and the messages to show.
type Chrome struct {
	Title        string
	Assets       Assets
	User         *User // nil when nobody is logged in
	Active       string
	Flashes      []Flash
	Demo         bool
	RefreshAfter int // seconds; above zero the page reloads itself (busy marketplace)
	RequestID    string
	Skipped      int // marketplace records left out of the page because they could not be read
	// LiveInTest marks a page that changes prices or stock while logged in
	// to the test environment, whose seller calls reach the live catalogue
	// (the marketplace has no seller test host, or none is configured).
	LiveInTest bool
	// Promotions shows the promotions section (a profile that has them).
	Promotions bool
	// Accounts are the session's accounts for the header's switcher.
	Accounts []AccountLink
	// Version is the running build ("v1.4.0 · 0123456789ab"), shown in the
	// footer of the pages that set it (the accounts page).
	Version string
}

// AccountLink is one account in the header's switcher: Href is the screen
// on show, of that account.
type AccountLink struct {
	Label       string // name, or client id, and seller
	Environment string
	Href        string
	Current     bool
}

// Assets are the cache-busted URLs of the stylesheet and scripts.
type Assets struct {
	CSS, JS, HTMX, Icon string
}

// User is the logged-in seller account as the header shows it.
type User struct {
	ClientID    string
	DisplayName string
	SellerID    int64
	Environment string
}

// Flash is a one-time message shown at the top of the next page.
type Flash struct {
	Kind string // a flash.Kind of httpx/flash: ok, info, warn, bad (its CSS class)
	Text string
}

// NavItem is one entry of the main navigation. Label is a catalogue key
// (i18n), translated when the header is drawn.
type NavItem struct {
	Key, Label, Href string
}

// Nav lists the sections in the order the header shows them.
var Nav = []NavItem{
	{"overview", i18n.K("nav.overview"), paths.Overview},
	{"orders", i18n.K("nav.orders"), paths.Orders},
	{"nomenclature", i18n.K("nav.nomenclature"), paths.Nomenclature},
	{"prices", i18n.K("nav.prices"), paths.Prices},
	{"promotions", i18n.K("nav.promotions"), paths.Promotions},
	{"return-boxes", i18n.K("nav.return_boxes"), paths.ReturnBoxes},
	{"bulk", i18n.K("nav.bulk"), paths.BulkImport},
	{"history", i18n.K("nav.history"), paths.History},
}

// htmxConfig keeps htmx inside a strict Content-Security-Policy (no eval, no
// inline styles) and swaps 422 answers, which carry forms with their errors.
const htmxConfig = `{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"historyCacheSize":0,` +
	`"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"422","swap":true},{"code":"[45]..","swap":true,"error":true}]}`

type returnPathKey struct{}

// WithReturnPath returns ctx carrying the local path the language switch
// brings the user back to (the locale middleware sets it per request).
func WithReturnPath(ctx context.Context, path string) context.Context {
	return context.WithValue(ctx, returnPathKey{}, path)
}

// ReturnPath is the path set by WithReturnPath, or "/".
func ReturnPath(ctx context.Context) string {
	if p, ok := ctx.Value(returnPathKey{}).(string); ok && p != "" {
		return p
	}
	return "/"
}
