package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
)

// MaxAccounts bounds the marketplace accounts one session holds, so that
// every page's session read stays small.
const MaxAccounts = 20

// ErrDuplicateAccount refuses to add an account the session already holds
// (the same client, seller and environment).
var ErrDuplicateAccount = errors.New("sessions: the session already holds this account")

// ErrTooManyAccounts refuses a further account to a session holding
// MaxAccounts.
var ErrTooManyAccounts = errors.New("sessions: the session holds the most accounts it may")

// Account is one set of marketplace credentials a session holds. Its
// secret stays server-side, like the rest of the payload.
type Account struct {
	ClientID     string `json:"ci"`
	ClientSecret string `json:"cs"`
	Environment  string `json:"en"`
	DisplayName  string `json:"dn,omitempty"`
	SellerID     int64  `json:"si"`
}

// ID is the account's name in URLs: a short hash of its client, seller and
// environment. It names neither the client id nor the secret, and is the
// same in every session, so bookmarks survive a new login.
//
// A page uses the ids of every account a session holds (the header's
// switcher), so the hash is built on the stack: one allocation, the id.
func (a Account) ID() string {
	var buf [160]byte
	in := append(buf[:0], "account\x00"...)
	in = append(in, a.ClientID...)
	in = append(in, 0)
	in = strconv.AppendInt(in, a.SellerID, 10)
	in = append(in, 0)
	in = append(in, a.Environment...)
	sum := sha256.Sum256(in)
	return hex.EncodeToString(sum[:6])
}

// String describes a without its client secret.
func (a Account) String() string {
	return "sessions.Account{ClientID:" + strconv.Quote(a.ClientID) + " Environment:" + strconv.Quote(a.Environment) +
		" SellerID:" + strconv.FormatInt(a.SellerID, 10) + " ClientSecret:" + redacted(a.ClientSecret) + "}"
}

// GoString is String, so that %#v redacts too.
func (a Account) GoString() string { return a.String() }

// Current is the account the session acts on: the one its last page
// named (SwitchAccount), or the only one.
func (d *Data) Current() Account {
	return Account{ClientID: d.ClientID, ClientSecret: d.ClientSecret, Environment: d.Environment, DisplayName: d.DisplayName, SellerID: d.SellerID}
}

// AccountList is every account the session holds, in the order they were
// added. A session logged in once holds just its current account.
func (d *Data) AccountList() []Account {
	if len(d.Accounts) == 0 {
		if d.ClientID == "" {
			return nil
		}
		return []Account{d.Current()}
	}
	return d.Accounts
}

// Account returns the session's account whose ID is id.
func (d *Data) Account(id string) (Account, bool) {
	for _, a := range d.AccountList() {
		if a.ID() == id {
			return a, true
		}
	}
	return Account{}, false
}

func (d *Data) setCurrent(a Account) {
	d.actAs(a)
	d.home = ""
}

// actAs puts a's fields in the current account's place.
func (d *Data) actAs(a Account) {
	d.ClientID, d.ClientSecret, d.Environment, d.DisplayName, d.SellerID = a.ClientID, a.ClientSecret, a.Environment, a.DisplayName, a.SellerID
}

// ActAs makes the account whose ID is id current for this request only:
// the session acts on it, but stores the current account it had
// (MarshalJSON), so the paths without an account still lead there. It is
// SwitchAccount for a request that must not change which account is
// current (a navigation from another site). It reports whether the
// session holds the account.
func (d *Data) ActAs(id string) bool {
	cur := d.Current().ID()
	if cur == id && d.ClientID != "" {
		return true
	}
	a, ok := d.Account(id)
	if !ok {
		return false
	}
	if d.home == "" {
		d.home = cur
	}
	d.actAs(a)
	return true
}

// MarshalJSON stores d with the current account it had before ActAs, if
// the session still holds it.
func (d Data) MarshalJSON() ([]byte, error) {
	type plain Data
	if d.home != "" {
		if a, ok := d.Account(d.home); ok {
			d.actAs(a)
		}
	}
	return json.Marshal(plain(d))
}

// SetOnlyAccount makes a the session's only account.
func (d *Data) SetOnlyAccount(a Account) {
	d.setCurrent(a)
	d.Accounts = []Account{a}
}

// Login makes a current, as a login does, and keeps every other account
// the session still holds with its secret: logging in again to an account
// whose credentials were refused does not cost the others. A current
// account without its secret (a session refused before Refuse wiped the
// refused account from the list) is not kept, nor a duplicate of a; past
// MaxAccounts the oldest others are left out.
func (d *Data) Login(a Account) {
	refused := ""
	if d.ClientID != "" && d.ClientSecret == "" {
		refused = d.Current().ID()
	}
	var others []Account
	for _, b := range d.AccountList() {
		if b.ClientSecret != "" && b.ID() != a.ID() && b.ID() != refused {
			others = append(others, b)
		}
	}
	if len(others) >= MaxAccounts {
		others = others[len(others)-MaxAccounts+1:]
	}
	d.Accounts = append(others, a)
	d.setCurrent(a)
	if d.AddAgain != nil && d.AddAgain.ID() == a.ID() {
		d.AddAgain = nil
	}
}

// Refuse drops the current account, whose credentials the marketplace
// refused, with its secret, and keeps it without the secret in AddAgain
// so that the form adding an account offers it again. Another account
// the session holds becomes current; when none is left the session is
// logged out, still naming the refused account without its secret (its
// drafts are kept under its name for the login that adds it again). It
// returns the account dropped.
func (d *Data) Refuse() Account {
	a := d.Current()
	d.RemoveAccount(a.ID())
	again := a
	again.ClientSecret = ""
	d.AddAgain = &again
	if d.ClientID == "" {
		d.setCurrent(again)
	}
	return again
}

// AddedAgain forgets AddAgain once the account it names is held again.
func (d *Data) AddedAgain(id string) bool {
	if d.AddAgain == nil || d.AddAgain.ID() != id {
		return false
	}
	d.AddAgain = nil
	return true
}

// AddAccount adds a to the session and makes it current. It refuses a
// duplicate (ErrDuplicateAccount) and a further account beyond MaxAccounts
// (ErrTooManyAccounts).
func (d *Data) AddAccount(a Account) error {
	list := d.AccountList()
	for _, b := range list {
		if b.ID() == a.ID() {
			return ErrDuplicateAccount
		}
	}
	if len(list) >= MaxAccounts {
		return ErrTooManyAccounts
	}
	d.Accounts = append(append([]Account(nil), list...), a)
	d.setCurrent(a)
	return nil
}

// SwitchAccount makes the account whose ID is id current; it reports
// whether the session holds it.
func (d *Data) SwitchAccount(id string) bool {
	if d.Current().ID() == id && d.ClientID != "" {
		d.home = ""
		return true
	}
	a, ok := d.Account(id)
	if ok {
		d.setCurrent(a)
	}
	return ok
}

// RemoveAccount drops the account whose ID is id with its credentials and
// reports whether the session held it. Removing the current account makes
// the first remaining one current; removing the last leaves the session
// without credentials (logged out).
func (d *Data) RemoveAccount(id string) bool {
	list := d.AccountList()
	kept := make([]Account, 0, len(list))
	for _, a := range list {
		if a.ID() != id {
			kept = append(kept, a)
		}
	}
	if len(kept) == len(list) {
		return false
	}
	d.Accounts = kept
	switch {
	case len(kept) == 0:
		d.Accounts = nil
		d.setCurrent(Account{})
	case d.Current().ID() == id:
		d.setCurrent(kept[0])
	}
	return true
}
