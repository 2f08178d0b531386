package paths

import (
	"context"
	"net/url"
	"testing"
)

func TestParameterisedPaths(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Order("A-1_b"), "/orders/A-1_b"},
		{Order("a/b?c"), "/orders/a%2Fb%3Fc"},
		{Job("abc123"), "/bulk/jobs/abc123"},
		{JobProgress("x y"), "/bulk/jobs/x%20y/progress"},
		{Export(Prices, "xlsx"), "/prices/export.xlsx"},
		{ExportWhole(Nomenclature, "csv"), "/nomenclature/export.csv?all=1"},
		{ExportAll("csv"), "/nomenclature/export-all.csv"},
		{Filtered(Orders, "status", "a&b"), "/orders?status=a%26b"},
		{WithQuery(History, url.Values{"q": {"x"}, "kind": {"price"}}), "/history?kind=price&q=x"},
		{WithQuery(History, nil), "/history"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The router registers the link helpers given the parameter's pattern:
// the pattern must come out unescaped.
func TestPatterns(t *testing.T) {
	if got := Job(":id"); got != "/bulk/jobs/:id" {
		t.Errorf("Job(:id) = %q", got)
	}
	if got := JobErrorsCSV(":id"); got != "/bulk/jobs/:id/errors.csv" {
		t.Errorf("JobErrorsCSV(:id) = %q", got)
	}
	if got := Order(":orderNr"); got != "/orders/:orderNr" {
		t.Errorf("Order(:orderNr) = %q", got)
	}
}

func TestAccountPaths(t *testing.T) {
	ctx := WithAccount(context.Background(), "ab12")
	if got := In(ctx, Orders); got != "/a/ab12/orders" {
		t.Errorf("In = %q", got)
	}
	if got := In(context.Background(), Orders); got != Orders {
		t.Errorf("In without an account = %q", got)
	}
	if id, rest, ok := Split("/a/ab12/bulk/jobs/x"); !ok || id != "ab12" || rest != "/bulk/jobs/x" {
		t.Errorf("Split = %q %q %v", id, rest, ok)
	}
	if _, _, ok := Split("/orders"); ok {
		t.Error("Split of a path outside every account")
	}
}
