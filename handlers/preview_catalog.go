package handlers

import (
	"errors"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/massupdate"
)

// previewCatalog reads the current values of the records want names
// where the session's previews and submits read them (browse.Seller.Values:
// the copy once a full copy of the seller exists, else live); the copy's
// refusal is answered as the pages answer it.
func (a *App) previewCatalog(c echo.Context, want massupdate.Want) (*massupdate.Catalog, error) {
	read, err := a.seller(c).Values(c.Request().Context(), a.deps.Engine)
	if err != nil {
		return nil, err
	}
	cat, err := read(want)
	if errors.Is(err, copystore.ErrRevoked) {
		return nil, copyRevoked()
	}
	return cat, err
}

// profile is the marketplace's wire profile as an import reads it.
func (a *App) profile() massupdate.Profile {
	return massupdate.Profile{FilterWrites: a.deps.API.FilterWrites(), PricesByCard: a.deps.API.PricesByCard()}
}

// importCases are the bulk-import use cases of the session
// (massupdate.Imports): its profile, guard, current values read as a
// preview reads them (previewCatalog), each card's promotions from the
// copy, its account, and the job store.
func (a *App) importCases(c echo.Context) massupdate.Imports {
	sess := session(c)
	d := sess.Data()
	return massupdate.Imports{
		Profile: a.profile(), Guard: a.deps.Jobs.GuardPercent(), ChunkSize: a.deps.Engine.Size(),
		Current:    func(want massupdate.Want) (*massupdate.Catalog, error) { return a.previewCatalog(c, want) },
		Promotions: func(parents []string) map[string][]copystore.CardPromotion { return a.cardPromotions(c, parents) },
		Now:        a.deps.Now,
		Owner: massupdate.Owner{ClientID: d.ClientID, DisplayName: d.DisplayName, Environment: d.Environment, SellerID: d.SellerID,
			SessionRef: sess.ID()},
		Jobs:  a.deps.Jobs.Store(),
		NewID: newJobID,
	}
}

// importError maps an import use case's error: the job store failing is
// the session database failing.
func importError(err error) error {
	var se *massupdate.JobStoreError
	if errors.As(err, &se) {
		return errSessionStore(se.Err)
	}
	return err
}
