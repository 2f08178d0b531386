package sessions

import "testing"

// TestAccountIDHashedOnce: the header names every account of a session
// of twenty on every page, by its id; an account's id is hashed once,
// not at each use, and stays what the hash gives (bookmarks survive).
func TestAccountIDHashedOnce(t *testing.T) {
	a := Account{ClientID: "client-hashed-once", ClientSecret: "s", Environment: "test", SellerID: 77}
	first := a.ID()
	before := accountHashes.Load()
	for range 5 {
		b := a
		b.ClientSecret, b.DisplayName = "another secret", "another name" // not part of the id
		if id := b.ID(); id != first {
			t.Fatalf("id %s, then %s", first, id)
		}
	}
	if n := accountHashes.Load() - before; n != 0 {
		t.Errorf("five uses of a known account's id hashed it %d times, want 0", n)
	}
	if first != accountID(a) || len(first) != 12 {
		t.Errorf("id %q, the hash gives %q", first, accountID(a))
	}
	for _, other := range []Account{{ClientID: a.ClientID, Environment: "production", SellerID: 77}, {ClientID: a.ClientID, Environment: "test", SellerID: 78}} {
		if other.ID() == first {
			t.Errorf("%v has the id of %v", other, a)
		}
	}
}
