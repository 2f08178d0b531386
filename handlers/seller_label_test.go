package handlers

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestSellerLabel: the header's kept "seller N" is the message itself, in
// each language, for any id.
func TestSellerLabel(t *testing.T) {
	for _, l := range i18n.Langs {
		ctx := i18n.WithLang(context.Background(), l)
		for _, id := range []string{"1001", "42", "9007199254740993"} {
			want := i18n.TD(ctx, "chrome.seller", map[string]any{"ID": id})
			if got := sellerLabel(ctx, id); got != want {
				t.Fatalf("%s: %q, want %q", l, got, want)
			}
		}
	}
}
