package massupdate

// Promotions beside the card prices form (the lamoda profile), from the
// local copy's promotions: each card's running or upcoming promotions
// with their floors and whether the price a row asks is below one, the
// names "send anyway" says a card leaves, and the message a card forced
// and accepted carries that it left them.

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// PromotionNote is one promotion of a card beside the form: its name,
// whether it is still to come at the time asked, its floor in kopecks (0:
// none) and whether the price the row asks is below it.
type PromotionNote struct {
	Name     string
	Upcoming bool
	Floor    int64
	Below    bool
}

// PromotionNotes are a card's promotions ps beside a row asking price
// (as typed; a price that does not read is below no floor), at now.
func PromotionNotes(ps []copystore.CardPromotion, price string, now time.Time) []PromotionNote {
	asked, err := apiclient.ParseMoney(price)
	out := make([]PromotionNote, 0, len(ps))
	for _, p := range ps {
		n := PromotionNote{Name: p.Name, Upcoming: now.Before(p.ActiveFrom)}
		if p.Floor > 0 {
			n.Floor, n.Below = p.Floor, err == nil && int64(asked) < p.Floor
		}
		out = append(out, n)
	}
	return out
}

// PromotionNames writes the promotions' names, each in «».
func PromotionNames(ps []copystore.CardPromotion) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("«" + i18n.Clean(p.Name) + "»")
	}
	return b.String()
}

// ForcedAccepted are the cards sent with force that rep says were
// accepted: they left their promotions.
func ForcedAccepted(rep *Report, cards []CardPrice) []string {
	if rep == nil {
		return nil
	}
	var forced []string
	for _, cp := range cards {
		if cp.Force && rep.Outcomes[cp.Parent].State == Accepted {
			forced = append(forced, cp.Parent)
		}
	}
	return forced
}

// NoteLeftPromotions adds to the outcome of each card forced (of
// ForcedAccepted) in a promotion of promos the message that it left them,
// for the answer and the history.
func NoteLeftPromotions(rep *Report, forced []string, promos map[string][]copystore.CardPromotion) {
	for _, parent := range forced {
		names := PromotionNames(promos[parent])
		if names == "" {
			continue
		}
		o := rep.Outcomes[parent]
		o.Messages = append(o.Messages, i18n.M("prices.left_promotions", map[string]any{"Names": names}))
		rep.Outcomes[parent] = o
	}
}

// PromotionCardsPage is the number of cards a page of a promotion shows.
const PromotionCardsPage = 50

// maxPromotionSearch bounds the search of a promotion's cards, in runes.
const maxPromotionSearch = 100

// PromotionsPage is the promotions page (the lamoda profile) from the
// local copy: the seller's promotions, the one selected and a page of its
// cards matching the search. No promotion: none synced yet.
type PromotionsPage struct {
	Promotions []copystore.Promotion
	// Selected is the promotion shown: the one asked, else the first.
	Selected           int64
	Search             string
	Cards              []copystore.PromotionCard
	Page, Pages, Total int
}

// PromotionStore is where the promotions page reads: the local copy
// (copystore.Store).
type PromotionStore interface {
	Promotions(ctx context.Context, k copystore.Key) ([]copystore.Promotion, error)
	PromotionCards(ctx context.Context, k copystore.Key, promotion int64, search string, offset, limit int) ([]copystore.PromotionCard, int, error)
}

// ReadPromotions reads the promotions page of seller k: promotion
// selected (0: the first), its cards matching search (trimmed, bounded at
// a rune boundary), page page (from 1) of PromotionCardsPage.
func ReadPromotions(ctx context.Context, store PromotionStore, k copystore.Key, selected int64, search string, page int) (PromotionsPage, error) {
	promos, err := store.Promotions(ctx, k)
	if err != nil || len(promos) == 0 {
		return PromotionsPage{}, err
	}
	p := PromotionsPage{Promotions: promos, Selected: selected, Page: max(page, 1), Search: strings.TrimSpace(search)}
	if p.Selected == 0 {
		p.Selected = promos[0].ID
	}
	if r := []rune(p.Search); len(r) > maxPromotionSearch {
		p.Search = string(r[:maxPromotionSearch])
	}
	if !slices.ContainsFunc(promos, func(pr copystore.Promotion) bool { return pr.ID == p.Selected }) {
		return p, nil
	}
	p.Cards, p.Total, err = store.PromotionCards(ctx, k, p.Selected, p.Search, (p.Page-1)*PromotionCardsPage, PromotionCardsPage)
	p.Pages = max(1, (p.Total+PromotionCardsPage-1)/PromotionCardsPage)
	return p, err
}
