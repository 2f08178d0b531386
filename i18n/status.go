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

// paymentKeys label the payment methods the marketplace names on an order.
var paymentKeys = map[string]string{
	"COD": K("payment.COD"), "card": K("payment.card"), "sbp": K("payment.sbp"),
}

// Payment labels an order's payment method in the language of ctx: COD →
// «Наложенный платёж» / "cash on delivery". A method the catalogues do not
// know is shown as the marketplace sent it.
func Payment(ctx context.Context, method string) string {
	if method == "" {
		return "—"
	}
	if key, ok := paymentKeys[method]; ok {
		return In(LangOf(ctx), key, nil, nil)
	}
	return method
}

// notificationKeys label the kinds of notification the marketplace resends.
var notificationKeys = map[string]string{
	"statusChanged":                   K("notification.statusChanged"),
	"itemStatusChanged":               K("notification.itemStatusChanged"),
	"fulfilmentShipmentStatusChanged": K("notification.fulfilmentShipmentStatusChanged"),
}

// maxListed bounds the kinds of notification NotificationTypes names one
// by one; the rest are kept as sent, in one part.
const maxListed = 8

// NotificationTypes is a list of notification kinds kept as data: each
// known kind by its label (statusChanged → «смена статуса заказа»), an
// unknown one as the marketplace named it, the kinds separated by commas.
func NotificationTypes(types []string) Msgs {
	var parts []Msg
	for i, t := range types {
		if i == maxListed {
			parts = append(parts, Msg{Text: Clean(strings.Join(types[i:], ", ")), Verbatim: true})
			break
		}
		if key, ok := notificationKeys[t]; ok {
			parts = append(parts, Msg{Key: key})
		} else if t != "" {
			parts = append(parts, Msg{Text: Clean(t), Verbatim: true})
		}
	}
	if len(parts) == 0 {
		return nil
	}
	// "a, b, c" as nested pairs: a, (b, c).
	list := parts[len(parts)-1]
	for i := len(parts) - 2; i >= 0; i-- {
		list = M("list.pair", map[string]any{"A": parts[i], "B": list})
	}
	return Of(list)
}

// Env labels an environment ("production", "test") in the language of
// ctx; another value is shown as it is.
func Env(ctx context.Context, env string) string {
	switch env {
	case "production":
		return T(ctx, "env.production")
	case "test":
		return T(ctx, "env.test")
	}
	return env
}

// StatusCode reads a status cell of an imported file as one of codes: the
// code itself in any case ("ONLINE"), or its label in either catalogue
// («В продаже», "on sale"), as the dashboard's exports write it; any other
// text comes back trimmed and lower-cased, for the import to refuse.
func StatusCode(cell string, codes []string) string {
	cell = strings.TrimSpace(cell)
	for _, c := range codes {
		if strings.EqualFold(cell, c) {
			return c
		}
		for _, l := range []Lang{RU, EN} {
			if Has(l, "status."+c) && strings.EqualFold(cell, In(l, "status."+c, nil, nil)) {
				return c
			}
		}
	}
	return strings.ToLower(cell)
}
