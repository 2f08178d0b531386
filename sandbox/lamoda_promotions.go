package sandbox

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// The lamoda profile's promotions, read only, after the seller gateway's
// Swagger: v1.promotions.list {seller_id} → {promotions: [PromoItemGet]}
// and v1.products.list {seller_id, promotion_id, offset, limit} →
// {products: [ProductsListItem], total}. Every seller has a running
// promotion and an upcoming one, each with some of the seller's product
// cards. A card's floor in a promotion is the promotion's
// product_min_price, else its current price less the discount; the price
// check holds a price below it (a warning: "send anyway", force, applies
// it and takes the card out), and its findings about a card name the
// card's promotions (fraud_validation_results[].promotions in v1,
// fraudValidationResults[].promotions in v2: [{name}]).

// Route names of the promotions reads.
const (
	RouteRPCPromotions        = "rpc.v1.promotions.list"
	RouteRPCPromotionProducts = "rpc.v1.products.list"
)

// Promotion is a promotion of the sandbox's fixtures, for tests.
type Promotion struct {
	ID                  int64
	Name, Type, Status  string
	ActiveFrom          time.Time
	ActiveTo            time.Time
	AddFrom, AddTo      time.Time
	DeleteTo            time.Time
	RegistrationClosed  bool
	DiscountPercent     int
	ProductMinPrice     int64    // kopecks
	Cards               []string // parent SKUs taking part, in list order
	LamodaDiscountShare int      // Lamoda's own share of the discount, percent
}

// maxPromotionProducts is the largest page of v1.products.list.
const maxPromotionProducts = 100

