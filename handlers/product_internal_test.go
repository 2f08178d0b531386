package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// TestPriceChartEmpty: no point, or one, draws nothing and says why in
// the reader's language (the one price with its time); two draw both
// widths with the same steps.
func TestPriceChartEmpty(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	l := format.LocaleOf(ctx)
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	if pc := priceChart(ctx, l, "x", nil, now); pc.Drawn || pc.Empty != i18n.T(ctx, "product.chart_none") {
		t.Errorf("no point: %+v", pc)
	}
	one := []copystore.PricePoint{{At: now.Add(-time.Hour), Price: 129900}}
	if pc := priceChart(ctx, l, "x", one, now); pc.Drawn || !strings.Contains(pc.Empty, format.MoneyIn(i18n.RU, 129900)) {
		t.Errorf("one point: %+v", pc)
	}
	two := append(one, copystore.PricePoint{At: now.Add(-time.Minute), Price: 139900, SalePrice: 139900})
	pc := priceChart(ctx, l, `<b>"x"</b>`, two, now)
	if !pc.Drawn || pc.Wide.Steps != 1 || pc.Narrow.Steps != 1 || pc.Wide.SalePath != "" || len(pc.Rows) != 2 || pc.Rows[0].Sale != "" {
		t.Errorf("two points (a sale at the price is none): %+v", pc)
	}
}
