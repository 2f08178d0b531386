package pages

import (
	"context"

	"github.com/sellerdesk/sellerdesk/views/i18n"
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
