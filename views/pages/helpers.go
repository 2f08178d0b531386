package pages

import (
	"context"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// summaryText is the sentence above a table after a submit, in the
// language of ctx.
func summaryText(ctx context.Context, s *Summary) string {
	l := i18n.LangOf(ctx)
	n := func(v int) string { return format.ThousandsIn(l, v) }
	out := i18n.TD(ctx, "nomenclature.summary", map[string]any{"Updated": n(s.Updated), "Rejected": n(s.Rejected)})
	if s.Invalid > 0 {
		out += i18n.TD(ctx, "nomenclature.summary_invalid", map[string]any{"Invalid": n(s.Invalid)})
	}
	if s.Unsent > 0 {
		out += i18n.TD(ctx, "nomenclature.summary_unsent", map[string]any{"Unsent": n(s.Unsent)})
	}
	if s.Held > 0 {
		out += i18n.TD(ctx, "prices.summary_held", map[string]any{"Held": n(s.Held)})
	}
	if s.Unknown > 0 {
		out += i18n.TD(ctx, "nomenclature.summary_unknown", map[string]any{"Unknown": n(s.Unknown)})
	}
	if s.Unchanged > 0 {
		out += i18n.TD(ctx, "nomenclature.summary_unchanged", map[string]any{"Unchanged": n(s.Unchanged)})
	}
	out += "."
	if note := format.Message(ctx, s.Note); note != "" {
		out += " " + note
		if note[len(note)-1] != '.' {
			out += "."
		}
	}
	if s.NotShown > 0 {
		out += " " + i18n.ND(ctx, "nomenclature.summary_not_shown", s.NotShown, map[string]any{"Shown": n(s.Shown)})
	}
	return out
}

func summaryTone(s *Summary) string {
	switch {
	case s.Rejected > 0 || s.Invalid > 0 || s.Unsent > 0 || s.Unknown > 0 || s.Held > 0:
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

// atWarehouse is " at WH" of a row's field labels, or "" for a record
// without a warehouse.
func atWarehouse(ctx context.Context, wh string) string {
	if wh == "" {
		return ""
	}
	return i18n.T(ctx, "nomenclature.at") + wh
}
