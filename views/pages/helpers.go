package pages

import (
	"context"

	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
)

// summaryText is the sentence above a table after a submit, in the
// language of ctx.
func summaryText(ctx context.Context, s *Summary) string {
	out := i18n.TD(ctx, "nomenclature.summary", map[string]any{"Updated": s.Updated, "Rejected": s.Rejected})
	if s.Invalid > 0 {
		out += i18n.TD(ctx, "nomenclature.summary_invalid", map[string]any{"Invalid": s.Invalid})
	}
	out += "."
	if note := format.Message(ctx, s.Note); note != "" {
		out += " " + note
		if note[len(note)-1] != '.' {
			out += "."
		}
	}
	return out
}

func summaryTone(s *Summary) string {
	switch {
	case s.Rejected > 0 || s.Invalid > 0:
		return "warn"
	case s.Updated > 0:
		return "ok"
	default:
		return "info"
	}
}

func errorTone(status int) string {
	if status == 429 || status == 503 {
		return "warn"
	}
	return "bad"
}
