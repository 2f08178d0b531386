package sessions

import (
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
