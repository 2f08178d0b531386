package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestAccounts(t *testing.T) {
	a := Account{ClientID: "c1", ClientSecret: "s1", Environment: "production", SellerID: 1}
	b := Account{ClientID: "c1", ClientSecret: "s1", Environment: "test", SellerID: 1}
	if a.ID() == b.ID() {
		t.Fatal("the same client in two environments shares an id")
	}
	if strings.Contains(a.ID(), "c1") || strings.Contains(fmt.Sprintf("%v %#v", a, a), "s1") {
		t.Fatalf("the id or the description names a credential: %s %v", a.ID(), a)
	}
	var d Data
	d.SetOnlyAccount(a)
	if err := d.AddAccount(b); err != nil {
		t.Fatal(err)
	}
	if d.Current().ID() != b.ID() {
		t.Fatal("an added account is not current")
	}
	if err := d.AddAccount(b); !errors.Is(err, ErrDuplicateAccount) {
		t.Fatalf("duplicate: %v", err)
	}
	if !d.SwitchAccount(a.ID()) || d.SellerID != 1 || d.Environment != "production" {
		t.Fatalf("switch: %v", d.Current())
	}
	if d.SwitchAccount("nope") {
		t.Fatal("switched to an account the session does not hold")
	}
	for i := 2; len(d.AccountList()) < MaxAccounts; i++ {
		if err := d.AddAccount(Account{ClientID: "c", ClientSecret: "s", Environment: "test", SellerID: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.AddAccount(Account{ClientID: "c", ClientSecret: "s", Environment: "test", SellerID: 999}); !errors.Is(err, ErrTooManyAccounts) {
		t.Fatalf("account %d: %v", MaxAccounts+1, err)
	}
	d.SwitchAccount(b.ID())
	if !d.RemoveAccount(b.ID()) || d.Current().ID() == b.ID() {
		t.Fatal("removing the current account left it current")
	}
	if _, ok := d.Account(b.ID()); ok {
		t.Fatal("a removed account is still held")
	}
	for _, acct := range d.AccountList() {
		d.RemoveAccount(acct.ID())
	}
	if d.ClientID != "" || d.ClientSecret != "" || d.AccountList() != nil {
		t.Fatalf("removing every account left credentials: %v", d)
	}
}

// A draft kept for one account is not another's.
func TestDraftsPerAccount(t *testing.T) {
	s := &Session{data: &Data{}}
	a := Account{ClientID: "c1", ClientSecret: "s1", Environment: "production", SellerID: 1}
	b := Account{ClientID: "c2", ClientSecret: "s2", Environment: "production", SellerID: 2}
	s.data.SetOnlyAccount(a)
	if err := s.data.AddAccount(b); err != nil {
		t.Fatal(err)
	}
	s.data.SwitchAccount(a.ID())
	s.SetDraft("prices", map[string][]string{"sku": {"A-1"}})
	s.data.SwitchAccount(b.ID())
	if d := s.PopDraft("prices"); d != nil {
		t.Fatalf("account B sees A's draft %v", d)
	}
	s.data.SwitchAccount(a.ID())
	if d := s.PopDraft("prices"); d.Get("sku") != "A-1" {
		t.Fatalf("A's draft %v", d)
	}
}

// TestRefuseAndLoginAgain: a refused account leaves the session with its
// secret (kept without it to be added again); another becomes current; a
// login adding it again keeps the others. A payload an earlier version
// stored after a refusal (the current account's secret wiped, the list
// still holding it) opens, and a login there keeps the other accounts but
// not the refused secret.
func TestRefuseAndLoginAgain(t *testing.T) {
	a := Account{ClientID: "c1", ClientSecret: "s1", Environment: "production", SellerID: 1}
	b := Account{ClientID: "c2", ClientSecret: "s2", Environment: "production", SellerID: 2}
	c := Account{ClientID: "c3", ClientSecret: "s3", Environment: "test", SellerID: 3}
	var d Data
	d.SetOnlyAccount(a)
	for _, x := range []Account{b, c} {
		if err := d.AddAccount(x); err != nil {
			t.Fatal(err)
		}
	}
	d.SwitchAccount(b.ID())
	if got := d.Refuse(); got.ID() != b.ID() || got.ClientSecret != "" {
		t.Fatalf("refused %v", got)
	}
	raw, err := json.Marshal(&d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "s2") || len(d.AccountList()) != 2 || d.ClientSecret == "" || d.AddAgain == nil {
		t.Fatalf("after the refusal: %s", raw)
	}
	b2 := b
	b2.ClientSecret = "s2-new"
	d.Login(b2)
	if len(d.AccountList()) != 3 || d.Current().ID() != b.ID() || d.AddAgain != nil {
		t.Fatalf("after the login: %d accounts, current %v, add again %v", len(d.AccountList()), d.Current(), d.AddAgain)
	}

	legacy := `{"ci":"c2","en":"production","si":2,"ac":[{"ci":"c1","cs":"s1","en":"production","si":1},` +
		`{"ci":"c2","cs":"s2","en":"production","si":2},{"ci":"c3","cs":"s3","en":"test","si":3}]}`
	var old Data
	if err := json.Unmarshal([]byte(legacy), &old); err != nil {
		t.Fatal(err)
	}
	old.Login(b2)
	raw, _ = json.Marshal(&old)
	if len(old.AccountList()) != 3 || strings.Contains(string(raw), `"s2"`) || old.ClientSecret != "s2-new" {
		t.Fatalf("a login in a refused session of an earlier version: %s", raw)
	}
}

// TestActAsKeepsCurrent: a request acting on another account (ActAs)
// stores the session with the account current before it; SwitchAccount
// stores the new one.
func TestActAsKeepsCurrent(t *testing.T) {
	a := Account{ClientID: "c1", ClientSecret: "s1", Environment: "production", SellerID: 1}
	b := Account{ClientID: "c2", ClientSecret: "s2", Environment: "production", SellerID: 2}
	var d Data
	d.SetOnlyAccount(a)
	if err := d.AddAccount(b); err != nil {
		t.Fatal(err)
	}
	if !d.ActAs(a.ID()) || d.Current().ID() != a.ID() {
		t.Fatal("ActAs did not act on the account")
	}
	var stored Data
	raw, _ := json.Marshal(&d)
	if err := json.Unmarshal(raw, &stored); err != nil || stored.Current().ID() != b.ID() {
		t.Fatalf("stored current %v (%v), want the one before ActAs", stored.Current(), err)
	}
	d.SwitchAccount(a.ID())
	raw, _ = json.Marshal(&d)
	if err := json.Unmarshal(raw, &stored); err != nil || stored.Current().ID() != a.ID() {
		t.Fatalf("stored current %v (%v) after SwitchAccount", stored.Current(), err)
	}
}
