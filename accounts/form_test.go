package accounts

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// TestFormCheck: a form naming an account gives it with no problem; each
// field that cannot be read has its own problem, the others none.
func TestFormCheck(t *testing.T) {
	good := Form{ClientID: "demo-1001", Secret: "s3cret", SellerID: "1001", Environment: "test", DisplayName: "Shop"}
	acct, errs := good.Check()
	want := sessions.Account{ClientID: "demo-1001", ClientSecret: "s3cret", Environment: "test", DisplayName: "Shop", SellerID: 1001}
	if acct != want || len(errs) != 0 {
		t.Fatalf("Check() = %+v, %v; want %+v and no problem", acct, errs, want)
	}
	for name, c := range map[string]struct {
		edit  func(*Form)
		field string
		words string
	}{
		"no client id":     {func(f *Form) { f.ClientID = "" }, "client_id", "Enter the client id"},
		"client id space":  {func(f *Form) { f.ClientID = "demo 1001" }, "client_id", "without spaces"},
		"client id long":   {func(f *Form) { f.ClientID = strings.Repeat("x", 201) }, "client_id", "at most 200"},
		"no secret":        {func(f *Form) { f.Secret = "" }, "client_secret", "Enter the client secret"},
		"secret long":      {func(f *Form) { f.Secret = strings.Repeat("x", 501) }, "client_secret", "at most 500"},
		"no seller":        {func(f *Form) { f.SellerID = "" }, "seller_id", "Enter your seller id"},
		"seller zero":      {func(f *Form) { f.SellerID = "0" }, "seller_id", "above zero"},
		"seller not a num": {func(f *Form) { f.SellerID = "12a" }, "seller_id", "above zero"},
		"environment":      {func(f *Form) { f.Environment = "staging" }, "environment", "production or test"},
		"name long":        {func(f *Form) { f.DisplayName = strings.Repeat("я", 81) }, "display_name", "under 80"},
	} {
		f := good
		c.edit(&f)
		_, errs := f.Check()
		if len(errs) != 1 || !strings.Contains(errs[c.field].In(i18n.EN, nil), c.words) {
			t.Errorf("%s: problems %v, want %s: …%s…", name, errs, c.field, c.words)
		}
	}
}

// TestAddable: a session may take an account it does not hold, up to
// sessions.MaxAccounts; a duplicate and one more are refused with words.
func TestAddable(t *testing.T) {
	var d sessions.Data
	first := sessions.Account{ClientID: "c", ClientSecret: "s", Environment: "test", SellerID: 1}
	d.Login(first)
	if why := Addable(&d, first); !strings.Contains(why.In(i18n.EN, nil), "already in the session") {
		t.Errorf("a duplicate: %q", why.In(i18n.EN, nil))
	}
	for i := 2; len(d.AccountList()) < sessions.MaxAccounts; i++ {
		acct := first
		acct.SellerID = int64(i)
		if why := Addable(&d, acct); why != nil {
			t.Fatalf("account %d of %d refused: %q", i, sessions.MaxAccounts, why.In(i18n.EN, nil))
		}
		if err := d.AddAccount(acct); err != nil {
			t.Fatal(err)
		}
	}
	one := first
	one.SellerID = 999
	if why := Addable(&d, one); !strings.Contains(why.In(i18n.EN, nil), "at most "+strconv.Itoa(sessions.MaxAccounts)) {
		t.Errorf("one account too many: %q", why.In(i18n.EN, nil))
	}
}

// TestLoginErrorMsgs: each reason a login fails for has the form's words
// (the time to try again, as a time argument; the field to correct),
// except a marketplace failure, which the caller words.
func TestLoginErrorMsgs(t *testing.T) {
	until := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	at := until.Format(time.RFC3339)
	for _, c := range []struct {
		err         LoginError
		form, field string
		fieldWords  string
	}{
		{LoginError{Reason: Throttled, Until: until}, "Too many failed logins. Try again at " + at + ".", "", ""},
		{LoginError{Reason: TooManyClients, Until: until, MaxClients: 20, Window: 15 * time.Minute}, "(at most 20 within 15 minutes). Try again at " + at + ".", "", ""},
		{LoginError{Reason: NoAccess, SellerID: 1002}, "Check the seller id.", "seller_id", "no access to seller 1002."},
		{LoginError{Reason: Rejected, Environment: "test"}, "for the test environment. Check the client id", "", ""},
		{LoginError{Reason: Rejected, Environment: "production", Until: until}, "the next one is possible at " + at + ".", "", ""},
		{LoginError{Reason: Busy, Until: until}, "The marketplace is busy. Try again at " + at + ".", "", ""},
		{LoginError{Reason: Malformed}, "refused these credentials as malformed.", "", ""},
		{LoginError{Reason: Failed}, "", "", ""},
	} {
		form, field, fieldMsg := c.err.Msgs()
		got := form.In(i18n.EN, nil)
		if !strings.Contains(got, c.form) || (c.form == "") != (got == "") || field != c.field || !strings.HasSuffix(fieldMsg.In(i18n.EN, nil), c.fieldWords) {
			t.Errorf("%v: %q, %q %q; want …%q, %q …%q", c.err.Reason, got, field, fieldMsg.In(i18n.EN, nil), c.form, c.field, c.fieldWords)
		}
	}
}
