package sandbox

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Fixture sizes per seller.
const (
	ordersPerSeller    = 260
	productsPerSeller  = 200 // each stocked in all three warehouses: 600 records
	boxesPerSeller     = 60
	giftCertsPerSeller = 3
)

// MaxProductsPerSeller is the largest Options.ProductsPerSeller: each of the
// products is stocked in three warehouses, so a million records per seller
// (1,000,002). The generated barcodes are unique across sellers up to this
// size (productBarcode).
const MaxProductsPerSeller = 333_334

// productsOf is the products per seller Options.ProductsPerSeller asks
// for: the default for none, at most MaxProductsPerSeller.
func productsOf(n int) int {
	if n <= 0 {
		return productsPerSeller
	}
	return min(n, MaxProductsPerSeller)
}

// firstBarcodes is how many of a seller's products take their barcode from
// the first range, the one the fixtures always had; the products beyond
// take a second range (productBarcode).
const firstBarcodes = 100_000

// sellerIDs are the seeded sellers, in fixture generation order.
var sellerIDs = []int64{1001, 1002, 1003}

// MaxSellers is the largest Options.Sellers. Seller ids run from 1001 up,
// so every seller's barcodes and warehouse codes stay its own.
const MaxSellers = 99

// sellerIDsFor are the ids of n sellers: the three seeded ones, then
// 1004, 1005, ... for the sellers Options.Sellers adds.
func sellerIDsFor(n int) []int64 {
	ids := append([]int64(nil), sellerIDs...)
	for id := int64(len(sellerIDs)) + 1001; len(ids) < n; id++ {
		ids = append(ids, id)
	}
	return ids
}

// Order statuses (field notes), return box statuses and nomenclature statuses.
var (
	orderStatuses       = []string{"new", "confirmed", "to_delivery", "delivered", "canceled", "returned"}
	returnBoxStatuses   = []string{"in_progress", "accepted", "loading", "shipped"}
	nomenclatureStatus  = []string{"online", "in_moderation", "rejected", "disabled"}
	notificationTypes   = []string{"statusChanged", "itemStatusChanged", "fulfilmentShipmentStatusChanged"}
	warehouseCityPrefix = []string{"MSK", "SPB", "EKB"}
)

// money is an amount in kopecks.
type money int64

// String formats m as a decimal string with two decimals, e.g. "1234.50".
func (m money) String() string { return string(m.appendTo(make([]byte, 0, 24))) }

// appendTo appends the decimal form of m to b.
func (m money) appendTo(b []byte) []byte {
	u := uint64(m)
	if m < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/100, 10)
	c := u % 100
	return append(b, '.', byte('0'+c/10), byte('0'+c%10))
}

// MarshalJSON writes m as a JSON number with two decimals.
func (m money) MarshalJSON() ([]byte, error) { return m.appendTo(make([]byte, 0, 24)), nil }

// UnmarshalJSON reads a JSON number with at most two decimals.
func (m *money) UnmarshalJSON(b []byte) error {
	v, ok := new(big.Rat).SetString(string(b))
	if !ok || len(b) > 32 {
		return fmt.Errorf("invalid amount %q", b)
	}
	v.Mul(v, ratHundred)
	if !v.IsInt() || !v.Num().IsInt64() {
		return fmt.Errorf("invalid amount %q", b)
	}
	*m = money(v.Num().Int64())
	return nil
}

type sellerData struct {
	id             int64
	orders         []*order // newest first
	ordersByStatus map[string][]*order
	orderByNr      map[string]*order
	products       []*product
	productBySKU   map[string]*product
	cards          map[string][]*product // parent SKU -> the card's sizes, in list order
	records        []*record             // list order
	recordByKey    map[string]*record
	warehouses     []string
	boxes          []*returnBox // newest first
	boxesByStatus  map[string][]*returnBox
	boxByCode      map[string]*returnBox
	certs          map[string]*giftCert
}

type order struct {
	nr        string
	status    string
	createdAt time.Time
	raw       json.RawMessage // pre-encoded wire form: orders never change
	rawLamoda json.RawMessage // the same order as the lamoda profile writes it
}

