package massupdate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// signalCopy is a copy that tells, by SKU, which rows it was given.
type signalCopy struct {
	mu      sync.Mutex
	k       copystore.Key
	skus    []string
	calls   int
	given   chan struct{} // signalled after each Accept
	failure error
}

func (s *signalCopy) Accept(_ context.Context, k copystore.Key, changes []copystore.Change) error {
	s.mu.Lock()
	s.k = k
	s.calls++
	for _, c := range changes {
		s.skus = append(s.skus, c.SKU)
	}
	s.mu.Unlock()
	select {
	case s.given <- struct{}{}:
	default:
	}
	return s.failure
}

func (s *signalCopy) Confirm(context.Context, copystore.Key, time.Time, []apiclient.Nomenclature) error {
	return nil
}

func (s *signalCopy) has(sku string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.skus, sku)
}

// copyKind is a kind of test whose rows the copy takes as prices.
func copyKind(answer func(chunk []string) (*apiclient.UpdateResult, error), sent *[][]string) Kind[string] {
	k := testKind(answer, sent)
	k.Change = func(s string) copystore.Change { return copystore.Change{SKU: s, Price: new(int64(100))} }
	return k
}

// A send given the copy writes each chunk's accepted rows into it while
// the next chunk is in flight, not after the last answer: the second
// chunk's request waits (a generous deadline) until the first chunk's
// accepted row is in the copy. Rejected, unanswered and unsent rows are
// never written, and PatchCopy afterwards (the step that records the
// change) writes nothing a second time.
func TestSendPatchesCopyChunkByChunk(t *testing.T) {
	cp := &signalCopy{given: make(chan struct{}, 16)}
	k := copystore.Key{SellerID: 7, Env: "test"}
	var sent [][]string
	kind := copyKind(func(chunk []string) (*apiclient.UpdateResult, error) {
		switch chunk[0] {
		case "A":
			return &apiclient.UpdateResult{Errors: []apiclient.ItemError{{MarketplaceSKU: "B", Messages: []string{"no"}}}}, nil
		case "C":
			deadline := time.Now().Add(20 * time.Second)
			for !cp.has("A") {
				if time.Now().After(deadline) {
					return nil, errors.New("the first chunk's accepted row never reached the copy while the second was in flight")
				}
				select {
				case <-cp.given:
				case <-time.After(50 * time.Millisecond):
				}
			}
			return &apiclient.UpdateResult{}, nil
		default: // E: no answer
			return nil, fmt.Errorf("chunk 3: %w", apiclient.ErrOutcomeUnknown)
		}
	}, &sent)
	rep, err := SendPatching(context.Background(), &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 7, kind,
		[]string{"A", "B", "C", "D", "E", "F", "G"}, nil, CopyAt{Copy: cp, Key: k})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped == nil || !errors.Is(rep.Stopped, apiclient.ErrOutcomeUnknown) {
		t.Fatalf("the run stopped with %v; want the third chunk unanswered (the second chunk's wait failed?)", rep.Stopped)
	}
	if rep.Accepted != 3 || rep.Rejected != 1 || rep.Unknown != 2 || rep.Unsent != 1 {
		t.Errorf("counts %d accepted, %d rejected, %d unknown, %d unsent", rep.Accepted, rep.Rejected, rep.Unknown, rep.Unsent)
	}
	cp.mu.Lock()
	got, calls, gotKey := slices.Clone(cp.skus), cp.calls, cp.k
	cp.mu.Unlock()
	slices.Sort(got)
	if !slices.Equal(got, []string{"A", "C", "D"}) || gotKey != k {
		t.Errorf("the copy %+v was given %v; want %+v given the accepted A, C, D", gotKey, got, k)
	}
	if err := PatchCopy(context.Background(), cp, k, kind, rep, []string{"A", "B", "C", "D", "E", "F", "G"}); err != nil {
		t.Fatal(err)
	}
	cp.mu.Lock()
	again := cp.calls
	cp.mu.Unlock()
	if again != calls {
		t.Errorf("PatchCopy after a send that wrote the copy wrote it again (%d writes, then %d)", calls, again)
	}
}

// A copy that refuses a chunk's rows does not stop the send (the change
// was made at the marketplace); PatchCopy, where the caller records the
// change, returns the copy's error as it did when it wrote the rows itself.
func TestSendPatchingCopyFails(t *testing.T) {
	down := errors.New("copy down")
	cp := &signalCopy{given: make(chan struct{}, 16), failure: down}
	var sent [][]string
	kind := copyKind(func([]string) (*apiclient.UpdateResult, error) { return &apiclient.UpdateResult{}, nil }, &sent)
	items := []string{"A", "B", "C"}
	rep, err := SendPatching(context.Background(), &Engine{Locker: &fakeLocker{}, ChunkSize: 2}, nil, 7, kind, items, nil, CopyAt{Copy: cp})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 3 || len(sent) != 2 {
		t.Errorf("%d accepted in %d chunks; want 3 in 2", rep.Accepted, len(sent))
	}
	if err := PatchCopy(context.Background(), cp, copystore.Key{}, kind, rep, items); !errors.Is(err, down) {
		t.Errorf("PatchCopy = %v; want the copy's error", err)
	}
}
