package copystore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// The copy's promotions (the lamoda profile's): the seller's running and
// upcoming promotions with the product cards taking part, replaced whole
// by each sync after the catalogue's pass, one request in flight for the
// seller at a time, bounded whatever the marketplace sends.

// Bounds of a promotions sync.
const (
	// MaxPromotions is the most promotions of a seller the copy keeps.
	MaxPromotions = 100
	// MaxPromotionCards is the most cards of one promotion the copy keeps.
	MaxPromotionCards = 10_000
	// promotionPage is the page size the cards are read in.
	promotionPage = apiclient.MaxPromotionProducts
)

// PromotionSource reads a seller's promotions from the marketplace.
type PromotionSource interface {
	Promotions(ctx context.Context) ([]apiclient.Promotion, error)
	PromotionCards(ctx context.Context, promotion int64, offset, limit int) (cards []apiclient.PromotionProduct, total int, err error)
}

// Promotions reads the seller's promotions (the lamoda profile; the
// contract profile has none: apiclient.ErrNotSupported).
func (a AccountSource) Promotions(ctx context.Context) ([]apiclient.Promotion, error) {
	l, err := a.Account.Seller.ListPromotions(ctx, a.SellerID)
	if err != nil {
		return nil, err
	}
	return l.Promotions, nil
}

// PromotionCards reads a page of the cards taking part in a promotion.
func (a AccountSource) PromotionCards(ctx context.Context, promotion int64, offset, limit int) ([]apiclient.PromotionProduct, int, error) {
	l, err := a.Account.Seller.ListPromotionProducts(ctx, &apiclient.PromotionProductsRequest{SellerID: a.SellerID, PromotionID: promotion, Offset: offset, Limit: limit})
	if err != nil {
		return nil, 0, err
	}
	return l.Products, l.Total, nil
}

// Promotion is a promotion in the copy. Times are zero where the
// marketplace gave none; money is in kopecks.
type Promotion struct {
	ID                             int64
	Name, Type, Status             string
	ActiveFrom, ActiveTo           time.Time
	AddFrom, AddTo, DeleteTo       time.Time
	RegistrationClosed             bool
	DiscountPercent, LamodaPercent float64
	ProductMinPrice                int64
	Cards                          int // cards the copy holds
	SyncedAt                       time.Time
}

// Upcoming reports whether p has not begun at now.
func (p Promotion) Upcoming(now time.Time) bool { return now.Before(p.ActiveFrom) }

// PromotionCard is a card taking part in a promotion, in the copy.
type PromotionCard struct {
	PromotionID                       int64
	ParentSKU, SellerSKU, Name        string
	Price, SalePrice                  int64
	DiscountPercent                   float64
	BelowFloor                        bool
	RecommendedPrice, RecommendedSale int64
	PriceStatus                       string
}

// migrationPromotions is the step adding the promotions' tables.
const migrationPromotions = `CREATE TABLE catalog_promotions (
		seller_id     BIGINT NOT NULL,
		env           TEXT   NOT NULL,
		id            BIGINT NOT NULL,
		name          TEXT   NOT NULL,
		type          TEXT   NOT NULL,
		status        TEXT   NOT NULL,
		active_from   BIGINT NOT NULL,
		active_to     BIGINT NOT NULL,
		add_from      BIGINT NOT NULL,
		add_to        BIGINT NOT NULL,
		delete_to     BIGINT NOT NULL,
		closed        INTEGER NOT NULL,
		discount      BIGINT NOT NULL,
		lamoda_share  BIGINT NOT NULL,
		min_price     BIGINT NOT NULL,
		cards         INTEGER NOT NULL,
		synced_at     BIGINT NOT NULL,
		PRIMARY KEY (seller_id, env, id)
	);
	CREATE TABLE catalog_promotion_cards (
		seller_id     BIGINT NOT NULL,
		env           TEXT   NOT NULL,
		promotion_id  BIGINT NOT NULL,
		parent_sku    TEXT   NOT NULL,
		seller_sku    TEXT   NOT NULL,
		name          TEXT   NOT NULL,
		price         BIGINT NOT NULL,
		sale_price    BIGINT NOT NULL,
		discount      BIGINT NOT NULL,
		below_floor   INTEGER NOT NULL,
		recommended   BIGINT NOT NULL,
		recommended_sale BIGINT NOT NULL,
		price_status  TEXT   NOT NULL,
		search        TEXT   NOT NULL,
		PRIMARY KEY (seller_id, env, promotion_id, parent_sku)
	);
	CREATE INDEX catalog_promotion_cards_card ON catalog_promotion_cards (seller_id, env, parent_sku)`

// percentHundredths stores a percentage as hundredths.
func percentHundredths(p float64) int64 { return int64(p*100 + 0.5) }

