package massupdate

// The bulk-import use cases: a file's rows become a preview (Preview), a
// job's refused rows a new one (bulkjobs.RetryTable, then Preview), and a
// preview a running job (Submit, submit.go). The marketplace's wire
// profile decides how rows are read and checked (Profile), here and
// nowhere else.

import (
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
)

// Profile is what of the marketplace's wire profile an import depends on
// (apiclient.Client.FilterWrites and PricesByCard; the lamoda profile has
// both).
type Profile struct {
	// FilterWrites: stock and status are written by a filter on the
	// seller's SKU, with no warehouse.
	FilterWrites bool
	// PricesByCard: prices are keyed by product card.
	PricesByCard bool
}

// StockColumns are the columns of a stock file: without a warehouse where
// the marketplace keeps none.
func (p Profile) StockColumns() []bulkjobs.Column {
	if p.FilterWrites {
		return bulkjobs.StockColumnsNoWarehouse()
	}
	return bulkjobs.StockColumns
}

// Kind is the kind of a file of the header given: kind itself when it is
// "prices" or "stock", else a stock file when the header has a barcode
// and the stock columns, else a price file.
func (p Profile) Kind(kind string, header []string) string {
	if kind == Prices.Name || kind == Stock.Name {
		return kind
	}
	if m, probs := bulkjobs.MapColumns(header, p.StockColumns()); len(probs) == 0 && m.Has("barcode") {
		return Stock.Name
	}
	return Prices.Name
}

// Columns are the columns of a file of kind.
func (p Profile) Columns(kind string) []bulkjobs.Column {
	if kind == Stock.Name {
		return p.StockColumns()
	}
	return bulkjobs.PriceColumns
}

// Want names the records a file's rows concern; where prices are keyed
// by card, a price file's cards with all their sizes.
func (p Profile) Want(kind string, t *bulkjobs.Table, m bulkjobs.Mapping) Want {
	w := WantRows(kind, t, m)
	w.Cards = kind != Stock.Name && p.PricesByCard
	return w
}

// Items checks the rows of t against the previewer's catalogue as the
// profile reads a file of kind.
func (p Profile) Items(pv Previewer, kind string, t *bulkjobs.Table, m bulkjobs.Mapping) []bulkjobs.Item {
	switch {
	case kind == Stock.Name && p.FilterWrites:
		return pv.FilterStockItems(t, m) // preview_cards.go
	case kind == Stock.Name:
		return pv.StockItems(t, m)
	case p.PricesByCard:
		return pv.CardPriceItems(t, m) // preview_cards.go
	default:
		return pv.PriceItems(t, m)
	}
}

// Current reads the current values of the records want names (Values).
type Current func(Want) (*Catalog, error)

// Promotions reads the promotions of the product cards named (copystore's
// CardPromotions); nil where there are none or none are known.
type Promotions func(parents []string) map[string][]copystore.CardPromotion

// PreviewInput is what a preview is made of: a table of rows (a file's,
// or a job's rows again) of kind, read as the profile reads them.
type PreviewInput struct {
	Profile Profile
	Kind    string
	Table   *bulkjobs.Table
	Mapping bulkjobs.Mapping
	// Guard is the fat-finger guard in percent; 0 is off.
	Guard      int
	Current    Current
	Promotions Promotions // nil: no promotions are marked
	Now        time.Time
}

// Preview checks every row of in.Table against the current values of the
// records it names: each becomes a job row flagged ok, unchanged, invalid
// or needing confirmation, with its product's name, and, on a price
// preview, its card's promotions.
func Preview(in PreviewInput) ([]bulkjobs.Item, error) {
	cat, err := in.Current(in.Profile.Want(in.Kind, in.Table, in.Mapping))
	if err != nil {
		return nil, err
	}
	p := Previewer{Guard: in.Guard, Catalog: cat}
	items := in.Profile.Items(p, in.Kind, in.Table, in.Mapping)
	p.Named(items) // the product's name beside its key
	if in.Kind != Stock.Name && in.Promotions != nil {
		if cards := p.CardsOf(items); len(cards) > 0 {
			p.MarkPromotions(items, in.Promotions(cards), in.Now)
		}
	}
	return items, nil
}
