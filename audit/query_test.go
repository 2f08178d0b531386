package audit

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestParseQuery(t *testing.T) {
	t.Parallel()
	base := Filter{SellerID: 7, Environment: "test"}
	q := ParseQuery(url.Values{"page": {"3"}, "q": {strings.Repeat("a", MaxSearchText+10)}, "kind": {KindStock},
		"from": {"2026-01-02"}, "to": {" 2026-01-05 "}}.Get, base)
	if q.Page != 3 || !strings.HasSuffix(q.Text, "…") || q.Filter.Text != q.Text || q.Kind != KindStock || q.Filter.Kind != KindStock ||
		q.From != "2026-01-02" || q.To != "2026-01-05" || len(q.Problems) != 0 || !q.Filtered() {
		t.Fatalf("query %+v", q)
	}
	if q.Filter.SellerID != 7 || q.Filter.Environment != "test" ||
		!q.Filter.From.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) || !q.Filter.To.Equal(time.Date(2026, 1, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("filter %+v: the to day is whole", q.Filter)
	}
	q = ParseQuery(url.Values{"page": {"0"}, "kind": {"delete"}, "from": {"02.01.2026"}, "to": {"tomorrow"}}.Get, base)
	if q.Page != 1 || q.Kind != "" || q.Filter.Kind != "" || q.From != "" || !q.Filter.From.IsZero() || !q.Filter.To.IsZero() || q.Filtered() {
		t.Errorf("values not understood kept: %+v", q)
	}
	if len(q.Problems) != 2 || !strings.Contains(q.Problems[0].In(i18n.EN, nil), `"02.01.2026"`) {
		t.Errorf("problems %+v", q.Problems)
	}
}

func TestLabelKeys(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds {
		if KindKey(k) == "" {
			t.Errorf("kind %s has no label", k)
		}
	}
	if key, tone := OutcomeKey(Refused); key == "" || tone != "bad" {
		t.Errorf("refused: %q %q", key, tone)
	}
	if key, tone := OutcomeKey("other"); key != "" || tone != "info" {
		t.Errorf("an outcome without a label: %q %q", key, tone)
	}
}
