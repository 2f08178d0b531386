package i18n

import (
	"context"
	"strings"
)

// StatusValues are the marketplace status values the catalogues label
// (docs/CONTRACTS.md: orders, nomenclature, price updates, return boxes,
// notifications). Each has a "status.<value>" key in both catalogues.
var StatusValues = []string{
	"new", "confirmed", "to_delivery", "delivered", "canceled", "returned",
	"online", "in_moderation", "rejected", "disabled",
	"OK", "PROCESSING", "ERROR", "QUARANTINE",
	"in_progress", "accepted", "loading", "shipped",
	"processing",
}

// Status labels a marketplace status in the language of ctx: new → «Новый»
// / "new". A value the catalogues do not know (the marketplace may add
// states) is shown as the marketplace sent it, "_" read as a space.
func Status(ctx context.Context, status string) string {
	if status == "" {
		return "—"
	}
	return statusIn(LangOf(ctx), status)
}

func statusIn(l Lang, status string) string {
	if status == "" {
		return "—"
	}
	if Has(l, "status."+status) {
		return In(l, "status."+status, nil, nil)
	}
	return strings.ReplaceAll(strings.ToLower(status), "_", " ")
}
