package browse

import (
	"slices"
	"testing"

	"github.com/sellerdesk/sellerdesk/massupdate"
)

// TestStatusChoices: a record's choices are the seller's statuses the
// marketplace allows from its own, after its own when moderation set it.
func TestStatusChoices(t *testing.T) {
	t.Parallel()
	for _, current := range append([]string{"", "unheard_of"}, massupdate.Statuses...) {
		got := StatusChoices(current)
		rest := got
		if current != "" && !slices.Contains(sellerStatuses, current) {
			if len(got) == 0 || got[0] != current {
				t.Errorf("%q: %v, want its own status first", current, got)
				continue
			}
			rest = got[1:]
		}
		for _, s := range sellerStatuses {
			if allowed := len(massupdate.StatusRefused(current, s)) == 0; allowed != slices.Contains(rest, s) {
				t.Errorf("%q: %v, %s allowed %v", current, got, s, allowed)
			}
		}
	}
	if got := StatusChoices("online"); !slices.Contains(got, "disabled") {
		t.Errorf("online: %v, want disabled among the choices", got)
	}
}