// Promotions returns the seller's promotions (lamoda profile; none in the
// contract profile).
func (s *Sandbox) Promotions(seller int64) []Promotion {
	if !s.lamoda() {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.promotionsLocked(seller)
}

// promotionsLocked derives the seller's promotions from its cards and the
// sandbox's start: a running one with every fifth card from the third on,
// an upcoming one with every seventh from the first on. The caller holds
// mu.
func (s *Sandbox) promotionsLocked(seller int64) []Promotion {
	sd := s.sellers[seller]
	if sd == nil {
		return nil
	}
	var parents []string
	seen := map[string]bool{}
	for _, p := range sd.products {
		if p.parent != "" && !seen[p.parent] {
			seen[p.parent] = true
			parents = append(parents, p.parent)
		}
	}
	day := 24 * time.Hour
	start := s.opts.Start.Truncate(day)
	running := Promotion{ID: seller*10 + 1, Name: "Чёрная пятница", Type: "onsite", Status: "active",
		ActiveFrom: start.Add(-day), ActiveTo: start.Add(6 * day), AddFrom: start.Add(-10 * day), AddTo: start.Add(2 * day),
		DeleteTo: start.Add(5 * day), DiscountPercent: 30, LamodaDiscountShare: 10}
	upcoming := Promotion{ID: seller*10 + 2, Name: "Новогодняя распродажа", Type: "onsite_float", Status: "upcoming",
		ActiveFrom: start.Add(20 * day), ActiveTo: start.Add(40 * day), AddFrom: start, AddTo: start.Add(15 * day),
		DeleteTo: start.Add(18 * day), DiscountPercent: 20, ProductMinPrice: 100000}
	for i, p := range parents {
		if i >= 2 && (i-2)%5 == 0 {
			running.Cards = append(running.Cards, p)
		}
		if i%7 == 0 {
			upcoming.Cards = append(upcoming.Cards, p)
		}
	}
	return []Promotion{running, upcoming}
}

// cardPromotions names the promotions card takes part in ([{name}]), for
// the price check's findings. The caller holds mu.
func (s *Sandbox) cardPromotions(seller int64, card string) []any {
	out := []any{}
	for _, p := range s.promotionsLocked(seller) {
		if slices.Contains(p.Cards, card) {
			out = append(out, map[string]any{"name": p.Name})
		}
	}
	return out
}

// promoFloor is a card's price floor in promotion p at the current price:
// the promotion's product_min_price, else the price it asks of the card
// (the current price less the promotion's discount).
func promoFloor(p Promotion, current money) money {
	if p.ProductMinPrice > 0 {
		return money(p.ProductMinPrice)
	}
	return current * money(100-p.DiscountPercent) / 100
}

// belowPromoFloor reports whether price is below card's floor in one of
// its promotions: the price check then holds the change until it is
// confirmed (force), which takes the card out. The caller holds mu.
func (s *Sandbox) belowPromoFloor(seller int64, card string, price, current money) bool {
	for _, p := range s.promotionsLocked(seller) {
		if slices.Contains(p.Cards, card) && price < promoFloor(p, current) {
			return true
		}
	}
	return false
}

// promoTime writes a promotion's time as the Swagger's examples do:
// Moscow time, "YYYY-MM-DD hh:mm:ss".
func promoTime(t time.Time) string { return t.In(moscow).Format(time.DateTime) }

// promoItemJSON is PromoItemGet.
type promoItemJSON struct {
	ID                   int64   `json:"id"`
	Name                 string  `json:"name"`
	Type                 string  `json:"type"`
	Status               string  `json:"status"`
	ActiveFromDT         string  `json:"active_from_dt"`
	ActiveToDT           string  `json:"active_to_dt"`
	AddProductsFrom      string  `json:"add_products_from"`
	AddProductsTo        string  `json:"add_products_to"`
	DeleteProductsTo     string  `json:"delete_products_to"`
	IsRegistrationClosed bool    `json:"is_registration_closed"`
	DiscountAmount       int     `json:"discount_amount"`
	ProductMinPrice      money   `json:"product_min_price"`
	LamodaDiscountAmount int     `json:"lamoda_discount_amount"`
	ProductsCount        int     `json:"products_count"`
	SalesCount           int     `json:"sales_count"`
	SalesAmount          float64 `json:"sales_amount"`
}

func (s *Sandbox) lamodaPromotions(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	seller, e := intParam(params, "seller_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	if seller != p.sellerID {
		return nil, &rpcError{Code: codeForbidden, Message: "Forbidden", Data: map[string]any{
			"seller_id": seller, "reason": fmt.Sprintf("seller_id %d is not the seller of this token", seller)}}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := struct {
		Promotions []promoItemJSON `json:"promotions"`
	}{Promotions: []promoItemJSON{}}
	for _, pr := range s.promotionsLocked(seller) {
		out.Promotions = append(out.Promotions, promoItemJSON{ID: pr.ID, Name: pr.Name, Type: pr.Type, Status: pr.Status,
			ActiveFromDT: promoTime(pr.ActiveFrom), ActiveToDT: promoTime(pr.ActiveTo),
			AddProductsFrom: promoTime(pr.AddFrom), AddProductsTo: promoTime(pr.AddTo), DeleteProductsTo: promoTime(pr.DeleteTo),
			IsRegistrationClosed: pr.RegistrationClosed, DiscountAmount: pr.DiscountPercent, ProductMinPrice: money(pr.ProductMinPrice),
			LamodaDiscountAmount: pr.LamodaDiscountShare, ProductsCount: len(pr.Cards)})
	}
	return out, nil
}

// promoProductJSON is ProductsListItem.
type promoProductJSON struct {
	SKU                      string `json:"sku"`
	SKUSupplier              string `json:"sku_supplier"`
	Name                     string `json:"name"`
	BlackPrice               money  `json:"black_price"`
	RedPrice                 money  `json:"red_price"`
	DiscountPercent          int    `json:"discount_percent"`
	IsFraudThresholdExceeded bool   `json:"is_fraud_threshold_exceeded"`
	RecommendedBlackPrice    money  `json:"recommended_black_price"`
	RecommendedRedPrice      money  `json:"recommended_red_price"`
	PriceUpdateStatus        string `json:"price_update_status"`
}

func (s *Sandbox) lamodaPromotionProducts(p *principal, params map[string]json.RawMessage) (any, *rpcError) {
	seller, e := intParam(params, "seller_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	promo, e := intParam(params, "promotion_id", true, 0, 1, maxSellerID)
	if e != nil {
		return nil, e
	}
	offset, e := intParam(params, "offset", false, 0, 0, maxSellerID)
	if e != nil {
		return nil, e
	}
	limit, e := intParam(params, "limit", false, 20, 1, maxPromotionProducts)
	if e != nil {
		return nil, e
	}
	if seller != p.sellerID {
		return nil, &rpcError{Code: codeForbidden, Message: "Forbidden", Data: map[string]any{
			"seller_id": seller, "reason": fmt.Sprintf("seller_id %d is not the seller of this token", seller)}}
	}
	now := s.Now()
	s.mu.RLock()
	defer s.mu.RUnlock()
	var pr *Promotion
	all := s.promotionsLocked(seller)
	for i := range all {
		if all[i].ID == promo {
			pr = &all[i]
		}
	}
	if pr == nil {
		return nil, &rpcError{Code: codeNotFound, Message: "Not found", Data: map[string]any{"promotion_id": promo}}
	}
	out := struct {
		Products []promoProductJSON `json:"products"`
		Total    int                `json:"total"`
	}{Products: []promoProductJSON{}, Total: len(pr.Cards)}
	sd := s.sellers[seller]
	for i := int(offset); i < len(pr.Cards) && i < int(offset+limit); i++ {
		card := sd.cards[pr.Cards[i]]
		price, sale, status, _ := card[0].effective(now)
		black := promoFloor(*pr, price)
		out.Products = append(out.Products, promoProductJSON{SKU: pr.Cards[i], SKUSupplier: card[0].sellerSKU, Name: card[0].name,
			BlackPrice: price, RedPrice: sale, DiscountPercent: pr.DiscountPercent,
			IsFraudThresholdExceeded: int64(price) < pr.ProductMinPrice, RecommendedBlackPrice: black, RecommendedRedPrice: black,
			PriceUpdateStatus: status})
	}
	return out, nil
}
