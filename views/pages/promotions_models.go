package pages

import "github.com/sellerdesk/sellerdesk/views/components"

// PromotionsView is the "Promotions" page of an account: the seller's
// running and upcoming promotions from the local copy, and the cards
// taking part in the one selected.
type PromotionsView struct {
	// Notice, when set, says why there is nothing to show: NoticeProfile
	// (a profile without promotions), NoticeNotSynced.
	Notice string
	Rows   []PromotionRow
	// Selected is the promotion whose cards are shown; nil for none.
	Selected *PromotionCards
	// Synced says when the copy's promotions were read (words, zone
	// labelled); "" when never.
	Synced string
}

// Notices of the promotions page.
const (
	NoticeProfile   = "profile"
	NoticeNotSynced = "not-synced"
)

// PromotionRow is one promotion with its windows and terms, as words.
type PromotionRow struct {
	ID       string
	Name     string
	Upcoming bool
	Active   string // "from – to"
	AddUntil string // "" when the marketplace gave none
	// RemoveUntil ends the window for taking cards out.
	RemoveUntil string
	Closed      bool // registration closed
	Discount    string
	Lamoda      string // the marketplace's share of the discount, "" when none
	Floor       string // the promo price floor
	Cards       int
	Href        string
	Current     bool
}

// PromotionCards is a page of the cards of the selected promotion.
type PromotionCards struct {
	ID, Name string
	Search   string
	Action   string
	Rows     []PromotionCardRow
	Pager    components.Pager
}

// PromotionCardRow is one card taking part, as words.
type PromotionCardRow struct {
	Parent, SellerSKU, Name string
	Price, Sale             string
	Recommended             string
	BelowFloor              bool
	Status                  string
}
