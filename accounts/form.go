package accounts

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// Form is the login (or add-account) form as typed, its fields trimmed.
type Form struct {
	ClientID, Secret, SellerID, Environment, DisplayName string
}

// Check reads the account f names and the problem of each field it
// cannot read, by the field's form name ("client_id", "client_secret",
// "seller_id", "environment", "display_name"); none when f names an
// account.
func (f Form) Check() (sessions.Account, map[string]i18n.Msgs) {
	errs := map[string]i18n.Msgs{}
	acct := sessions.Account{ClientID: f.ClientID, ClientSecret: f.Secret, Environment: f.Environment, DisplayName: f.DisplayName}
	switch {
	case f.ClientID == "":
		errs["client_id"] = i18n.Of(i18n.M("auth.client_id_missing", nil))
	case utf8.RuneCountInString(f.ClientID) > 200 || strings.ContainsFunc(f.ClientID, func(r rune) bool { return r < 0x21 || r == 0x7f }):
		errs["client_id"] = i18n.Of(i18n.M("auth.client_id_bad", nil))
	}
	switch {
	case f.Secret == "":
		errs["client_secret"] = i18n.Of(i18n.M("auth.secret_missing", nil))
	case len(f.Secret) > 500:
		errs["client_secret"] = i18n.Of(i18n.M("auth.secret_long", nil))
	}
	id, err := strconv.ParseInt(f.SellerID, 10, 64)
	switch {
	case f.SellerID == "":
		errs["seller_id"] = i18n.Of(i18n.M("auth.seller_missing", nil))
	case err != nil || id <= 0:
		errs["seller_id"] = i18n.Of(i18n.M("auth.seller_bad", nil))
	default:
		acct.SellerID = id
	}
	if f.Environment != "production" && f.Environment != "test" {
		errs["environment"] = i18n.Of(i18n.M("auth.environment_bad", nil))
	}
	if utf8.RuneCountInString(f.DisplayName) > 80 {
		errs["display_name"] = i18n.Of(i18n.M("auth.name_long", nil))
	}
	return acct, errs
}

// Addable says why d cannot take acct as one more account (it holds it
// already, or as many as it may), or nothing when it can; the marketplace
// need not be asked then.
func Addable(d *sessions.Data, acct sessions.Account) i18n.Msgs {
	if _, dup := d.Account(acct.ID()); dup {
		return i18n.Of(i18n.M("accounts.duplicate", nil))
	}
	if len(d.AccountList()) >= sessions.MaxAccounts {
		return i18n.Of(i18n.M("accounts.too_many", map[string]any{"Max": sessions.MaxAccounts}))
	}
	return nil
}

// Msgs is what the login form says of e: its message, and for a field to
// correct, that field's form name and message. A Failed login has none:
// the marketplace failed before judging the credentials, and the caller
// says how.
func (e *LoginError) Msgs() (form i18n.Msgs, field string, fieldMsg i18n.Msgs) {
	at := e.Until.UTC().Format(time.RFC3339)
	switch e.Reason {
	case Throttled:
		return i18n.Of(i18n.M("auth.throttled", map[string]any{"At": at})), "", nil
	case TooManyClients:
		// Not the failures of this client id: the bound the address
		// reached.
		return i18n.Of(i18n.M("auth.throttled_clients", map[string]any{"Max": e.MaxClients, "Minutes": int(e.Window.Minutes()), "At": at})), "", nil
	case NoAccess:
		return i18n.Of(i18n.M("auth.check_seller", nil)), "seller_id",
			i18n.Of(i18n.M("auth.no_access", map[string]any{"ID": strconv.FormatInt(e.SellerID, 10)}))
	case Rejected:
		env := i18n.Plain(e.Environment)
		switch e.Environment {
		case "production":
			env = i18n.Of(i18n.M("auth.env_production", nil))
		case "test":
			env = i18n.Of(i18n.M("auth.env_test", nil))
		}
		form = i18n.Of(i18n.M("auth.rejected", map[string]any{"Env": env}))
		if !e.Until.IsZero() {
			form = append(form, i18n.M("auth.next_attempt", map[string]any{"At": at}))
		}
		return form, "", nil
	case Busy:
		return i18n.Of(i18n.M("auth.busy", map[string]any{"At": at})), "", nil
	case Malformed:
		return i18n.Of(i18n.M("auth.malformed", nil)), "", nil
	}
	return nil, "", nil
}
