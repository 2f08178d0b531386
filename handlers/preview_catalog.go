package handlers

import (
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// currentValues is where the session's previews and submits read current
// values (massupdate.Engine.Values): the copy once a full copy of the
// seller exists, else live.
func (a *App) currentValues(c echo.Context) (massupdate.Current, error) {
	ok, _, err := a.fromCopy(c)
	if err != nil {
		return nil, err
	}
	seller := session(c).Data().SellerID
	if !ok {
		return a.deps.Engine.Values(a.pageContext(c), nil, a.account(c), seller), nil
	}
	cp := &massupdate.CopySource{Store: a.deps.Catalog.Store(), Key: copyKey(c),
		Record: func(r *copystore.Record) apiclient.Nomenclature { return copyNomenclature(seller, r) }}
	read := a.deps.Engine.Values(c.Request().Context(), cp, nil, seller)
	return func(want massupdate.Want) (*massupdate.Catalog, error) {
		cat, err := read(want)
		if errors.Is(err, copystore.ErrRevoked) {
			return nil, copyRevoked()
		}
		return cat, err
	}, nil
}

// previewCatalog reads the current values of the records want names.
func (a *App) previewCatalog(c echo.Context, want massupdate.Want) (*massupdate.Catalog, error) {
	cur, err := a.currentValues(c)
	if err != nil {
		return nil, err
	}
	return cur(want)
}

// profile is the marketplace's wire profile as an import reads it.
func (a *App) profile() massupdate.Profile {
	return massupdate.Profile{FilterWrites: a.deps.API.FilterWrites(), PricesByCard: a.deps.API.PricesByCard()}
}

// preview checks the rows of t, of kind, against the current values
// (massupdate.Preview), each card's promotions read from the copy.
func (a *App) preview(c echo.Context, kind string, t *bulkjobs.Table, m bulkjobs.Mapping) ([]bulkjobs.Item, error) {
	cur, err := a.currentValues(c)
	if err != nil {
		return nil, err
	}
	return massupdate.Preview(massupdate.PreviewInput{
		Profile: a.profile(), Kind: kind, Table: t, Mapping: m, Guard: a.deps.Jobs.GuardPercent(), Current: cur,
		Promotions: func(parents []string) map[string][]copystore.CardPromotion { return a.cardPromotions(c, parents) },
		Now:        a.deps.Now(),
	})
}
