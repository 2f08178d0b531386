package audit

import (
	"reflect"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// FuzzBoundedKeptAsIs: a text bounded lets through unchanged is one the
// full cleaning would also leave as it is, whatever its characters.
func FuzzBoundedKeptAsIs(f *testing.F) {
	for _, s := range []string{"", "Платье летнее", " lead", "trail\t", "a\u202eb", "x\u2028", "\xff", "\u0085", "\u00a0nbsp", "ok…", "e\u0301"} {
		f.Add(s, 8)
		f.Add(s, 500)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 1 || max > 1000 {
			t.Skip()
		}
		if bounded(s, max) && bound(s, max) != s {
			t.Fatalf("bounded(%q, %d) but Bound makes it %q", s, max, bound(s, max))
		}
	})
}

// TestBoundMsgsKeepsWhatIsClean: messages already clean come back as they
// are (the same slice, no copy), and messages with any part needing work
// are not taken for clean and come back cleaned.
func TestBoundMsgsKeepsWhatIsClean(t *testing.T) {
	clean := i18n.Msgs{{Text: "17399.00"}, i18n.M("prices.sale_change", map[string]any{"Sale": "15999.00", "In": i18n.M("x", nil), "List": i18n.Msgs{{Text: "a"}}})}
	if got := BoundMsgs(clean, 100); &got[0] != &clean[0] {
		t.Error("clean messages copied")
	}
	for _, ms := range []i18n.Msgs{
		{{Text: "a\nb"}},
		{{Key: "k", Args: map[string]any{"A": "x\u202e"}}},
		{{Key: "k", Args: map[string]any{"A": i18n.Msgs{}}}},
		{{Key: "k", Args: map[string]any{"A": i18n.M("x", map[string]any{"B": " pad "})}}},
		make(i18n.Msgs, MaxParts+1),
	} {
		if msgsBounded(ms, 100) {
			t.Errorf("%#v read as clean", ms)
		}
		if got := BoundMsgs(ms, 100); reflect.DeepEqual(got, ms) && len(ms) <= MaxParts {
			t.Errorf("BoundMsgs(%#v) changed nothing", ms)
		}
	}
	if BoundMsgs(i18n.Msgs{}, 10) != nil {
		t.Error("no messages not nil")
	}
}