// SyncPromotions replaces the copy's promotions of k with the seller's
// running and upcoming ones (a promotion that ended before now is left
// out) and their cards, read from src one request at a time, each under
// the seller's lock. A card a page repeats is kept once. Nothing is
// written when a read fails, nor to a copy forgotten meanwhile.
func (s *Store) SyncPromotions(ctx context.Context, k Key, lock Locker, src PromotionSource) error {
	read := func(fn func() error) error {
		unlock, err := lock.LockSeller(ctx, k.SellerID)
		if err != nil {
			return fmt.Errorf("copystore: promotions lock: %w", err)
		}
		defer unlock()
		return fn()
	}
	var all []apiclient.Promotion
	if err := read(func() (err error) { all, err = src.Promotions(ctx); return err }); err != nil {
		return err
	}
	now := s.now()
	var promos []apiclient.Promotion
	for _, p := range all {
		if p.ID > 0 && (p.ActiveTo.IsZero() || !p.ActiveTo.Before(now)) && len(promos) < MaxPromotions {
			promos = append(promos, p)
		}
	}
	cards := make([][]apiclient.PromotionProduct, len(promos))
	for i, p := range promos {
		seen := map[string]bool{}
		for offset := 0; offset < MaxPromotionCards; offset += promotionPage {
			var page []apiclient.PromotionProduct
			var total int
			if err := read(func() (err error) {
				page, total, err = src.PromotionCards(ctx, p.ID, offset, promotionPage)
				return err
			}); err != nil {
				return err
			}
			for _, c := range page {
				if c.ParentSKU != "" && !seen[c.ParentSKU] && len(cards[i]) < MaxPromotionCards {
					seen[c.ParentSKU] = true
					cards[i] = append(cards[i], c)
				}
			}
			if len(page) < promotionPage || offset+len(page) >= total {
				break
			}
		}
	}
	at := sqldb.Millis(now)
	return s.tx(ctx, func(tx *sql.Tx) error {
		var forgotten int
		err := tx.QueryRowContext(ctx, s.q(`SELECT forgotten FROM catalog_copies WHERE seller_id = ? AND env = ?`), k.SellerID, k.Env).Scan(&forgotten)
		if errors.Is(err, sql.ErrNoRows) || forgotten != 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("copystore: promotions: %w", err)
		}
		if err := s.deleteRows(ctx, tx, k, "catalog_promotion_cards", "catalog_promotions"); err != nil {
			return err
		}
		for i, p := range promos {
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_promotions
				(seller_id, env, id, name, type, status, active_from, active_to, add_from, add_to, delete_to, closed, discount, lamoda_share, min_price, cards, synced_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
				k.SellerID, k.Env, p.ID, bound(p.Name, maxNameBytes), bound(p.Type, maxFieldBytes), bound(p.Status, maxFieldBytes),
				millisOrZero(p.ActiveFrom), millisOrZero(p.ActiveTo), millisOrZero(p.AddFrom), millisOrZero(p.AddTo), millisOrZero(p.DeleteTo),
				boolInt(p.RegistrationClosed), percentHundredths(p.DiscountPercent), percentHundredths(p.LamodaDiscountPercent),
				p.ProductMinPrice.Kopecks(), len(cards[i]), at); err != nil {
				return fmt.Errorf("copystore: promotions: %w", err)
			}
			for _, c := range cards[i] {
				parent, ssku, name := bound(c.ParentSKU, maxFieldBytes), bound(c.SellerSKU, maxFieldBytes), bound(c.Name, maxNameBytes)
				if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO catalog_promotion_cards
					(seller_id, env, promotion_id, parent_sku, seller_sku, name, price, sale_price, discount, below_floor, recommended, recommended_sale, price_status, search)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
					k.SellerID, k.Env, p.ID, parent, ssku, name, c.Price.Kopecks(), c.SalePrice.Kopecks(), percentHundredths(c.DiscountPercent),
					boolInt(c.BelowFloor), c.RecommendedPrice.Kopecks(), c.RecommendedSalePrice.Kopecks(), bound(c.PriceUpdateStatus, maxFieldBytes),
					string(appendFolded(nil, parent+" "+ssku+" "+name))); err != nil {
					return fmt.Errorf("copystore: promotion cards: %w", err)
				}
			}
		}
		return nil
	})
}

func millisOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return sqldb.Millis(t)
}

