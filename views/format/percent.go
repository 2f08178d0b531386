package format

import (
	"strconv"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// PercentIn writes a change given in tenths of a percent the way l writes
// it, signed, with one decimal: "−88,5 %" in Russian, "−88.5 %" in
// English (the minus sign U+2212, a no-break space before the sign of
// percent).
func PercentIn(l i18n.Lang, permille int64) string {
	sign := "+"
	if permille < 0 {
		sign, permille = "−", -permille
	}
	return sign + TenthsIn(l, permille) + "\u00a0%"
}

// TenthsIn writes a non-negative number of tenths with one decimal the
// way l writes numbers: 885 → "88,5" (ru) / "88.5" (en).
func TenthsIn(l i18n.Lang, tenths int64) string {
	_, decimal := seps(l)
	return strconv.FormatInt(tenths/10, 10) + decimal + strconv.FormatInt(tenths%10, 10)
}
