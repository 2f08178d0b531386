package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// The local copy of the catalogue (issue 16): the session's key into it,
// the sync's start at login, "refresh now", "forget", and the freshness
// line every page served from the copy shows.

// copyKey is the copy the session may read: its seller in its environment.
func copyKey(c echo.Context) copystore.Key {
	d := session(c).Data()
	return copystore.Key{SellerID: d.SellerID, Env: d.Environment}
}

// copySource reads the session's seller for the background sync. Its
// account keeps its tokens in the client's own cache, not in the session,
// so a sync outliving the request never writes a session.
func (a *App) copySource(c echo.Context) copystore.Source {
	d := session(c).Data()
	creds := apiclient.Credentials{ClientID: d.ClientID, ClientSecret: d.ClientSecret, Environment: apiclient.Environment(d.Environment)}
	return copystore.AccountSource{Account: a.deps.API.Account(creds, nil), SellerID: d.SellerID}
}

// catalogLogin is called once a login succeeded: the copy is readable
// again (a 403 had revoked it) and its sync starts in the background.
func (a *App) catalogLogin(c echo.Context) {
	m := a.deps.Catalog
	if m == nil {
		return
	}
	k := copyKey(c)
	if err := m.Store().Grant(c.Request().Context(), k); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: grant failed", "err", err)
		return
	}
	m.Use(k, a.copySource(c))
}

// catalogUse records a page view of the copy and starts a sync when the
// copy is older than the interval (or one was left half done).
func (a *App) catalogUse(c echo.Context) {
	k := copyKey(c)
	if err := a.deps.Catalog.Store().Touch(c.Request().Context(), k); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: touch failed", "err", err)
	}
	a.deps.Catalog.Use(k, a.copySource(c))
}

// copyRevoked answers a read of a copy whose credential the marketplace
// refused: the session must log in again.
func copyRevoked() error {
	return echo.NewHTTPError(http.StatusForbidden, "The marketplace refused this account's credentials, so its data is no longer shown. Log in again.").
		SetInternal(errCopyRevoked)
}

// errCopyRevoked marks copyRevoked's answer, which describe words in the
// reader's language.
var errCopyRevoked = errors.New("copy revoked: the marketplace refused the credentials")

// catalogForbidden revokes the session's copy when a marketplace call of
// the request was refused with 403: access is cut at once, not at the next
// sync. It is called by the error handler.
func (a *App) catalogForbidden(c echo.Context, err error) {
	if a.deps.Catalog == nil || !errors.Is(err, apiclient.ErrForbidden) || !loggedIn(session(c)) {
		return
	}
	if rerr := a.deps.Catalog.Store().Revoke(context.WithoutCancel(c.Request().Context()), copyKey(c)); rerr != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: revoke failed", "err", rerr)
	}
}

var kindLabels = map[string]string{copystore.KindNomenclature: i18n.K("copy.kind_nomenclature"), copystore.KindOrders: i18n.K("copy.kind_orders"), copystore.KindBoxes: i18n.K("copy.kind_boxes")}

// syncView is the freshness line of the session's copy.
func (a *App) syncView(ctx context.Context, states map[string]copystore.SyncState, running bool) pages.SyncView {
	l := i18n.LangOf(ctx)
	v := pages.SyncView{Poll: "/sync/status"}
	var asOf time.Time
	complete := true
	for _, kind := range copystore.Kinds {
		st, ok := states[kind]
		if !ok || !st.Complete() {
			complete = false
		} else if asOf.IsZero() || st.CompletedAt.Before(asOf) {
			asOf = st.CompletedAt
		}
		if st.LastError != "" && v.Error == "" {
			v.Error = i18n.TD(ctx, "copy.last_error", map[string]any{"Error": st.LastError})
		}
		if ok && st.Running && !v.Running {
			v.Running, v.Kind, v.Page, v.Pages = true, i18n.In(l, kindLabels[kind], nil, nil), st.NextPage, st.Pages // keys checked where written (i18n.K)
			if !st.WaitUntil.IsZero() && st.WaitUntil.After(a.deps.Now()) {
				v.Waiting = i18n.TD(ctx, "copy.waiting", map[string]any{"At": format.ClockIn(format.LocaleOf(ctx), st.WaitUntil)})
			}
		}
	}
	if !v.Running && running {
		v.Running, v.Kind = true, i18n.T(ctx, "copy.kind_copy") // this instance started one that has not begun a list yet
	}
	if complete {
		v.AsOf = format.ClockIn(format.LocaleOf(ctx), asOf)
	}
	if v.Running {
		v.Error = ""
	}
	return v
}

// copyComplete reports whether a first full copy of every list exists.
func copyComplete(states map[string]copystore.SyncState) bool {
	for _, kind := range copystore.Kinds {
		if !states[kind].Complete() {
			return false
		}
	}
	return true
}

// SyncStatus serves the freshness line alone (htmx polls it while a sync
// runs).
func (a *App) SyncStatus(c echo.Context) error {
	if a.deps.Catalog == nil {
		return echo.ErrNotFound
	}
	k := copyKey(c)
	states, err := a.deps.Catalog.Store().SyncStates(c.Request().Context(), k)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return a.render(c, http.StatusOK, pages.SyncStatus(a.syncView(c.Request().Context(), states, a.deps.Catalog.Running(k))), nil)
}

// SyncRefresh starts a full refresh of the session's copy now.
func (a *App) SyncRefresh(c echo.Context) error {
	if a.deps.Catalog == nil {
		return echo.ErrNotFound
	}
	k := copyKey(c)
	a.deps.Catalog.Refresh(k, a.copySource(c))
	if !isHTMX(c.Request()) {
		return a.redirect(c, "/")
	}
	states, err := a.deps.Catalog.Store().SyncStates(c.Request().Context(), k)
	if err != nil {
		return err
	}
	return a.render(c, http.StatusOK, pages.SyncStatus(a.syncView(c.Request().Context(), states, true)), nil)
}

// SyncForget deletes the session's copy at once.
func (a *App) SyncForget(c echo.Context) error {
	if a.deps.Catalog == nil {
		return echo.ErrNotFound
	}
	if err := a.deps.Catalog.Forget(c.Request().Context(), copyKey(c)); err != nil {
		return err
	}
	session(c).AddFlash("ok", i18n.T(c.Request().Context(), "copy.forgotten"))
	return a.redirect(c, "/")
}
