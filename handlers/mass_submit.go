package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// draftPricesDone is the session draft that carries the before and after
// of the rows a redirected prices or nomenclature submit updated to the
// page it lands on.
const draftPricesDone = "prices-done"

// maxDoneRows bounds what draftPricesDone keeps.
const maxDoneRows = 300

// massKind describes one mass-update form to submitMass: how its rows In
// are read and checked into what is sent, Out; how they are sent and
// recorded; the messages and the page that answer. Each handler builds
// its kind per request, so the closures may share the request's state.
type massKind[In, Out any] struct {
	// name names the form in the log ("prices", "card prices", …).
	name string
	// back is where a submit that needs nothing more redirects.
	back string
	// Message keys, written with i18n.K (so the key test checks them):
	// the form could not be read; fix the invalid rows first; nothing
	// changed; n rows updated.
	unreadable, fixFirst, nothingChanged, updated string

	bind  func(form url.Values) ([]In, error)
	check func(form url.Values, rows []In) (massupdate.Checked[In, Out], error)
	send  func(ctx context.Context, items []Out) (*massupdate.Report, error)

	// audit is the history's kind of the change; key names an item sent
	// as its row's key; change is a row's before and after as the
	// history keeps them.
	audit  string
	key    func(Out) string
	change func(In) (before, after i18n.Msgs)
	// kind is what the rows are sent as: the local copy takes the
	// accepted ones as it says (massupdate.PatchCopy).
	kind massupdate.Kind[Out]

	// sent, when set, runs once the marketplace has answered, before the
	// answer is chosen; logged adds to the log line.
	sent   func(rep *massupdate.Report, items []Out)
	logged func(rep *massupdate.Report, items []Out) []any
	// shown, when set, is a row's before and after in the language of
	// ctx, kept for the page a complete submit redirects to.
	shown func(ctx context.Context, in In) (before, after string)

	// answer renders the form again (422) with the rows as typed, their
	// problems or outcomes (rep, nil before a send) and the summary s.
	answer func(c echo.Context, checked massupdate.Checked[In, Out], rep *massupdate.Report, s *pages.Summary) error
}

// submitMass is the one submit flow of the mass-update forms: bind the
// rows, check them, answer the invalid ones or say nothing changed, send
// the changed ones, record them in the history, then redirect with a
// flash when every row was accepted, else show each row's fate (422).
func submitMass[In, Out any](a *App, c echo.Context, k massKind[In, Out]) error {
	ctx := c.Request().Context()
	form, err := postForm(c)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(ctx, k.unreadable))
	}
	rows, err := k.bind(form)
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.MsgsOf(err))
	}
	checked, err := k.check(form, rows)
	if err != nil {
		return err
	}
	unchanged := len(rows) - len(checked.Inputs)
	sess := session(c)
	held := checked.Waiting() // beyond the price guard, not confirmed: not sent
	if len(checked.Invalid) > 0 {
		return k.answer(c, checked, nil, &pages.Summary{Invalid: len(checked.Invalid), Held: held, Unchanged: unchanged, Note: i18n.Of(i18n.M(k.fixFirst, nil))})
	}
	if len(checked.Send) == 0 && held > 0 {
		return k.answer(c, checked, nil, &pages.Summary{Held: held, Unchanged: unchanged})
	}
	if len(checked.Send) == 0 {
		sess.AddFlash("info", i18n.T(ctx, k.nothingChanged))
		return a.redirect(c, k.back)
	}
	rep, err := k.send(ctx, checked.Send)
	if err != nil {
		return massUpdateError(err)
	}
	keys := keysOf(checked.Send, k.key)
	a.recordReport(c, k.audit, rep, keys, func(key string) (i18n.Msgs, i18n.Msgs) { return k.change(checked.Inputs[key]) })
	copyAccepted(a, c, k.kind, rep, checked.Send)
	if k.sent != nil {
		k.sent(rep, checked.Send)
	}
	attrs := []any{"sent", len(checked.Send), "accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent}
	if k.logged != nil {
		attrs = append(attrs, k.logged(rep, checked.Send)...)
	}
	a.logger(ctx).Info(k.name+" submitted", attrs...)
	// A price-check finding is shown on the form even when its card was
	// accepted.
	if rep.Complete() && len(rep.Fraud) == 0 && held == 0 {
		sess.AddFlash("ok", i18n.N(ctx, k.updated, rep.Accepted))
		if k.shown != nil {
			done := make(map[string][]string, min(len(keys), maxDoneRows))
			for _, key := range keys {
				if len(done) < maxDoneRows {
					before, after := k.shown(ctx, checked.Inputs[key])
					done[key] = []string{before, after}
				}
			}
			sess.SetDraft(draftPricesDone, done)
		}
		return a.redirect(c, k.back)
	}
	return k.answer(c, checked, rep, &pages.Summary{Held: held, Unchanged: unchanged, Note: rep.Note()})
}

// massUpdateError maps a mass update's error: the per-seller lock failing
// is the session database failing.
func massUpdateError(err error) error {
	var le *massupdate.LockError
	if errors.As(err, &le) {
		return errSessionStore(le.Err)
	}
	return err
}
