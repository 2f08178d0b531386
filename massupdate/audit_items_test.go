package massupdate_test

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// TestAuditItemsKeepMessagesAsData: the dashboard's own words recorded
// with an item not answered or not sent are messages, read in whichever
// language the history's reader has; the marketplace's messages are kept
// as sent.
func TestAuditItemsKeepMessagesAsData(t *testing.T) {
	t.Parallel()
	rep := &massupdate.Report{Outcomes: map[string]massupdate.Outcome{
		"a": {State: massupdate.Unknown},
		"b": {State: massupdate.Unsent},
		"c": {State: massupdate.Rejected, Messages: i18n.Plain("Price drop over 90%")},
	}, Unmatched: map[string]i18n.Msgs{"W|1": i18n.Plain("by barcode")}}
	texts := func(string) (i18n.Msgs, i18n.Msgs) { return i18n.Plain("1"), i18n.Plain("2") }
	items, note := rep.AuditItems([]string{"a", "b", "c"}, texts)
	if len(items) != 3 || items[0].Outcome != audit.Unknown {
		t.Fatalf("items %+v", items)
	}
	for _, c := range []struct {
		lang                i18n.Lang
		unknown, unsent, mp string
	}{
		{i18n.RU, "Отправлено, ответа нет: возможно, применено, а возможно, нет.", "Не отправлено.", "Price drop over 90%"},
		{i18n.EN, "Sent, no answer: it may or may not have been applied.", "Not sent.", "Price drop over 90%"},
	} {
		if got := [3]string{items[0].Message.In(c.lang, nil), items[1].Message.In(c.lang, nil), items[2].Message.In(c.lang, nil)}; got != [3]string{c.unknown, c.unsent, c.mp} {
			t.Errorf("%s: %q", c.lang, got)
		}
	}
	if got := note.In(i18n.EN, nil); got != "W|1: by barcode" {
		t.Errorf("unmatched errors in the entry's message: %q", got)
	}
}