type orderJSON struct {
	ID            int64           `json:"id"`
	OrderNr       string          `json:"orderNr"`
	Status        string          `json:"status"`
	PaymentMethod string          `json:"paymentMethod"`
	FullSum       string          `json:"fullSum"`
	DeliveryPrice string          `json:"deliveryPrice"`
	Currency      string          `json:"currency"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	IsConfirmed   bool            `json:"isConfirmed"`
	ItemQuantity  int             `json:"itemQuantity"`
	Items         []orderItemJSON `json:"items"`
}

type orderItemJSON struct {
	ID             int64  `json:"id"`
	SKU            string `json:"sku"`
	MarketplaceSKU string `json:"marketplaceSku"`
	Description    string `json:"description"`
	Size           string `json:"size"`
	Status         string `json:"status"`
	SalePrice      string `json:"salePrice"`
	PaidPrice      string `json:"paidPrice"`
}

// product is one marketplace SKU of a seller; prices live here and are shared
// by the product's records in every warehouse.
type product struct {
	sku, sellerSKU, barcode, name, brand, size string
	// parent is the product card the product is a size of; the lamoda
	// profile prices cards, and a card's sizes share its price.
	parent string

	price, salePrice money
	priceStatus      string // OK or ERROR when no change is pending
	priceUpdatedAt   time.Time
	pending          *pendingPrice
}

// pendingPrice is an accepted price change in its PROCESSING phase.
type pendingPrice struct {
	price, salePrice money
	applyAt          time.Time
}

// effective reports the prices and price status shown at now.
func (p *product) effective(now time.Time) (price, sale money, status string, updated time.Time) {
	if p.pending != nil {
		if now.Before(p.pending.applyAt) {
			return p.price, p.salePrice, "PROCESSING", p.priceUpdatedAt
		}
		return p.pending.price, p.pending.salePrice, "OK", p.pending.applyAt
	}
	return p.price, p.salePrice, p.priceStatus, p.priceUpdatedAt
}

// settle folds a finished pending change into the product.
func (p *product) settle(now time.Time) {
	if p.pending != nil && !now.Before(p.pending.applyAt) {
		p.price, p.salePrice, p.priceStatus, p.priceUpdatedAt = p.pending.price, p.pending.salePrice, "OK", p.pending.applyAt
		p.pending = nil
	}
}

// record is a product stocked at one warehouse: one nomenclature record.
type record struct {
	p         *product
	seller    int64
	warehouse string
	quantity  int
	status    string
	updatedAt time.Time

	// cache holds the last encoding of the record and the view it encodes.
	// Lists run under the read lock, so it is swapped atomically.
	cache atomic.Pointer[encodedView]
}

type encodedView struct {
	view nomenclatureJSON
	json []byte
}

// encoded returns the JSON of the record as seen at now, re-encoding only
// when the view changed since the last call.
func (rec *record) encoded(now time.Time) []byte {
	v := rec.view(now)
	if c := rec.cache.Load(); c != nil && c.view == v {
		return c.json
	}
	b, err := marshalJSON(v)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	rec.cache.Store(&encodedView{view: v, json: b})
	return b
}

type nomenclatureJSON struct {
	SellerID          int64     `json:"seller_id"`
	WarehouseCode     string    `json:"warehouse_code"`
	Barcode           string    `json:"barcode"`
	MarketplaceSKU    string    `json:"marketplaceSku"`
	SellerSKU         string    `json:"sellerSku"`
	Name              string    `json:"name"`
	Brand             string    `json:"brand"`
	Size              string    `json:"size"`
	Price             money     `json:"price"`
	SalePrice         money     `json:"salePrice"`
	Quantity          int       `json:"quantity"`
	Status            string    `json:"status"`
	PriceUpdateStatus string    `json:"priceUpdateStatus"`
	UpdatedAt         time.Time `json:"updatedAt"`
}

// view renders the record as it is seen at now.
func (rec *record) view(now time.Time) nomenclatureJSON {
	price, sale, status, updated := rec.p.effective(now)
	if rec.updatedAt.After(updated) {
		updated = rec.updatedAt
	}
	return nomenclatureJSON{
		SellerID: rec.seller, WarehouseCode: rec.warehouse, Barcode: rec.p.barcode,
		MarketplaceSKU: rec.p.sku, SellerSKU: rec.p.sellerSKU, Name: rec.p.name, Brand: rec.p.brand,
		Size: rec.p.size, Price: price, SalePrice: sale, Quantity: rec.quantity, Status: rec.status,
		PriceUpdateStatus: status, UpdatedAt: updated,
	}
}

type returnBox struct {
	code, status string
	createdAt    time.Time
	raw          json.RawMessage
}

type returnBoxJSON struct {
	Code            string     `json:"code"`
	Status          string     `json:"status"`
	DimensionSymbol string     `json:"dimension_symbol"`
	ItemQuantity    int        `json:"item_quantity"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
	ShippedAt       *time.Time `json:"shipped_at,omitempty"`
}

