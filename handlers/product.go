package handlers

// A product's page: one marketplace SKU (the contract profile) or one
// product card (the lamoda profile's lamodaParentSku) with its sizes, its
// stock per warehouse, its status, its promotions, its changes in the
// history and its price history drawn, all from the local copy and the
// audit trail.

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/chart"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// Bounds of a product's page: the records (sizes × warehouses) listed, the
// history entries shown (the history page has them all) and the points
// listed under the chart.
const (
	productHistory    = 20
	productItemsEach  = 5
	productPointsList = 50
	maxSKUBytes       = 200
)

// ProductPage shows one product of the session's seller.
func (a *App) ProductPage(c echo.Context) error {
	sku, ok := productParam(c)
	if !ok {
		return echo.ErrNotFound
	}
	card := a.deps.API.PricesByCard()
	p, err := a.seller(c).Product(c.Request().Context(), sku, card)
	if err != nil {
		return err
	}
	ctx := c.Request().Context() // the page gate's, once entered
	l := format.LocaleOf(ctx)
	if len(p.Records) == 0 {
		if p.Complete {
			return echo.ErrNotFound
		}
		v := pages.ProductView{SKU: sku, Card: card, NotCopied: true, Back: at(c, paths.Prices)}
		return a.render(c, http.StatusOK, pages.ProductPage(a.chrome(c, sku, "prices"), v), nil)
	}
	d := session(c).Data()
	entries, err := a.deps.Audit.Naming(ctx, audit.Filter{SellerID: d.SellerID, Environment: d.Environment}, browse.ProductKeys(sku, p.Records), productHistory, productItemsEach)
	if err != nil {
		return errSessionStore(err)
	}
	v := productView(ctx, l, sku, card, p, browse.MergePoints(p.Points, browse.HistoryPoints(entries, sku)), a.deps.Now())
	v.Back = at(c, paths.Prices)
	for _, pm := range p.Promotions {
		pr := pages.ProductPromotion{Name: pm.Name, Active: format.DateTimeIn(l, pm.ActiveFrom) + " – " + format.DateTimeIn(l, pm.ActiveTo),
			Href: paths.WithQuery(at(c, paths.Promotions), url.Values{"promo": {strconv.FormatInt(pm.PromotionID, 10)}})}
		if pm.Floor > 0 {
			pr.Floor = format.MoneyIn(l.Lang, pm.Floor)
		}
		v.Promotions = append(v.Promotions, pr)
	}
	v.HistoryHref = paths.WithQuery(at(c, paths.History), url.Values{"q": {sku}})
	for _, e := range entries {
		v.History = append(v.History, historyEntry(ctx, e))
	}
	title, _ := format.Short(v.Name, 80) // a name is bounded wherever it is shown
	return a.render(c, http.StatusOK, pages.ProductPage(a.chrome(c, title, "prices"), v), nil)
}

// productParam is the product named by the path, decoded; ok is false for
// one no product can have (empty, too long, not UTF-8).
func productParam(c echo.Context) (string, bool) {
	sku := c.Param("sku")
	if c.Request().URL.RawPath != "" { // the router matched the escaped path
		var err error
		if sku, err = url.PathUnescape(sku); err != nil {
			return "", false
		}
	}
	return sku, sku != "" && len(sku) <= maxSKUBytes && utf8.ValidString(sku)
}

// productView lays out a product's records and observed prices.
func productView(ctx context.Context, l format.Locale, sku string, card bool, p *browse.Product, points []copystore.PricePoint, now time.Time) pages.ProductView {
	first := p.Records[0]
	v := pages.ProductView{SKU: sku, Card: card, Name: first.Name, Brand: first.Brand, SellerSKU: first.SellerSKU, Status: first.Status,
		PriceStatus: first.PriceStatus, StatusPending: first.StatusPending, Total: p.Total, TotalText: strconv.Itoa(p.Total), MixedStatus: p.MixedStatus}
	if v.Name == "" {
		v.Name = sku
	}
	if card {
		v.MarketplaceSKU = first.MarketplaceSKU
	} else {
		v.ParentSKU = first.ParentSKU
	}
	price, sale := first.Price, first.SalePrice
	if first.Pending != nil {
		v.Pending = i18n.TD(ctx, "product.pending", map[string]any{"Price": format.MoneyIn(l.Lang, first.Pending.Price), "Since": format.DateTimeIn(l, first.Pending.Since)})
	}
	v.Price = format.MoneyIn(l.Lang, price)
	if sale > 0 && sale != price {
		v.Sale = format.MoneyIn(l.Lang, sale)
	}
	for _, r := range p.Records {
		v.Records = append(v.Records, pages.ProductRecord{Size: r.Size, Barcode: r.Barcode, SellerSKU: r.SellerSKU, Warehouse: r.Warehouse,
			Quantity: strconv.Itoa(r.Quantity), QuantityPending: r.QuantityPending, Status: r.Status, StatusPending: r.StatusPending,
			Price: format.MoneyIn(l.Lang, r.Price)})
	}
	for _, st := range p.Stock {
		v.Stock = append(v.Stock, pages.ProductStock{Warehouse: st.Warehouse, Quantity: strconv.Itoa(st.Quantity)})
	}
	v.Chart = priceChart(ctx, l, v.Name, points, now)
	return v
}

