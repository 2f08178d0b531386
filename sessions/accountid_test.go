package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
)

// TestAccountIDCheap: the header names every account of a session of
// twenty on every page, by its id; computing one allocates only the id,
// and it stays what the hash gives (bookmarks survive).
func TestAccountIDCheap(t *testing.T) {
	a := Account{ClientID: "client-hashed-once", ClientSecret: "s", Environment: "test", SellerID: 77}
	first := a.ID()
	sum := sha256.Sum256([]byte("account\x00" + a.ClientID + "\x00" + strconv.FormatInt(a.SellerID, 10) + "\x00" + a.Environment))
	if want := hex.EncodeToString(sum[:6]); first != want {
		t.Fatalf("id %q, the hash gives %q", first, want)
	}
	b := a
	b.ClientSecret, b.DisplayName = "another secret", "another name" // not part of the id
	if id := b.ID(); id != first {
		t.Errorf("id %s, then %s", first, id)
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.ID() }); n > 1 {
		t.Errorf("an id costs %.0f allocations, want 1", n)
	}
	for _, other := range []Account{{ClientID: a.ClientID, Environment: "production", SellerID: 77}, {ClientID: a.ClientID, Environment: "test", SellerID: 78}} {
		if other.ID() == first {
			t.Errorf("%v has the id of %v", other, a)
		}
	}
}