type giftCert struct {
	Code      string    `json:"code"`
	Status    string    `json:"status"`
	Balance   string    `json:"balance"`
	Nominal   string    `json:"nominal"`
	Currency  string    `json:"currency"`
	ExpiresAt time.Time `json:"expiresAt"`
}

type fixtures struct {
	sellers     map[int64]*sellerData
	skuOwner    map[string]int64
	orderOwner  map[string]int64
	warehouseOf map[string]int64
}

// Name material: realistic, with the awkward characters real catalogues carry.
var (
	brands = []string{
		"Zarina", "Befree", "O'STIN", "Gloria Jeans", "Tom & Tailor", "Levi's", "Mango",
		"Henderson", "Снежная Королева", "Ralf Ringer", "Эконика", "Marks & Spencer",
		`"Красный Октябрь"`, "<Noname>", "", "Lime", "Love Republic", "Кари", "Мир & Труд",
		"Bosco Sport", "Ёлка", "D&G Kids", "Шарм <Шик>", "Uniqlo",
	}
	kinds = []string{
		"Платье", "Футболка", "Джинсы", "Кроссовки", "Куртка", "Рубашка", "Свитер",
		"Dress", "T-shirt", "Sneakers", "Ботинки", "Сумка", "Шарф", "Брюки", "Худи",
		"Пальто", "Кеды", "Hoodie", "Юбка", "Пиджак",
	}
	descriptors = []string{
		"чёрный", "белый", "тёмно-синий", "«Осень»", "oversize", "slim fit",
		`с принтом "Кот & Пёс"`, "<новинка>", "женский", "мужской", "детский",
		"из хлопка 100%", "waterproof", "на молнии", "O'Neill style", "в клетку",
	}
	sizes    = []string{"XS", "S", "M", "L", "XL", "XXL", "42", "44", "46", "48", "40/170", "", "ONE SIZE", "38½"}
	longTail = " с длинным описанием для маркетплейса: состав — хлопок 95 %, эластан 5 %; уход — деликатная стирка при 30 °C, не отбеливать, гладить при средней температуре; страна производства — Россия; сезон — круглогодичный; коллекция «Весна–Лето 2026» & capsule <limited edition>"
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// weighted picks an index by weight.
func weighted(r *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

const skuAlphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"

// buildFixtures generates every seller's data from the seed. Each seller has
// its own generator, so one seller's data does not depend on another's.
func buildFixtures(seed int64, start time.Time, hostile bool, products int, oneProductCards bool, ids []int64) *fixtures {
	fx := &fixtures{
		sellers:     map[int64]*sellerData{},
		skuOwner:    map[string]int64{},
		orderOwner:  map[string]int64{},
		warehouseOf: map[string]int64{},
	}
	for _, id := range ids {
		r := rand.New(rand.NewPCG(uint64(seed), uint64(id)))
		sd := &sellerData{
			id:             id,
			ordersByStatus: map[string][]*order{},
			orderByNr:      map[string]*order{},
			productBySKU:   map[string]*product{},
			cards:          map[string][]*product{},
			recordByKey:    map[string]*record{},
			boxesByStatus:  map[string][]*returnBox{},
			boxByCode:      map[string]*returnBox{},
			certs:          map[string]*giftCert{},
		}
		for _, city := range warehouseCityPrefix {
			wh := fmt.Sprintf("%s-%d", city, id)
			sd.warehouses = append(sd.warehouses, wh)
			fx.warehouseOf[wh] = id
		}
		var bad []*product
		if hostile && id == 1001 {
			// A generator of their own keeps the regular data identical
			// with and without Options.Hostile.
			hr := rand.New(rand.NewPCG(uint64(seed), 0xbad))
			bad = hostileProducts(hr, id, start)
			for _, p := range bad {
				fx.addProduct(sd, p, hr, start)
			}
		}
		for i := range products {
			fx.addProduct(sd, genProduct(r, id, i, start), r, start)
		}
		groupCards(sd, len(bad), oneProductCards)
		fx.genOrders(sd, r, start, bad)
		genBoxes(sd, r, start)
		for i := 1; i <= giftCertsPerSeller; i++ {
			nominal := money((1000 + 500*r.IntN(10)) * 100)
			code := fmt.Sprintf("GC-%d-%04d", id, i)
			sd.certs[code] = &giftCert{
				Code: code, Status: []string{"active", "used", "expired"}[(i-1)%3],
				Nominal: nominal.String(), Balance: (nominal / money(i)).String(), Currency: "rub",
				ExpiresAt: start.AddDate(0, 6*(2-i), 0),
			}
		}
		fx.sellers[id] = sd
	}
	return fx
}

// sizesPerCard is how many consecutive regular products make one product
// card (hostile products are cards of their own).
const sizesPerCard = 3

// groupCards assigns every product to a product card: the card's parent
// SKU is the first 12 characters of its first size's SKU, as the
// marketplace's parent SKUs are of its SKUs. With oneProductCards (the
// lamoda profile, where cards are what a seller sees and prices) the sizes
// of a card are sizes of one product: they take the first size's name,
// brand and prices and a size each from one ladder; every seventh card
// keeps one size at its own price, as happens on the marketplace. It uses
// no randomness, so the rest of the fixtures do not depend on it.
func groupCards(sd *sellerData, hostile int, oneProductCards bool) {
	parent := ""
	var first *product
	cards := 0
	for i, p := range sd.products {
		n := i - hostile
		if i < hostile || n%sizesPerCard == 0 {
			parent = p.sku[:12]
			for n := 2; len(sd.cards[parent]) > 0; n++ {
				parent = fmt.Sprintf("%s%d", p.sku[:12], n)
			}
			first = p
			cards++
		}
		p.parent = parent
		sd.cards[parent] = append(sd.cards[parent], p)
		if oneProductCards && i >= hostile {
			ladder := sizeLadders[cards%len(sizeLadders)]
			p.size = ladder[n%sizesPerCard]
			if p != first {
				p.name, p.brand = first.name, first.brand
				if cards%7 != 3 || n%sizesPerCard != 2 {
					p.price, p.salePrice, p.priceStatus, p.priceUpdatedAt = first.price, first.salePrice, first.priceStatus, first.priceUpdatedAt
				}
			}
		}
	}
}

// sizeLadders are the sizes of one product card (sizesPerCard each).
var sizeLadders = [][sizesPerCard]string{{"S", "M", "L"}, {"42", "44", "46"}, {"XS", "S", "M"}, {"38", "39", "40"}, {"M", "L", "XL"}}

func (fx *fixtures) uniqueSKU(r *rand.Rand) string {
	for {
		var b strings.Builder
		b.WriteString("MP")
		fmt.Fprintf(&b, "%03d", r.IntN(1000))
		for range 11 {
			b.WriteByte(skuAlphabet[r.IntN(len(skuAlphabet))])
		}
		if _, dup := fx.skuOwner[b.String()]; !dup {
			return b.String()
		}
	}
}

// ean13 builds a valid EAN-13 barcode from a 12-digit body.
// productBarcode is the barcode of a seller's i-th regular product: the
// first firstBarcodes of each seller in 460 100 100 000 to 460 109 999 999
// (seller ids 1001 to 1099), the rest in 466 001 000 000 to
// 466 099 233 333, so that no two products of any sellers share one.
func productBarcode(seller int64, i int) string {
	if i < firstBarcodes {
		return ean13(460000000000 + seller*firstBarcodes + int64(i))
	}
	return ean13(465000000000 + seller*1_000_000 + int64(i-firstBarcodes))
}

func ean13(body int64) string {
	s := fmt.Sprintf("%012d", body%1_000_000_000_000)
	sum := 0
	for i, c := range s {
		d := int(c - '0')
		if i%2 == 1 {
			d *= 3
		}
		sum += d
	}
	return s + string(rune('0'+(10-sum%10)%10))
}

func genProduct(r *rand.Rand, seller int64, i int, start time.Time) *product {
	name := pick(r, kinds) + " " + pick(r, descriptors)
	if r.IntN(3) == 0 {
		name += " " + pick(r, descriptors)
	}
	if i%37 == 5 {
		name += longTail
	}
	price := money((299 + r.IntN(297)*100) * 100) // 299.00 .. 29999.00
	if r.IntN(5) == 0 {
		price += 50
	}
	sale := price
	if r.IntN(3) == 0 {
		sale = price * money(50+r.IntN(45)) / 100 / 100 * 100
	}
	status := "OK"
	if i%53 == 17 {
		status = "ERROR"
	}
	return &product{
		sellerSKU:      fmt.Sprintf("ART-%d-%05d", seller, i+1),
		barcode:        productBarcode(seller, i),
		name:           name,
		brand:          pick(r, brands),
		size:           pick(r, sizes),
		price:          price,
		salePrice:      sale,
		priceStatus:    status,
		priceUpdatedAt: start.Add(-time.Duration(1+r.IntN(90*24)) * time.Hour),
	}
}

// hostileProducts are the records Options.Hostile adds for seller 1001: markup,
// script URLs, a 100 KB name and control characters.
func hostileProducts(r *rand.Rand, seller int64, start time.Time) []*product {
	names := []struct{ name, brand string }{
		{`<script>alert("xss")</script>Платье`, "Evil & Co"},
		{`<img src=x onerror=alert(1)> Футболка`, `"><svg onload=alert(2)>`},
		{`javascript:alert(document.cookie)`, `<a href="javascript:alert(3)">click</a>`},
		{strings.Repeat("Очень длинное название ", 100*1024/len("Очень длинное название ")+1), "Long"}, // just over 100 KB
		{"Ctrl\x00chars\x07\x1b[31mred\u202eevil\r\nSet-Cookie: x=1", "\t\v\f"},
		{`{{.Secret}} ${7*7} {{7*7}} '; DROP TABLE orders; --`, `</title><style>*{display:none}</style>`},
	}
	out := make([]*product, 0, len(names))
	for i, n := range names {
		p := genProduct(r, seller, 900+i, start)
		p.sellerSKU = fmt.Sprintf("HOSTILE-%d-%d", seller, i+1)
		p.barcode = ean13(469900000000 + seller*100 + int64(i))
		p.name, p.brand = n.name, n.brand
		out = append(out, p)
	}
	return out
}

func (fx *fixtures) addProduct(sd *sellerData, p *product, r *rand.Rand, start time.Time) {
	p.sku = fx.uniqueSKU(r)
	fx.skuOwner[p.sku] = sd.id
	sd.products = append(sd.products, p)
	sd.productBySKU[p.sku] = p
	for _, wh := range sd.warehouses {
		qty := r.IntN(150)
		if r.IntN(6) == 0 {
			qty = 0
		}
		rec := &record{
			p: p, seller: sd.id, warehouse: wh, quantity: qty,
			status:    nomenclatureStatus[weighted(r, 80, 8, 5, 7)],
			updatedAt: start.Add(-time.Duration(1+r.IntN(60*24)) * time.Hour),
		}
		sd.records = append(sd.records, rec)
		sd.recordByKey[recordKey(wh, p.barcode)] = rec
	}
}

func recordKey(warehouse, barcode string) string { return warehouse + "\x00" + barcode }

func (fx *fixtures) genOrders(sd *sellerData, r *rand.Rand, start time.Time, hostile []*product) {
	regular := sd.products[len(hostile):]
	// Creation times: newest first, spread over 90 days before the start.
	ages := make([]time.Duration, ordersPerSeller)
	for i := range ages {
		ages[i] = time.Duration(r.IntN(90*24*3600)) * time.Second
	}
	sortDurations(ages)
	itemID := sd.id * 10_000_000
	for i, age := range ages {
		created := start.Add(-age - time.Minute)
		status := orderStatuses[weighted(r, 15, 15, 15, 35, 10, 10)]
		var nr string
		for {
			nr = fmt.Sprintf("RU%s-%06d", created.Format("060102"), r.IntN(1_000_000))
			if _, dup := fx.orderOwner[nr]; !dup {
				break
			}
		}
		o := orderJSON{
			ID: sd.id*1_000_000 + int64(ordersPerSeller-i), OrderNr: nr, Status: status,
			PaymentMethod: []string{"COD", "card", "card", "sbp"}[r.IntN(4)],
			Currency:      "rub", CreatedAt: created,
			IsConfirmed: status != "new",
		}
		o.UpdatedAt = created.Add(time.Duration(r.IntN(int(age/time.Second)+1)) * time.Second)
		delivery := money([]int{0, 0, 19900, 29900}[r.IntN(4)])
		total := delivery
		n := 1 + weighted(r, 60, 25, 10, 5)
		for range n {
			p := pick(r, regular)
			paid := p.salePrice
			if r.IntN(4) == 0 {
				paid = paid * 90 / 100
			}
			itemStatus := status
			if status == "delivered" && n > 1 && r.IntN(8) == 0 {
				itemStatus = "returned"
			}
			itemID++
			o.Items = append(o.Items, orderItemJSON{
				ID: itemID, SKU: p.sellerSKU, MarketplaceSKU: p.sku, Description: p.name,
				Size: p.size, Status: itemStatus, SalePrice: p.salePrice.String(), PaidPrice: paid.String(),
			})
			total += paid
		}
		if i < len(hostile) {
			// The newest orders carry one hostile item each.
			p := hostile[i]
			o.Items[0].SKU, o.Items[0].MarketplaceSKU, o.Items[0].Description, o.Items[0].Size = p.sellerSKU, p.sku, p.name, p.size
		}
		o.ItemQuantity = len(o.Items)
		o.FullSum, o.DeliveryPrice = total.String(), delivery.String()
		raw, err := marshalJSON(o)
		if err != nil {
			panic(err) // fixtures are plain data; this cannot fail
		}
		rawLamoda, err := marshalJSON(lamodaOrder(o))
		if err != nil {
			panic(err)
		}
		ord := &order{nr: nr, status: status, createdAt: created, raw: raw, rawLamoda: rawLamoda}
		sd.orders = append(sd.orders, ord)
		sd.ordersByStatus[status] = append(sd.ordersByStatus[status], ord)
		sd.orderByNr[nr] = ord
		fx.orderOwner[nr] = sd.id
	}
}

func genBoxes(sd *sellerData, r *rand.Rand, start time.Time) {
	ages := make([]time.Duration, boxesPerSeller)
	for i := range ages {
		ages[i] = time.Duration(r.IntN(60*24*3600)) * time.Second
	}
	sortDurations(ages)
	seen := map[string]bool{}
	for i, age := range ages {
		created := start.Add(-age - time.Hour)
		code := ""
		for code == "" || seen[code] {
			code = fmt.Sprintf("B-XD%06d", r.IntN(1_000_000))
		}
		seen[code] = true
		// Every status is represented: the first four boxes take one each.
		status := returnBoxStatuses[i%4]
		if i >= 4 {
			status = returnBoxStatuses[weighted(r, 20, 20, 15, 45)]
		}
		b := returnBoxJSON{
			Code: code, Status: status, DimensionSymbol: []string{"S", "M", "L"}[r.IntN(3)],
			ItemQuantity: 1 + r.IntN(40), CreatedAt: created,
		}
		b.UpdatedAt = created.Add(time.Duration(r.IntN(int(age/time.Second)+1)) * time.Second)
		if status == "shipped" {
			t := b.UpdatedAt
			b.ShippedAt = &t
		}
		raw, err := marshalJSON(b)
		if err != nil {
			panic(err)
		}
		box := &returnBox{code: code, status: status, createdAt: created, raw: raw}
		sd.boxes = append(sd.boxes, box)
		sd.boxesByStatus[status] = append(sd.boxesByStatus[status], box)
		sd.boxByCode[code] = box
	}
}

// sortDurations sorts ascending (insertion sort is plenty for a few hundred).
func sortDurations(d []time.Duration) {
	for i := 1; i < len(d); i++ {
		for j := i; j > 0 && d[j] < d[j-1]; j-- {
			d[j], d[j-1] = d[j-1], d[j]
		}
	}
}
