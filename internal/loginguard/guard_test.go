package loginguard

import (
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// TestGuardMemoryBound: entries are capped and expire.
func TestGuardMemoryBound(t *testing.T) {
	th := New(Limits{MaxEntries: 100, Window: time.Minute})
	now := time.Unix(1_000_000, 0)
	for i := range 1000 {
		th.Begin(NewKeys(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), fmt.Sprint("c", i)), now)
		if n := th.size(); n > 100 {
			t.Fatalf("%d entries after %d attempts, cap 100", n, i+1)
		}
	}
	// Expired entries are swept before anything recent is evicted.
	later := now.Add(2 * time.Minute)
	k := NewKeys(netip.MustParseAddr("192.0.2.1"), "victim")
	th.Begin(k, later)
	th.Begin(k, later)
	for i := range 98 {
		th.Begin(NewKeys(netip.Addr{}, fmt.Sprint("x", i)), later)
	}
	th.mu.Lock()
	_, kept := th.entries[k.client]
	th.mu.Unlock()
	if !kept {
		t.Error("a live entry was evicted while expired ones remained")
	}
	// IPv6 clients count per /64.
	a := NewKeys(netip.MustParseAddr("2001:db8::1"), "c")
	b := NewKeys(netip.MustParseAddr("2001:db8::ffff"), "c")
	if a.ip != b.ip {
		t.Error("two addresses of one /64 count apart")
	}
}

// TestGuardSuccessKeepsAddressFailures: a valid login of one client id
// every few guesses at others from the same address no longer wipes the
// address's count (the bypass: 40 guesses, one valid login every 8, and
// not one refused).
func TestGuardSuccessKeepsAddressFailures(t *testing.T) {
	th := New(Limits{MaxClientsPerAddress: 1000}) // the per-address failure count alone
	ip := netip.MustParseAddr("203.0.113.7")
	mine := NewKeys(ip, "mine")
	now := time.Unix(1_000_000, 0)
	started, refused := 0, 0
	for guess := range 40 {
		now = now.Add(time.Second)
		if !th.Begin(NewKeys(ip, fmt.Sprint("victim-", guess)), now).IsZero() {
			refused++
		} else {
			started++ // a wrong guess: stays counted
		}
		if guess%8 == 7 {
			now = now.Add(time.Second)
			if th.Begin(mine, now).IsZero() {
				th.Succeeded(mine)
			}
		}
	}
	if refused == 0 {
		t.Fatalf("40 guesses from one address with a valid login every 8: none refused")
	}
	if _, most := th.rule(mine.ip); started > most {
		t.Errorf("%d guesses reached the marketplace, the address limit is %d", started, most)
	}
	th.mu.Lock()
	failures := th.entries[mine.ip].failures
	_, mineKept := th.entries[mine.client]
	th.mu.Unlock()
	if failures != started {
		t.Errorf("the address counts %d failures, want the %d wrong guesses", failures, started)
	}
	if mineKept {
		t.Error("the client id that logged in still has failures counted")
	}
}

// TestGuardFullTableKeepsLockouts: spraying other client ids until the
// table is full neither evicts a running lockout nor makes room for new
// keys: new keys are refused until an entry expires (fail closed).
func TestGuardFullTableKeepsLockouts(t *testing.T) {
	const size = 100
	l := Limits{MaxEntries: size, Free: 3, Max: 10, BaseDelay: time.Millisecond, Lockout: 15 * time.Minute, Window: 15 * time.Minute}
	th := New(l)
	now := time.Unix(1_000_000, 0)
	victim := NewKeys(netip.Addr{}, "victim")
	for range 10 {
		now = now.Add(time.Second) // past the short delays between failures
		if !th.Begin(victim, now).IsZero() {
			t.Fatal("refused before the lockout")
		}
	}
	if th.WaitUntil(victim, now).IsZero() {
		t.Fatal("10 failures did not lock the client id")
	}
	refused := 0
	for i := range 2 * size {
		k := NewKeys(netip.AddrFrom4([4]byte{198, 51, byte(i >> 8), byte(i)}), fmt.Sprint("spray-", i))
		if !th.Begin(k, now.Add(time.Second)).IsZero() {
			refused++
		}
		if n := th.size(); n > size {
			t.Fatalf("%d entries, cap %d", n, size)
		}
	}
	if refused == 0 {
		t.Error("a full table made room for new keys")
	}
	if th.Begin(victim, now.Add(2*time.Second)).IsZero() {
		t.Fatal("after the spray, the locked client id may try again: its lockout was evicted")
	}
	// Once the window has passed, expired entries make room again.
	after := now.Add(l.Lockout + l.Window + time.Minute)
	if !th.Begin(NewKeys(netip.Addr{}, "newcomer"), after).IsZero() {
		t.Error("a new key is refused after every entry expired")
	}
}

