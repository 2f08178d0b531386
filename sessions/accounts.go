package sessions

import (
	"crypto/sha256"
	"encoding/hex"
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
func (a Account) ID() string {
	sum := sha256.Sum256([]byte("account\x00" + a.ClientID + "\x00" + strconv.FormatInt(a.SellerID, 10) + "\x00" + a.Environment))
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
	d.ClientID, d.ClientSecret, d.Environment, d.DisplayName, d.SellerID = a.ClientID, a.ClientSecret, a.Environment, a.DisplayName, a.SellerID
}

// SetOnlyAccount makes a the session's only account, as a login does.
func (d *Data) SetOnlyAccount(a Account) {
	d.setCurrent(a)
	d.Accounts = []Account{a}
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
