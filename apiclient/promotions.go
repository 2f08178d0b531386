package apiclient

import (
	"context"
	"time"
)

// The lamoda profile's promotions, read only, after the seller gateway's
// Swagger (docs/CONTRACTS.md: "Promotions"): v1.promotions.list and
// v1.products.list. The contract profile has no promotions.

// Promotion is one of a seller's promotions (PromoItemGet).
type Promotion struct {
	ID     int64
	Name   string
	Type   string // "onsite", "onsite_float", ...
	Status string
	// ActiveFrom and ActiveTo bound the promotion itself.
	ActiveFrom, ActiveTo time.Time
	// AddFrom and AddTo bound the window for adding products; DeleteTo
	// ends the window for taking them out.
	AddFrom, AddTo, DeleteTo time.Time
	RegistrationClosed       bool
	// DiscountPercent is the promotion's discount (discount_amount).
	DiscountPercent float64
	// LamodaDiscountPercent is the marketplace's own share of it.
	LamodaDiscountPercent float64
	// ProductMinPrice is the promo price floor: a product priced below it
	// is held by the price check.
	ProductMinPrice Money
	// ProductsCount and SalesCount are the marketplace's counts.
	ProductsCount, SalesCount int
}

// PromotionList is a seller's promotions.
type PromotionList struct {
	Promotions []Promotion
	// Skipped counts the promotions that could not be read and are left
	// out; SkipReason says why the first could not.
	Skipped    int
	SkipReason string
}

// PromotionProductsRequest are the params of v1.products.list.
type PromotionProductsRequest struct {
	SellerID    int64
	PromotionID int64
	// Offset is the number of products to skip; Limit the page size (1 to
	// MaxPromotionProducts, 0 means it).
	Offset, Limit int
}

// MaxPromotionProducts is the largest page of v1.products.list asked.
const MaxPromotionProducts = 100

// PromotionProduct is a product card taking part in a promotion
// (ProductsListItem).
type PromotionProduct struct {
	// ParentSKU is the product card (sku).
	ParentSKU string
	// SellerSKU is the seller's own article (sku_supplier).
	SellerSKU string
	Name      string
	// Price and SalePrice are the card's prices (black_price, red_price).
	Price, SalePrice Money
	DiscountPercent  float64
	// BelowFloor: the price is past the promotion's threshold, so the
	// price check holds a change (is_fraud_threshold_exceeded).
	BelowFloor bool
	// RecommendedPrice and RecommendedSalePrice are the prices the
	// promotion asks of the card.
	RecommendedPrice, RecommendedSalePrice Money
	PriceUpdateStatus                      string
}

// PromotionProductList is one page of a promotion's products.
type PromotionProductList struct {
	Products   []PromotionProduct
	Total      int
	Skipped    int
	SkipReason string
}

type promotionWire struct {
	ID                   int64     `json:"id"`
	Name                 string    `json:"name"`
	Type                 string    `json:"type"`
	Status               string    `json:"status"`
	ActiveFromDT         time.Time `json:"active_from_dt"`
	ActiveToDT           time.Time `json:"active_to_dt"`
	AddProductsFrom      time.Time `json:"add_products_from"`
	AddProductsTo        time.Time `json:"add_products_to"`
	DeleteProductsTo     time.Time `json:"delete_products_to"`
	IsRegistrationClosed bool      `json:"is_registration_closed"`
	DiscountAmount       float64   `json:"discount_amount"`
	LamodaDiscountAmount float64   `json:"lamoda_discount_amount"`
	ProductMinPrice      Money     `json:"product_min_price"`
	ProductsCount        int       `json:"products_count"`
	SalesCount           int       `json:"sales_count"`
}

type promotionProductWire struct {
	SKU                      string  `json:"sku"`
	SKUSupplier              string  `json:"sku_supplier"`
	Name                     string  `json:"name"`
	BlackPrice               Money   `json:"black_price"`
	RedPrice                 Money   `json:"red_price"`
	DiscountPercent          float64 `json:"discount_percent"`
	IsFraudThresholdExceeded bool    `json:"is_fraud_threshold_exceeded"`
	RecommendedBlackPrice    Money   `json:"recommended_black_price"`
	RecommendedRedPrice      Money   `json:"recommended_red_price"`
	PriceUpdateStatus        string  `json:"price_update_status"`
}

