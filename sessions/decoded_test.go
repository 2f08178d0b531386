package sessions

import (
	"fmt"
	"net/url"
	"reflect"
	"testing"
)

// twentyAccounts fills s with MaxAccounts accounts, a draft and a value,
// and saves it.
func twentyAccounts(t *testing.T, s *Session) {
	t.Helper()
	d := s.Data()
	d.SetOnlyAccount(d.Current())
	for i := 2; i <= MaxAccounts; i++ {
		a := Account{ClientID: fmt.Sprintf("client-%02d", i), ClientSecret: canarySecret + fmt.Sprint(i), Environment: "test",
			DisplayName: fmt.Sprintf("Магазин №%d", i), SellerID: int64(100000 + i)}
		if err := d.AddAccount(a); err != nil {
			t.Fatal(err)
		}
	}
	s.SetDraft("prices", url.Values{"price": {"100", "200"}})
	d.Values = map[string]string{"k": "v"}
	save(t, s)
}

// TestPayloadDecodedOncePerVersion: a session holding twenty accounts is
// read on every page, and its payload (about 3 KB of JSON) is opened and
// decoded only when the stored payload changed since this store last
// decoded or wrote it; a page that changes nothing encodes nothing to
// find that out. What a page changes in its copy never reaches the next
// page unless saved, a change saved by another instance is read, and a
// logout forgets the decoded payload.
func TestPayloadDecodedOncePerVersion(t *testing.T) {
	e := newEnv(t, testSQLiteBackend(t), nil)
	s, cookie := e.login()
	twentyAccounts(t, s)
	want := load(t, e.store, cookie).Data()

	e.store.decodes.Store(0)
	e.store.encodes.Store(0)
	for range 3 {
		got := load(t, e.store, cookie)
		if !reflect.DeepEqual(got.Data(), want) {
			t.Fatalf("loaded %v, want %v", got.Data(), want)
		}
		save(t, got) // a page that changed nothing
	}
	if n := e.store.decodes.Load(); n != 0 {
		t.Errorf("three loads of an unchanged payload decoded it %d times, want 0", n)
	}
	if n := e.store.encodes.Load(); n != 0 {
		t.Errorf("three saves of an unchanged payload encoded it %d times, want 0", n)
	}

	// A page's changes stay in its own copy unless saved.
	got := load(t, e.store, cookie)
	d := got.Data()
	d.Accounts[3].DisplayName = "changed"
	d.Drafts[d.Current().ID()+"/prices"]["price"][0] = "999"
	d.Values["k"] = "changed"
	got.AddFlash("info", "shown once")
	if again := load(t, e.store, cookie); !reflect.DeepEqual(again.Data(), want) {
		t.Fatalf("an unsaved change reached the next load: %v", again.Data())
	}

	// A change saved (here or by another instance) is read by the next load.
	save(t, got)
	if again := load(t, e.store, cookie); again.Data().Accounts[3].DisplayName != "changed" || len(again.Data().Flashes) != 1 {
		t.Fatalf("the saved change was not read: %v", again.Data())
	}
	other := e.storeWith(Options{Keys: [][]byte{testKey(1)}})
	o := load(t, other, cookie)
	o.Data().Accounts[4].DisplayName = "by another instance"
	save(t, o)
	e.store.decodes.Store(0)
	if again := load(t, e.store, cookie); again.Data().Accounts[4].DisplayName != "by another instance" {
		t.Fatalf("a change saved by another instance was not read: %v", again.Data())
	}
	if n := e.store.decodes.Load(); n != 1 {
		t.Errorf("a payload changed elsewhere was decoded %d times, want 1", n)
	}

	// Logout forgets the decoded payload (and its secrets).
	id := s.ID()
	if !e.store.decoded.has(id) {
		t.Fatal("the decoded payload is not kept")
	}
	out := load(t, e.store, cookie)
	out.Destroy()
	save(t, out)
	if e.store.decoded.has(id) {
		t.Error("the decoded payload of a session logged out is still kept")
	}
	if again := load(t, e.store, cookie); !again.IsNew() {
		t.Error("a session logged out was loaded")
	}
}

// TestDataEqualCoversEveryField: Data.equal decides whether a page
// changed the payload without encoding it, so it must compare every
// field: a field added to Data without a comparison fails here.
func TestDataEqualCoversEveryField(t *testing.T) {
	base := func() *Data {
		return &Data{ClientID: "c", ClientSecret: "s", Environment: "test", DisplayName: "d", SellerID: 1,
			Accounts: []Account{{ClientID: "c", ClientSecret: "s", Environment: "test", SellerID: 1}},
			AddAgain: &Account{ClientID: "x"}, Flashes: []Flash{{Kind: "info", Text: "t"}}, ReturnTo: "/r",
			Drafts: map[string]url.Values{"f": {"a": {"1"}}}, Values: map[string]string{"k": "v"}}
	}
	changes := map[string]func(*Data){
		"ClientID":     func(d *Data) { d.ClientID = "c2" },
		"ClientSecret": func(d *Data) { d.ClientSecret = "s2" },
		"Environment":  func(d *Data) { d.Environment = "prod" },
		"DisplayName":  func(d *Data) { d.DisplayName = "d2" },
		"SellerID":     func(d *Data) { d.SellerID = 2 },
		"Accounts":     func(d *Data) { d.Accounts[0].DisplayName = "n" },
		"AddAgain":     func(d *Data) { d.AddAgain.SellerID = 5 },
		"Flashes":      func(d *Data) { d.Flashes = append(d.Flashes, Flash{Text: "u"}) },
		"ReturnTo":     func(d *Data) { d.ReturnTo = "/x" },
		"Drafts":       func(d *Data) { d.Drafts["f"]["a"][0] = "2" },
		"Values":       func(d *Data) { d.Values["k"] = "w" },
		"home":         func(d *Data) { d.home = "acct" },
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Data]()) {
		if changes[f.Name] == nil {
			t.Errorf("Data.%s: no change tested; compare it in Data.equal and clone it in Data.clone", f.Name)
		}
	}
	for name, change := range changes {
		a, b := base(), base()
		if !a.equal(b) {
			t.Fatal("equal payloads compare unequal")
		}
		c := a.clone()
		change(b)
		if a.equal(b) {
			t.Errorf("a change of %s is not seen", name)
		}
		change(c)
		if !reflect.DeepEqual(a, base()) {
			t.Errorf("a change of %s in a clone reached the original", name)
		}
	}
}
