package pages

import (
	"context"
	"strconv"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// editLabel is the label of an editable cell in a retry's preview (issue
// 17 item 8).
func editLabel(ctx context.Context, field string) string {
	switch field {
	case "price":
		return i18n.T(ctx, "jobs.edit_price")
	case "sale":
		return i18n.T(ctx, "jobs.edit_sale")
	case "quantity":
		return i18n.T(ctx, "jobs.edit_quantity")
	}
	return i18n.T(ctx, "jobs.edit_status")
}

// plainCount is data for the preview's count badges: in English the count
// is written as the badges wrote it before the catalogues (1840 invalid),
// in Russian grouped (1 840 с ошибками).
func plainCount(ctx context.Context, n int, data map[string]any) map[string]any {
	if i18n.LangOf(ctx) != i18n.EN {
		return data
	}
	out := map[string]any{"Count": strconv.Itoa(n)}
	for k, v := range data {
		out[k] = v
	}
	return out
}

// guardCount is the guarded rows the preview's badge counts: in a preview
// without the rows changed meanwhile, which have a badge of their own.
func guardCount(v JobView) int {
	if v.Preview {
		return v.Counts.Guard - v.Counts.Meanwhile
	}
	return v.Counts.Guard
}
