package sessions

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// TestSQLiteLoadAllocations: a page's session read (the row and its
// tokens) costs what the values read need, not a set of scan variables a
// row on top; the bound sits a little above today's figure.
func TestSQLiteLoadAllocations(t *testing.T) {
	b := testSQLiteBackend(t)
	defer b.Close()
	ctx := context.Background()
	now := time.Now()
	id := "load-allocs-0123456789012345678901234567890"
	if err := b.Create(ctx, Record{ID: id, Payload: bytes.Repeat([]byte{7}, 600), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"b2b", "seller"} {
		if err := b.SaveToken(ctx, id, name, bytes.Repeat([]byte{9}, 200), now); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := b.Load(ctx, id)
	if err != nil || len(rec.Tokens) != 2 || len(rec.Payload) != 600 || !rec.ExpiresAt.Equal(now.Add(time.Hour).Truncate(time.Millisecond)) {
		t.Fatalf("Load: %d tokens, %d bytes of payload, expires %v, %v", len(rec.Tokens), len(rec.Payload), rec.ExpiresAt, err)
	}
	n := testing.AllocsPerRun(50, func() {
		if _, err := b.Load(ctx, id); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations a load", n)
	if n > 57 {
		t.Errorf("%.0f allocations a load, want at most 57", n)
	}
}
