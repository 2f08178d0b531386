package pages

import (
	"context"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/i18n"
)

func TestSummaryText(t *testing.T) {
	tests := []struct {
		in   Summary
		want string
	}{
		{Summary{Updated: 17, Rejected: 3}, "17 updated, 3 rejected."},
		{Summary{Invalid: 4, Note: i18n.Of(i18n.M("prices.fix_first", nil))}, "0 updated, 0 rejected, 4 to fix. Nothing was sent: fix the marked fields first."},
		{Summary{Updated: 2, Note: i18n.Plain("Sending stopped early.")}, "2 updated, 0 rejected. Sending stopped early."},
	}
	for _, tt := range tests {
		if got := summaryText(context.Background(), &tt.in); got != tt.want {
			t.Errorf("summaryText(%+v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSummaryTextInRussian(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	got := summaryText(ctx, &Summary{Updated: 17, Rejected: 3, Invalid: 4})
	if want := "Обновлено: 17, отклонено: 3, исправить: 4."; got != want {
		t.Errorf("summaryText = %q, want %q", got, want)
	}
}

// TestSummaryNoteKeptAsData: massupdate's note (a message kept as data)
// reads in the page's language.
func TestSummaryNoteKeptAsData(t *testing.T) {
	note := i18n.Of(i18n.M("mass.stopped_early", map[string]any{"Reason": i18n.Of(i18n.M("mass.busy", nil))}),
		i18n.M("mass.note_unsent", map[string]any{"Count": 2}))
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	if got, want := summaryText(ctx, &Summary{Updated: 1, Note: note}), "Обновлено: 1, отклонено: 0. Отправка остановлена раньше времени (маркетплейс занят). 2 строки не отправлены: отправьте форму снова."; got != want {
		t.Errorf("ru %q\nwant %q", got, want)
	}
	if got, want := summaryText(context.Background(), &Summary{Updated: 1, Note: note}), "1 updated, 0 rejected. Sending stopped early (the marketplace is busy). 2 rows were not sent: submit again to send them."; got != want {
		t.Errorf("en %q\nwant %q", got, want)
	}
}

// TestSummaryCountsEveryFate: the line counts rows not sent, unanswered
// and unchanged, grouped by thousands, and says how many rows that need
// attention are not listed, in both languages.
func TestSummaryCountsEveryFate(t *testing.T) {
	s := Summary{Updated: 6000, Rejected: 1500, Unsent: 2400, Unknown: 100, Unchanged: 10, Shown: 100, NotShown: 3900}
	if got, want := summaryText(context.Background(), &s), "6,000 updated, 1,500 rejected, 2,400 not sent, 100 without an answer, 10 unchanged. Listed: the first 100 rows that need attention; 3,900 more are not listed. Fix the listed rows and submit again: unlisted changes not yet sent are kept in the form and sent with them."; got != want {
		t.Errorf("en %q\nwant %q", got, want)
	}
	ru := i18n.WithLang(context.Background(), i18n.RU)
	got := summaryText(ru, &s)
	for _, w := range []string{"отклонено: 1", "не отправлено: 2", "без ответа: 100", "без изменений: 10", "первые 100; ещё 3", "строк не показаны"} {
		if !strings.Contains(got, w) {
			t.Errorf("ru %q lacks %q", got, w)
		}
	}
}

// TestSummaryToneWarnsOfRowsNotSent: rows not sent or not answered need
// the user as refused ones do.
func TestSummaryToneWarnsOfRowsNotSent(t *testing.T) {
	for _, s := range []Summary{{Updated: 3, Unsent: 2}, {Updated: 3, Unknown: 1}, {Rejected: 1}} {
		if got := summaryTone(&s); got != "warn" {
			t.Errorf("summaryTone(%+v) = %q, want warn", s, got)
		}
	}
	if got := summaryTone(&Summary{Updated: 3, Unchanged: 9}); got != "ok" {
		t.Errorf("all sent and accepted: %q, want ok", got)
	}
}