// priceChart draws the observed prices: the chart with its text
// alternative, or the empty state with fewer than two points.
func priceChart(ctx context.Context, l format.Locale, name string, points []copystore.PricePoint, now time.Time) pages.PriceChart {
	short, _ := format.Short(name, 80)
	pc := pages.PriceChart{Title: i18n.TD(ctx, "product.chart_title", map[string]any{"Name": short})}
	switch len(points) {
	case 0:
		pc.Empty = i18n.T(ctx, "product.chart_none")
		return pc
	case 1:
		pc.Empty = i18n.TD(ctx, "product.chart_one", map[string]any{"Price": format.MoneyIn(l.Lang, points[0].Price), "At": format.DateTimeIn(l, points[0].At)})
		return pc
	}
	cp := make([]chart.Point, len(points))
	lo, hi := points[0].Price, points[0].Price
	for i, p := range points {
		cp[i] = chart.Point{At: p.At, Value: p.Price, Sale: p.SalePrice}
		if p.SalePrice == p.Price {
			cp[i].Sale = 0 // a sale at the price is no sale
		}
		lo, hi = min(lo, p.Price), max(hi, p.Price)
	}
	pc.Drawn = true
	pc.Wide = chartDrawing(l, cp, now, chart.DefaultBox)
	pc.Narrow = chartDrawing(l, cp, now, chart.NarrowBox)
	pc.Desc = i18n.TD(ctx, "product.chart_desc", map[string]any{
		"From": format.DateTimeIn(l, points[0].At), "To": format.DateTimeIn(l, points[len(points)-1].At),
		"Min": format.MoneyIn(l.Lang, lo), "Max": format.MoneyIn(l.Lang, hi), "Now": format.MoneyIn(l.Lang, points[len(points)-1].Price)})
	shown := points[max(0, len(points)-productPointsList):]
	for i := len(shown) - 1; i >= 0; i-- { // newest first
		p := shown[i]
		row := pages.ChartRow{When: format.DateTimeIn(l, p.At), Price: format.MoneyIn(l.Lang, p.Price)}
		if p.SalePrice > 0 && p.SalePrice != p.Price {
			row.Sale = format.MoneyIn(l.Lang, p.SalePrice)
		}
		pc.Rows = append(pc.Rows, row)
	}
	pc.More = len(points) - len(shown)
	return pc
}

// chartDrawing draws points in box, its left margin widened to the
// longest amount on the value axis.
func chartDrawing(l format.Locale, points []chart.Point, now time.Time, box chart.Box) pages.ChartDrawing {
	s, _ := chart.Draw(points, now, box)
	longest := 0
	for _, t := range s.YTicks {
		longest = max(longest, utf8.RuneCountInString(format.MoneyIn(l.Lang, t.Value)))
	}
	// About 7 units a character at the chart's 12-unit font, and a gap.
	if need := 14 + 7*float64(longest); need > box.Left {
		box.Left = need
		s, _ = chart.Draw(points, now, box)
	}
	d := pages.ChartDrawing{ViewBox: "0 0 " + num(s.Width) + " " + num(s.Height), Path: s.Path, SalePath: s.SalePath, Steps: s.Steps,
		PlotLeft: num(s.PlotLeft), PlotRight: num(s.PlotRight), PlotTop: num(s.PlotTop), PlotBottom: num(s.PlotBottom),
		YLabelX: num(s.PlotLeft - 8), XLabelY: num(s.PlotBottom + 20)}
	span := s.XTicks[len(s.XTicks)-1].At.Sub(s.XTicks[0].At)
	for _, t := range s.YTicks {
		d.YTicks = append(d.YTicks, pages.ChartTick{Pos: num(t.Pos), LabelPos: num(t.Pos + 4), Label: format.MoneyIn(l.Lang, t.Value)})
	}
	for i, t := range s.XTicks {
		label := format.DateIn(l, t.At)
		if span < 48*time.Hour {
			label = format.DateTimeIn(l, t.At)
		}
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case len(s.XTicks) - 1:
			anchor = "end"
		}
		d.XTicks = append(d.XTicks, pages.ChartTick{Pos: num(t.Pos), LabelPos: num(t.Pos), Label: label, Anchor: anchor})
	}
	return d
}

// num writes a coordinate for an SVG attribute.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// productHref is the page of the product a history item of kind names by
// key: a price change names its SKU (or card); other kinds name no
// product page.
func productHref(ctx context.Context, kind, key string) string {
	if kind != audit.KindPrice || key == "" || len(key) > maxSKUBytes {
		return ""
	}
	return paths.In(ctx, paths.Product(key))
}
