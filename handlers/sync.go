package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// The local copy of the catalogue: the session's key into it,
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
	return copystore.AccountSource{Account: a.deps.Accounts.Detached(d.Current()), SellerID: d.SellerID, Credential: sessionCredential(c)}
}

// sessionCredential is the fingerprint of the secret the session's
// current account holds: a refusal marks that secret alone.
func sessionCredential(c echo.Context) copystore.Credential {
	d := session(c).Data()
	return copystore.CredentialOf(d.ClientID, d.Environment, d.ClientSecret)
}

// catalogLogin is called once a login succeeded (browse.Reader.LoggedIn):
// the copy is readable again and its sync starts in the background.
func (a *App) catalogLogin(c echo.Context) {
	if err := a.reads.LoggedIn(c.Request().Context(), copyKey(c), sessionCredential(c), a.copySource(c)); err != nil {
		a.logger(c.Request().Context()).Warn("catalogue copy: grant failed", "err", err)
	}
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

// catalogRefused acts on a refusal of the marketplace that reached the
// error handler (browse.Reader.Refused): a 401 a new token did not cure
// marks the session's credentials rejected everywhere
// (credentialsRevoked), a 403 revokes the session's copy.
func (a *App) catalogRefused(c echo.Context, err error) {
	if !loggedIn(session(c)) {
		return
	}
	ctx := context.WithoutCancel(c.Request().Context())
	if rerr := a.reads.Refused(ctx, copyKey(c), sessionCredential(c), err); rerr != nil {
		a.logger(ctx).Warn("catalogue copy: recording a refusal failed", "err", rerr)
	}
}

// credentialsRevoked reports whether the marketplace rejected the
// session's credentials in any session since they were last accepted at a
// login (catalogRefused, and the sync's own 401). requireLogin ends such a
// session without a call to the marketplace. The answer is read in one
// statement with the checks of the session's copy
// (copystore.Store.ReadRequestChecks), sent with the session's own load
// when the account was guessed right (readChecksWithSession); a GET keeps
// those checks for its page's reads (requestChecks), so the page does not
// read them again. A form post reads its own after it has written.
func (a *App) credentialsRevoked(c echo.Context) (bool, error) {
	k, cred := copyKey(c), sessionCredential(c)
	var chk *copystore.Checks
	if p, _ := c.Get(sessionChecksKey).(*sessionChecks); p != nil && p.read && p.err == nil && p.key == k && p.cred == cred {
		chk = p.checks
	} else {
		var err error
		if chk, err = a.deps.Catalog.Store().ReadRequestChecks(c.Request().Context(), k, cred); err != nil {
			return false, err
		}
	}
	if m := c.Request().Method; m == http.MethodGet || m == http.MethodHead {
		c.Set(checksKey, chk)
	}
	return chk.Rejected, nil
}

// sessionChecks are the request's checks read in the session's own round
// trip (sessions.Companion) for the account the session was guessed to
// act on: its key and credential, held against the session as loaded
// before the answer is used.
type sessionChecks struct {
	key    copystore.Key
	cred   copystore.Credential
	read   bool // the companion was sent and answered
	checks *copystore.Checks
	err    error // the companion's failure: the checks are read again
}

// sessionChecksKey holds the request's *sessionChecks.
const sessionChecksKey = "copystore.session-checks"

// readChecksWithSession asks the session's load to read the request's
// checks in the same round trip (on PostgreSQL, one batch), for the
// account the session held when this process last read it: the one the
// path names (acct), else its current one. credentialsRevoked uses the
// answer only if the session as loaded acts on that account with that
// secret, and reads them itself otherwise.
func (a *App) readChecksWithSession(c echo.Context, acct string) {
	p := &sessionChecks{}
	c.Set(sessionChecksKey, p)
	store := a.deps.Catalog.Store()
	ctx := sessions.WithCompanion(c.Request().Context(), func(last *sessions.Data) *sessions.Companion {
		cur := last.Current()
		if acct != "" {
			if named, ok := last.Account(acct); ok {
				cur = named
			}
		}
		if cur.ClientID == "" || cur.SellerID <= 0 {
			return nil
		}
		p.key = copystore.Key{SellerID: cur.SellerID, Env: cur.Environment}
		p.cred = copystore.CredentialOf(cur.ClientID, cur.Environment, cur.ClientSecret)
		q, args := store.RequestChecksQuery(p.key, p.cred)
		return &sessions.Companion{DB: store.DB(), SQL: q, Args: args, Scan: func(rows sessions.Rows, err error) {
			p.read = true
			if err != nil {
				p.err = err
				return
			}
			p.checks, p.err = copystore.ScanChecks(p.key, rows)
		}}
	})
	c.SetRequest(c.Request().WithContext(ctx))
}

// checksKey holds the checks requireLogin read for the request.
const checksKey = "copystore.checks"

// requestChecks are the checks of the session's copy requireLogin read
// for this request, or nil.
func requestChecks(c echo.Context) *copystore.Checks {
	chk, _ := c.Get(checksKey).(*copystore.Checks)
	return chk
}

var kindLabels = map[string]string{copystore.KindNomenclature: i18n.K("copy.kind_nomenclature"), copystore.KindOrders: i18n.K("copy.kind_orders"), copystore.KindBoxes: i18n.K("copy.kind_boxes")}

// syncView is the freshness line of the session's copy (browse.FreshnessOf).
func (a *App) syncView(ctx context.Context, states map[string]copystore.SyncState, running bool) pages.SyncView {
	f := browse.FreshnessOf(states, running, a.deps.Now())
	v := pages.SyncView{Poll: paths.In(ctx, paths.SyncStatus), Running: f.Running, Page: f.Page, Pages: f.Pages}
	switch f.Stop {
	case "":
	case copystore.StopUnauthorized:
		v.Error = i18n.T(ctx, "copy.stopped_unauthorized")
	case copystore.StopForbidden:
		v.Error = i18n.T(ctx, "copy.stopped_forbidden")
	default:
		v.Error = i18n.TD(ctx, "copy.last_error", map[string]any{"Error": f.Stop})
	}
	if f.Running {
		v.Kind = i18n.T(ctx, "copy.kind_copy") // this instance started one that has not begun a list yet
		if f.Kind != "" {
			v.Kind = i18n.In(i18n.LangOf(ctx), kindLabels[f.Kind], nil, nil) // keys checked where written (i18n.K)
		}
	}
	if !f.WaitUntil.IsZero() {
		v.Waiting = i18n.TD(ctx, "copy.waiting", map[string]any{"At": format.ClockIn(format.LocaleOf(ctx), f.WaitUntil)})
	}
	if f.Complete {
		v.AsOf = format.ClockIn(format.LocaleOf(ctx), f.AsOf)
	}
	return v
}

// SyncStatus serves the freshness line alone (htmx polls it while a sync
// runs).
func (a *App) SyncStatus(c echo.Context) error {
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
	if err := a.deps.Catalog.Forget(c.Request().Context(), copyKey(c)); err != nil {
		return err
	}
	session(c).AddFlash("ok", i18n.T(c.Request().Context(), "copy.forgotten"))
	return a.redirect(c, "/")
}