func timeOrZero(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return sqldb.FromMillis(ms)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Promotions reads the copy's promotions of k, the earliest first.
func (s *Store) Promotions(ctx context.Context, k Key) ([]Promotion, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return nil, readable(err)
	}
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT id, name, type, status, active_from, active_to, add_from, add_to, delete_to, closed,
		discount, lamoda_share, min_price, cards, synced_at FROM catalog_promotions WHERE seller_id = ? AND env = ? ORDER BY active_from, id`), k.SellerID, k.Env)
	if err != nil {
		return nil, fmt.Errorf("copystore: promotions: %w", err)
	}
	defer rows.Close()
	var out []Promotion
	for rows.Next() {
		var p Promotion
		var from, to, addFrom, addTo, delTo, synced, disc, share int64
		var closed int
		if err := rows.Scan(&p.ID, &p.Name, &p.Type, &p.Status, &from, &to, &addFrom, &addTo, &delTo, &closed, &disc, &share,
			&p.ProductMinPrice, &p.Cards, &synced); err != nil {
			return nil, fmt.Errorf("copystore: promotions: %w", err)
		}
		p.ActiveFrom, p.ActiveTo, p.AddFrom, p.AddTo, p.DeleteTo = timeOrZero(from), timeOrZero(to), timeOrZero(addFrom), timeOrZero(addTo), timeOrZero(delTo)
		p.RegistrationClosed, p.DiscountPercent, p.LamodaPercent, p.SyncedAt = closed != 0, float64(disc)/100, float64(share)/100, timeOrZero(synced)
		out = append(out, p)
	}
	return out, rows.Err()
}

// PromotionCards reads a page of the cards of promotion in the copy of k
// whose card, seller SKU or name holds search (folded as the catalogue's
// search folds), in card order, with their count.
func (s *Store) PromotionCards(ctx context.Context, k Key, promotion int64, search string, offset, limit int) ([]PromotionCard, int, error) {
	if err := s.checkAccess(ctx, k); err != nil {
		return nil, 0, readable(err)
	}
	where := `seller_id = ? AND env = ? AND promotion_id = ?`
	args := []any{k.SellerID, k.Env, promotion}
	if f := strings.TrimSpace(string(appendFolded(nil, bound(search, maxFieldBytes)))); f != "" {
		where += ` AND search LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(f)+"%")
	}
	var total int
	if err := s.r.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM catalog_promotion_cards WHERE `+where), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("copystore: promotion cards: %w", err)
	}
	lim, largs := sqldb.Limit(min(max(limit, 0), MaxLimit), offset)
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT parent_sku, seller_sku, name, price, sale_price, discount, below_floor, recommended, recommended_sale, price_status
		FROM catalog_promotion_cards WHERE `+where+` ORDER BY parent_sku`+lim), append(args, largs...)...)
	if err != nil {
		return nil, 0, fmt.Errorf("copystore: promotion cards: %w", err)
	}
	defer rows.Close()
	var out []PromotionCard
	for rows.Next() {
		c := PromotionCard{PromotionID: promotion}
		var disc int64
		var below int
		if err := rows.Scan(&c.ParentSKU, &c.SellerSKU, &c.Name, &c.Price, &c.SalePrice, &disc, &below, &c.RecommendedPrice, &c.RecommendedSale, &c.PriceStatus); err != nil {
			return nil, 0, fmt.Errorf("copystore: promotion cards: %w", err)
		}
		c.DiscountPercent, c.BelowFloor = float64(disc)/100, below != 0
		out = append(out, c)
	}
	return out, total, rows.Err()
}

// likeEscaper escapes LIKE's wildcards and its escape character.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// CardPromotion is a promotion a card takes part in, with the card's
// terms in it.
type CardPromotion struct {
	PromotionID          int64
	Name                 string
	ActiveFrom, ActiveTo time.Time
	// Floor is the promo price floor: the promotion's product_min_price,
	// else the price the promotion asks of the card (kopecks; 0: none).
	Floor int64
}

// maxCardLookup bounds the cards one CardPromotions statement names.
const maxCardLookup = 500

// CardPromotions reads, for each of parents, the promotions of the copy
// of k it takes part in, the earliest first (a card in none is absent).
func (s *Store) CardPromotions(ctx context.Context, k Key, parents []string) (map[string][]CardPromotion, error) {
	out := map[string][]CardPromotion{}
	for len(parents) > 0 {
		chunk := parents[:min(len(parents), maxCardLookup)]
		parents = parents[len(chunk):]
		args := []any{k.SellerID, k.Env}
		marks := make([]string, len(chunk))
		for i, p := range chunk {
			marks[i] = "?"
			args = append(args, p)
		}
		rows, err := s.r.QueryContext(ctx, s.q(`SELECT c.parent_sku, p.id, p.name, p.active_from, p.active_to, p.min_price, c.recommended
			FROM catalog_promotion_cards c JOIN catalog_promotions p ON p.seller_id = c.seller_id AND p.env = c.env AND p.id = c.promotion_id
			WHERE c.seller_id = ? AND c.env = ? AND c.parent_sku IN (`+strings.Join(marks, ", ")+`)
			ORDER BY p.active_from, p.id`), args...)
		if err != nil {
			return nil, fmt.Errorf("copystore: card promotions: %w", err)
		}
		for rows.Next() {
			var parent string
			var cp CardPromotion
			var from, to, minPrice, recommended int64
			if err := rows.Scan(&parent, &cp.PromotionID, &cp.Name, &from, &to, &minPrice, &recommended); err != nil {
				rows.Close()
				return nil, fmt.Errorf("copystore: card promotions: %w", err)
			}
			cp.ActiveFrom, cp.ActiveTo, cp.Floor = timeOrZero(from), timeOrZero(to), minPrice
			if cp.Floor == 0 {
				cp.Floor = recommended
			}
			out[parent] = append(out[parent], cp)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("copystore: card promotions: %w", err)
		}
	}
	return out, nil
}
