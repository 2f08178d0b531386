// Package pages holds one templ component per screen and the view models
// they draw. View models carry display-ready strings and primitives only:
// handlers map marketplace data into them.
package pages

import (
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// DemoCredential is a sandbox account offered on the login page in demo mode.
type DemoCredential struct {
	ClientID, ClientSecret string
	SellerID               int64
	// Environment is the one its one-click login posts: "production"
	// where the account works there, else "test".
	Environment string
	Note        string
}

// LoginForm is the login page: the typed values (never the secret), and the
// reasons fields were refused.
type LoginForm struct {
	ClientID, SellerID, Environment, DisplayName string
	Next                                         string
	Errors                                       map[string]string // by field name
	FormError                                    string
	FormNote                                     string
	Demo                                         []DemoCredential
	// Adding marks the form adding an account to a logged-in session;
	// Accounts are the session's accounts it lists above the form.
	Adding   bool
	Accounts []AccountRow
}

// action is where the form posts: the login, or the session's accounts.
func (f LoginForm) action() string {
	if f.Adding {
		return paths.Accounts
	}
	return paths.Login
}

// AccountRow is one account of the session on the accounts page.
type AccountRow struct {
	Label, Environment string
	Href, RemoveURL    string
	Current            bool
}

// Count is one line of a per-status count list.
type Count struct {
	Status string
	Count  int
	Href   string
}

// TokenState says how long a token of the session has left.
type TokenState struct {
	Name      string
	ExpiresIn string
	Present   bool
}

// Overview is the start page after login.
type Overview struct {
	ClientID, Environment string
	SellerID              int64
	Tokens                []TokenState
	Orders                []Count
	OrdersTotal           int
	Nomenclature          []Count
	NomenclatureTotal     int
	Boxes                 []Count
	BoxesTotal            int
	// Accounts are the lines of a session holding several accounts.
	Accounts []AccountLine
	// Copying reports that the account's first copy is still being made:
	// a count of nothing yet is "being copied", not 0.
	Copying bool
}

// AccountLine is one account on the overview of a session holding several:
// what needs action today and the freshness of its copy ("" while it has
// no full copy), from the local copy.
type AccountLine struct {
	Label, Environment, Href string
	AsOf                     string
	Actions                  []NeedsAction
	Unavailable              bool // the marketplace refused its credentials
}

// Option is one choice of a select.
type Option struct {
	Value, Label string
}

// Resend is the resend-notifications control: a small form whose answer
// replaces it in place.
type Resend struct {
	FormID   string   // element id, also sent back so the server renders the same control
	OrderNrs []string // hidden order numbers; empty for the bulk form (checkboxes carry them)
	Label    string
	State    ResendState
	Message  string
	RetryIn  int      // seconds until another attempt is allowed; above zero disables the button
	RetryAt  string   // the same moment as a clock time, for pages without JavaScript
	Return   string   // where a plain form post comes back to
	Queued   []string // after a resend: each order and the notifications queued for it
	Busy     []string // after a resend: each order not sent, and why (with when to retry)
	// OOB marks a control answered beside another one (a bulk resend's
	// rows): htmx swaps it into its own place on the page.
	OOB bool
}

// OrderRow is one order in the orders table.
type OrderRow struct {
	OrderNr, Href, Status, Created, Updated, Sum, Delivery, Payment string
	Items                                                           int
	Confirmed                                                       bool
	Resend                                                          Resend
}

// OrdersView is the orders list with its filter and pager.
type OrdersView struct {
	Status   string
	Limit    string
	Statuses []Option
	Limits   []Option
	Rows     []OrderRow
	Pager    components.Pager
	Bulk     Resend
	Return   string
	// Copy is the search and filters of the local copy; nil
	// when the dashboard has none.
	Copy *CopyToolbar
	// SelectLabel prefixes an order number in the aria-label of its row's
	// checkbox ("Select RU1-2" / "Выбрать заказ RU1-2"): the locale's words
	// come in the view model, so the hand-written rows look nothing up.
	SelectLabel string
}

// OrderItemRow is one item of an order.
type OrderItemRow struct {
	ID, SKU, MarketplaceSKU, Description, Size, Status, SalePrice, PaidPrice string
}

// OrderDetail is one order with its items.
type OrderDetail struct {
	OrderNr, Status, Created, Updated, Sum, Delivery, Payment, Currency string
	Confirmed                                                           bool
	ItemQuantity                                                        int
	Items                                                               []OrderItemRow
	Resend                                                              Resend
	Back                                                                string
}

// RowResult is what the marketplace (or local validation) said about a row
// after a submit.
type RowResult struct {
	State    RowState
	Messages i18n.Msgs
	Before   string // accepted and held rows: the old value
	After    string // accepted and held rows: the new value
	// Delta is a held row's change in percent, as the reader writes it
	// ("−88,5 %"); Confirm is the value of its confirmation checkbox, and
	// Confirmed ticks it (a row sent confirmed and not yet accepted).
	Delta, Confirm string
	Confirmed      bool
}

// Summary is the line above a table after a submit: how many of the
// submitted rows were updated, rejected, invalid, not sent, sent without
// an answer and unchanged.
type Summary struct {
	// Held are the rows beyond the price guard, not sent until confirmed.
	Updated, Rejected, Invalid, Unsent, Unknown, Unchanged, Held int
	Note                                                         i18n.Msgs
	// Shown and NotShown, after a submit larger than a page, are how many
	// of the rows that need attention the table lists and how many more
	// there are.
	Shown, NotShown int
}

// NomenclatureRow is one record of the nomenclature table with its
// mass-update inputs.
type NomenclatureRow struct {
	Key                                        string // warehouse|barcode, for element ids
	Warehouse, Barcode, SKU, Name, Brand, Size string
	// Product names the record's product page: its SKU, or its card in
	// the lamoda profile ("" when unknown: no link).
	Product                                                string
	Price, SalePrice                                       string
	Quantity, OrigQuantity, Status, OrigStatus, LiveStatus string
	// QuantityPending and StatusPending mark a quantity or a status the
	// marketplace accepted that no read has confirmed yet.
	QuantityPending, StatusPending bool
	StatusOptions                  []Option             // what the seller may choose, plus the current status
	Errors                         map[string]i18n.Msgs // "quantity", "status"
	Result                         RowResult
}

// NomenclatureView is the nomenclature list with its mass-update form.
type NomenclatureView struct {
	Limit  string
	Limits []Option
	Rows   []NomenclatureRow
	// Kept, after a submit larger than a page, are the edited rows not
	// listed that the marketplace has not answered: the form carries them
	// hidden, so the next submit sends them again.
	Kept    []NomenclatureRow
	Pager   components.Pager
	Action  string
	Summary *Summary
	// ExportQuery is "?page=…&limit=…" of the page on screen, for the
	// export links; "" when exports are not available.
	ExportQuery string
	// Copy is the search and filters of the local copy; nil
	// when the dashboard has none.
	Copy *CopyToolbar
}

// HasWarehouses reports whether the table has a warehouse to show: a
// catalogue whose records keep none (lamoda profile) leaves the column out.
func (v NomenclatureView) HasWarehouses() bool {
	if len(v.Rows) == 0 && len(v.Kept) == 0 {
		return true
	}
	for _, rows := range [][]NomenclatureRow{v.Rows, v.Kept} {
		for _, r := range rows {
			if r.Warehouse != "" {
				return true
			}
		}
	}
	return false
}

// PriceRow is one product of the prices table with its inputs.
type PriceRow struct {
	SKU, Name, Brand, Size, Warehouses      string
	Current, CurrentSale, UpdateStatus      string
	OrigPrice, OrigSale, OrigStart, OrigEnd string
	Price, Sale, Start, End                 string
	Errors                                  map[string]i18n.Msgs // "price", "sale", "start", "end"
	Hints                                   map[string]string    // "price", "sale": the warnings beside the fields
	Result                                  RowResult
}

// PricesView is the prices form.
type PricesView struct {
	// DropLimit is the largest drop below the current price, in percent,
	// that the marketplace accepts (massupdate.MarketDropLimit); the form
	// warns past it as the user types. 0 leaves the warning out.
	DropLimit int
	Limit     string
	Limits    []Option
	Rows      []PriceRow
	// Kept, after a submit larger than a page, are the edited rows not
	// listed that the marketplace has not answered: the form carries them
	// hidden, so the next submit sends them again.
	Kept    []PriceRow
	Pager   components.Pager
	Action  string
	Summary *Summary
	// ExportQuery: as in NomenclatureView.
	ExportQuery string
	// Copy is the search and filters of the local copy; nil
	// when the dashboard has none.
	Copy *CopyToolbar
	// Heads sort the list from the copy by a column of the table.
	Heads PriceHeads
}

// PriceHeads are the sortable heads of the price table.
type PriceHeads struct {
	SKU, Name, Current SortHead
}

// SortHead is a column head that sorts a list: Href sorts by the column
// (the other way when Dir, the aria-sort of the current sort, is set); ""
// when the list cannot be sorted (read live).
type SortHead struct {
	Href, Dir string
}

// BoxRow is one return box.
type BoxRow struct {
	Code, Status, Dimension, Created, Updated, Shipped string
	Items                                              int
}

// BoxesView is the return boxes list.
type BoxesView struct {
	Status   string
	Limit    string
	Statuses []Option
	Limits   []Option
	Rows     []BoxRow
	Pager    components.Pager
	// Copy is the search of the local copy; nil when the
	// dashboard has none.
	Copy *CopyToolbar
}

// ErrorView is a page or fragment explaining a failure.
type ErrorView struct {
	Status    int
	Title     string
	Message   string
	RequestID string
	RetryIn   int // seconds; above zero the page says when it retries
	LinkHref  string
	LinkText  string
}

// ResendState is what became of the last resend a Resend control sent.
type ResendState string

// The states of a Resend control.
const (
	ResendIdle ResendState = ""     // nothing sent yet
	ResendOK   ResendState = "ok"   // queued
	ResendBusy ResendState = "busy" // refused for now: the marketplace is still busy with an earlier one
	ResendBad  ResendState = "bad"  // refused or failed
)

// RowState is what the marketplace (or local validation) said about a row
// of a mass-update form after a submit.
type RowState string

// The states of a submitted row.
const (
	RowUntouched RowState = ""         // not sent, nothing to say
	RowAccepted  RowState = "accepted" // the marketplace took it
	RowRejected  RowState = "rejected" // the marketplace refused it
	RowInvalid   RowState = "invalid"  // refused before sending
	RowHeld      RowState = "held"     // beyond the price guard, waiting for a confirmation
	RowUnsent    RowState = "unsent"   // not sent (an earlier part failed, or the send stopped)
	RowUnknown   RowState = "unknown"  // sent, outcome unknown
)