// ListPromotions reads the seller's promotions (v1.promotions.list
// {seller_id} → {promotions}).
func (s *SellerService) ListPromotions(ctx context.Context, sellerID int64) (*PromotionList, error) {
	const method = "v1.promotions.list"
	if err := s.promotionsSupported(method); err != nil {
		return nil, err
	}
	if sellerID <= 0 {
		return nil, &RequestError{Op: "seller rpc " + method, Fields: []FieldError{{Field: "seller_id", Message: "the seller id is required"}}}
	}
	var w struct {
		Promotions recordList[promotionWire] `json:"promotions"`
	}
	if err := s.read(ctx, method, map[string]int64{"seller_id": sellerID}, &w); err != nil {
		return nil, err
	}
	out := &PromotionList{Skipped: w.Promotions.skipped, SkipReason: w.Promotions.reason}
	for _, p := range w.Promotions.items {
		out.Promotions = append(out.Promotions, Promotion{ID: p.ID, Name: p.Name, Type: p.Type, Status: p.Status,
			ActiveFrom: p.ActiveFromDT, ActiveTo: p.ActiveToDT, AddFrom: p.AddProductsFrom, AddTo: p.AddProductsTo, DeleteTo: p.DeleteProductsTo,
			RegistrationClosed: p.IsRegistrationClosed, DiscountPercent: p.DiscountAmount, LamodaDiscountPercent: p.LamodaDiscountAmount,
			ProductMinPrice: p.ProductMinPrice, ProductsCount: p.ProductsCount, SalesCount: p.SalesCount})
	}
	s.a.c.noteSkips(ctx, "seller rpc "+method, out.Skipped, out.SkipReason, "")
	return out, nil
}

// ListPromotionProducts reads one page of the product cards taking part
// in a promotion (v1.products.list {seller_id, promotion_id, offset,
// limit} → {products, total}).
func (s *SellerService) ListPromotionProducts(ctx context.Context, req *PromotionProductsRequest) (*PromotionProductList, error) {
	const method = "v1.products.list"
	if err := s.promotionsSupported(method); err != nil {
		return nil, err
	}
	var fields []FieldError
	if req == nil {
		req = &PromotionProductsRequest{}
	}
	if req.SellerID <= 0 {
		fields = append(fields, FieldError{Field: "seller_id", Message: "the seller id is required"})
	}
	if req.PromotionID <= 0 {
		fields = append(fields, FieldError{Field: "promotion_id", Message: "the promotion id is required"})
	}
	limit := req.Limit
	if limit == 0 {
		limit = MaxPromotionProducts
	}
	if limit < 0 || limit > MaxPromotionProducts || req.Offset < 0 {
		fields = append(fields, FieldError{Field: "limit", Message: "a page holds 1 to 100 products from an offset of 0 or more"})
	}
	if len(fields) > 0 {
		return nil, &RequestError{Op: "seller rpc " + method, Fields: fields}
	}
	params := map[string]int64{"seller_id": req.SellerID, "promotion_id": req.PromotionID, "offset": int64(req.Offset), "limit": int64(limit)}
	var w struct {
		Products recordList[promotionProductWire] `json:"products"`
		Total    int                              `json:"total"`
	}
	if err := s.read(ctx, method, params, &w); err != nil {
		return nil, err
	}
	out := &PromotionProductList{Total: w.Total, Skipped: w.Products.skipped, SkipReason: w.Products.reason}
	for _, p := range w.Products.items {
		out.Products = append(out.Products, PromotionProduct{ParentSKU: p.SKU, SellerSKU: p.SKUSupplier, Name: p.Name,
			Price: p.BlackPrice, SalePrice: p.RedPrice, DiscountPercent: p.DiscountPercent, BelowFloor: p.IsFraudThresholdExceeded,
			RecommendedPrice: p.RecommendedBlackPrice, RecommendedSalePrice: p.RecommendedRedPrice, PriceUpdateStatus: p.PriceUpdateStatus})
	}
	s.a.c.noteSkips(ctx, "seller rpc "+method, out.Skipped, out.SkipReason, "")
	return out, nil
}

func (s *SellerService) promotionsSupported(method string) error {
	if s.a.c.wire.profile != ProfileLamoda {
		return &NotSupportedError{Profile: s.a.c.wire.profile, Operation: method, Reason: "promotions are the lamoda profile's"}
	}
	return nil
}

// read performs one JSON-RPC read with the seller token (401 rule, 429
// and 503 retried).
func (s *SellerService) read(ctx context.Context, method string, params, out any) error {
	return s.call(ctx, method, params, retryIdempotent, out)
}
