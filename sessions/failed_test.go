package sessions

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
)

// Options.Failed hears of each operation the database failed, by its
// name, and not of a session that is merely not found.
func TestFailedHearsDatabaseFailures(t *testing.T) {
	b := testSQLiteBackend(t)
	var mu sync.Mutex
	var ops []string
	st, err := NewStore(b, Options{Keys: [][]byte{bytes.Repeat([]byte{1}, KeySize)}, Failed: func(op string) {
		mu.Lock()
		defer mu.Unlock()
		ops = append(ops, op)
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := st.LoadTokens(ctx, "no-such-session"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("LoadTokens of an unknown session: %v, want ErrNotFound", err)
	}
	if len(ops) != 0 {
		t.Fatalf("a session not found was reported as a failure: %v", ops)
	}
	_ = b.Close() // the database goes away
	if _, err := st.LoadTokens(ctx, "no-such-session"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("LoadTokens on a closed database: %v, want ErrUnavailable", err)
	}
	if err := st.delete(ctx, "no-such-session"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("delete on a closed database: %v, want ErrUnavailable", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(ops, []string{"load tokens", "delete"}) {
		t.Errorf("Failed heard %v, want [load tokens delete]", ops)
	}
}
