package handlers

import (
	"context"
	"testing"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// TestReportItemsInTheSendersLanguage: the dashboard's own words recorded
// with an item not answered or not sent are in the sender's language; the
// marketplace's messages are kept as sent.
func TestReportItemsInTheSendersLanguage(t *testing.T) {
	rep := &massupdate.Report{Outcomes: map[string]massupdate.Outcome{
		"a": {State: massupdate.Unknown},
		"b": {State: massupdate.Unsent},
		"c": {State: massupdate.Rejected, Messages: []string{"Price drop over 90%"}},
	}}
	texts := func(string) (string, string) { return "1", "2" }
	for _, c := range []struct {
		lang                i18n.Lang
		unknown, unsent, mp string
	}{
		{i18n.RU, "Отправлено, ответа нет: возможно, применено, а возможно, нет.", "Не отправлено.", "Price drop over 90%"},
		{i18n.EN, "Sent, no answer: it may or may not have been applied.", "Not sent.", "Price drop over 90%"},
	} {
		items, _ := reportItems(i18n.WithLang(context.Background(), c.lang), rep, []string{"a", "b", "c"}, texts)
		if len(items) != 3 || items[0].Outcome != audit.Unknown || items[0].Message != c.unknown || items[1].Message != c.unsent || items[2].Message != c.mp {
			t.Errorf("%s: %+v", c.lang, items)
		}
	}
}
