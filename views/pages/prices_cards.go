package pages

import (
	"context"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/components"
)

// The prices page of a marketplace that keys prices by product card (the
// lamoda wire profile): one row per card with its sizes beneath.

// CardSize is one size of a product card, shown beneath it (read only: a
// size has the card's price).
type CardSize struct {
	SKU, Size, Barcode                 string
	Current, CurrentSale, UpdateStatus string
}

// FraudNote is one of the marketplace's price-check findings about a card.
type FraudNote struct {
	Status string // "warning" or "restriction"
	Text   string
}

// CardRow is one product card of the prices table with its inputs.
type CardRow struct {
	Parent, Name, Brand                string
	Current, CurrentSale, UpdateStatus string
	// Mixed says the card's sizes are listed at different prices; a new
	// price applies to all of them.
	Mixed                                   bool
	OrigPrice, OrigSale, OrigStart, OrigEnd string
	Price, Sale, Start, End                 string
	Errors                                  map[string]i18n.Msgs // "price", "sale", "start", "end"
	Hints                                   map[string]string    // "price", "sale": the warnings beside the fields
	Result                                  RowResult
	Sizes                                   []CardSize
	Fraud                                   []FraudNote
	// Confirmable: the card's change was held by a price-check warning
	// and may be sent again with the user's confirmation.
	Confirmable bool
	// Promotions are the running and upcoming promotions the card takes
	// part in (the lamoda profile's copy), each with its price floor.
	Promotions []PromotionNote
}

// PromotionNote marks a card in a promotion on the prices form.
type PromotionNote struct {
	Name  string
	Floor string // "" when the promotion names none
	// FloorKopecks is the floor for the form's live check (static/app.js);
	// "" when none.
	FloorKopecks string
	Upcoming     bool
	// Below: the price typed is below the floor, so the price check will
	// hold the change, and "send anyway" takes the card out.
	Below bool
}

// CardPricesView is the per-card prices form.
type CardPricesView struct {
	Limit       string
	Limits      []Option
	Rows        []CardRow
	Pager       components.Pager
	Action      string
	Summary     *Summary
	ExportQuery string
	// ForceCards are the cards the "send anyway" submit confirms.
	ForceCards []string
	// Leaving names, per card "send anyway" confirms, the promotions it
	// leaves ("MP… «name»"); empty when none.
	Leaving []string
	// DropLimit is the largest drop below a card's current price, in
	// percent, the marketplace accepts (massupdate.MarketDropLimit): the
	// form warns as a bigger drop is typed, as the per-SKU form does.
	DropLimit int
	// Copy is the search and filters of the local copy; nil
	// when the dashboard has none.
	Copy *CopyToolbar
}

// fraudStatus labels a price-check finding's status in the language of
// ctx; a status the catalogues do not know is shown as sent.
func fraudStatus(ctx context.Context, status string) string {
	switch status {
	case "warning":
		return i18n.T(ctx, "prices.fraud_warning")
	case "restriction":
		return i18n.T(ctx, "prices.fraud_restriction")
	}
	return status
}
