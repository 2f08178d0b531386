package flash

import "testing"

// TestOf: the four kinds read back as themselves, anything else as Info.
func TestOf(t *testing.T) {
	for in, want := range map[string]Kind{"ok": OK, "info": Info, "warn": Warn, "bad": Bad, "": Info, "success": Info, "x onmouseover": Info} {
		if got := Of(in); got != want {
			t.Errorf("Of(%q) = %q, want %q", in, got, want)
		}
	}
}