// TestGuardClientsPerAddress: one address may try a bounded number of
// distinct client ids within the window; ids it already tried stay
// allowed, and the bound lifts when the window passes.
func TestGuardClientsPerAddress(t *testing.T) {
	l := Limits{MaxClientsPerAddress: 5, Free: 100, Max: 200, Window: time.Minute}
	th := New(l)
	ip := netip.MustParseAddr("192.0.2.44")
	now := time.Unix(1_000_000, 0)
	for i := range 5 {
		if !th.Begin(NewKeys(ip, fmt.Sprint("id-", i)), now).IsZero() {
			t.Fatalf("client id %d of 5 refused", i)
		}
	}
	if th.Begin(NewKeys(ip, "id-6"), now).IsZero() {
		t.Fatal("a sixth client id from one address was allowed")
	}
	if !th.Begin(NewKeys(ip, "id-0"), now).IsZero() {
		t.Error("a client id the address already tried was refused")
	}
	if !th.Begin(NewKeys(netip.MustParseAddr("192.0.2.45"), "id-6"), now).IsZero() {
		t.Error("another address was refused")
	}
	if !th.Begin(NewKeys(ip, "id-6"), now.Add(2*time.Minute)).IsZero() {
		t.Error("the bound did not lift after the window")
	}
}

// TestGuardOnlyFailedClientsCount: the bound on client ids per address
// counts the client ids that failed, not those that logged in (a session
// adding its 20 accounts) nor attempts taken back (the marketplace busy):
// a colleague at the same address logs in to a 21st. Once 20 client ids
// failed, the next is refused for that reason.
func TestGuardOnlyFailedClientsCount(t *testing.T) {
	th := New(Limits{Free: 100, Max: 200}) // the bound alone, not the waits
	limit := th.Limits().MaxClientsPerAddress
	ip := netip.MustParseAddr("192.0.2.50")
	now := time.Unix(1_000_000, 0)
	for i := range limit {
		k := NewKeys(ip, fmt.Sprint("ok-", i))
		if until, why := th.BeginWhy(k, now); !until.IsZero() {
			t.Fatalf("login %d of %d refused (%v)", i+1, limit, why)
		}
		if i%2 == 0 {
			th.Succeeded(k)
		} else {
			th.Uncount(k)
		}
	}
	if until, why := th.BeginWhy(NewKeys(ip, "colleague"), now); !until.IsZero() {
		t.Fatalf("after %d successful logins from the address, a colleague's client id is refused until %v (%v)", limit, until, why)
	}
	th.Succeeded(NewKeys(ip, "colleague"))

	for i := range limit {
		if until := th.Begin(NewKeys(ip, fmt.Sprint("bad-", i)), now); !until.IsZero() {
			t.Fatalf("failed client id %d of %d refused", i+1, limit)
		}
	}
	if until, why := th.BeginWhy(NewKeys(ip, "one-more"), now); until.IsZero() || why != TooManyClients {
		t.Errorf("after %d failed client ids: wait until %v for %v, want a wait for TooManyClients", limit, until, why)
	}
}
