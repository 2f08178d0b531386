package handlers_test

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// TestAccountsFooterShowsVersion: the accounts page's footer names the
// running build (an operator asked "which version is this?" finds it
// there); other pages do not carry it.
func TestAccountsFooterShowsVersion(t *testing.T) {
	t.Parallel()
	app := testapp.New(t, testapp.Options{})
	b := app.Browser(t)
	b.Login("demo-1001", "sandbox-secret-1001", "1001", "production")
	acc := b.Get(paths.Accounts)
	if v := acc.Text("footer [data-testid=version]"); v == "" {
		t.Errorf("accounts page footer has no version: %q", acc.Text("footer"))
	}
	if v := b.Get(paths.Overview).Text("footer [data-testid=version]"); v != "" {
		t.Errorf("overview footer shows the version %q", v)
	}
}
