package pages

// ProductView is a product's page: one marketplace SKU, or (Card) one
// product card with its sizes, from the local copy, as words.
type ProductView struct {
	SKU  string // the SKU or card the page names
	Card bool   // the lamoda profile: SKU is a card (lamodaParentSku)
	// NotCopied: the copy is still being filled and holds no record of
	// the product yet.
	NotCopied                  bool
	Name, Brand, SellerSKU     string
	MarketplaceSKU, ParentSKU  string // the other identifier, when known
	Price, Sale                string // Sale "" when none
	Pending                    string // an accepted price not yet confirmed, as a sentence
	Status, PriceStatus        string // marketplace codes
	StatusPending, MixedStatus bool
	Records                    []ProductRecord
	Stock                      []ProductStock
	Total                      int
	TotalText                  string
	Promotions                 []ProductPromotion
	Chart                      PriceChart
	History                    []HistoryEntry
	HistoryHref, Back          string
}

// ProductRecord is one size at one warehouse.
type ProductRecord struct {
	Size, Barcode, SellerSKU, Warehouse string
	Quantity, Price                     string
	Status                              string
	QuantityPending, StatusPending      bool
}

// ProductStock is the product's stock at one warehouse.
type ProductStock struct{ Warehouse, Quantity string }

// ProductPromotion is a promotion the card takes part in.
type ProductPromotion struct {
	Name, Active, Floor, Href string
}

// PriceChart is a product's price history drawn as inline SVG: the
// geometry from views/chart, the words from the handler. Empty says why
// nothing is drawn when Drawn is false. It is drawn twice, Wide and
// Narrow (a phone's width, fewer dates), and the stylesheet shows the one
// that fits: an SVG's text scales with it.
type PriceChart struct {
	Drawn        bool
	Empty        string
	Title, Desc  string
	Wide, Narrow ChartDrawing
	// Rows are the observed prices, newest first, for readers who do not
	// see the chart; More counts the older ones not listed.
	Rows []ChartRow
	More int
}

// ChartDrawing is one drawing of a chart, in SVG user units.
type ChartDrawing struct {
	ViewBox                                  string
	Path, SalePath                           string
	Steps                                    int
	PlotLeft, PlotRight, PlotTop, PlotBottom string
	// YLabelX is where the amounts end, XLabelY the dates' baseline.
	YLabelX, XLabelY string
	YTicks, XTicks   []ChartTick
}

// ChartTick is a labelled position on an axis (Pos, user units); its
// label sits at LabelPos along the same axis, anchored by the class
// Anchor (time axis: "start", "middle", "end").
type ChartTick struct{ Pos, LabelPos, Label, Anchor string }

// ChartRow is one observed price.
type ChartRow struct{ When, Price, Sale string }
