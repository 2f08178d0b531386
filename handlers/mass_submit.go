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
	// sendAlong, when set, sends instead of send and tells log each
	// chunk's answer as it comes: the history's entry is written along the
	// send (historyAlong).
	sendAlong func(ctx context.Context, items []Out, log massupdate.ChunkLog) (*massupdate.Report, error)

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
	// problems or outcomes (rep, nil before a send) and the summary s;
	// answerState, when answer is not set, is the same given the form's
	// state.
	answer      func(c echo.Context, checked massupdate.Checked[In, Out], rep *massupdate.Report, s *pages.Summary) error
	answerState func(c echo.Context, st formState[In], s *pages.Summary) error
}

// formKind starts the massKind of a form whose rows are read by bind,
// checked by check and sent as kind by send (telling its log each chunk's
// answer), its types those of its parts.
func formKind[In, Out any](kind massupdate.Kind[Out], bind func(url.Values) ([]In, error),
	check func(url.Values, []In) (massupdate.Checked[In, Out], error),
	send func(context.Context, []Out, massupdate.ChunkLog) (*massupdate.Report, error)) massKind[In, Out] {
	return massKind[In, Out]{kind: kind, key: kind.Key, bind: bind, check: check, sendAlong: send}
}

// sendAs sends a form's rows as kind for the session's account
// (massupdate.SendPatching), telling log each chunk's answer; along, when
// set, starts the read run beside the last chunk, and last is told, once
// sent, that chunk's keys.
func sendAs[Out any](a *App, c echo.Context, kind massupdate.Kind[Out], along func(context.Context) (func(), error), last func(keys []string)) func(context.Context, []Out, massupdate.ChunkLog) (*massupdate.Report, error) {
	return func(ctx context.Context, items []Out, log massupdate.ChunkLog) (*massupdate.Report, error) {
		var beside func()
		if along != nil {
			var err error
			if beside, err = along(ctx); err != nil {
				return nil, err
			}
		}
		// Each chunk's accepted rows go into the copy while the next is in
		// flight; copyAccepted then has nothing left to write.
		rep, err := massupdate.SendPatching(ctx, a.deps.Engine, a.account(c), session(c).Data().SellerID, kind, items, beside,
			massupdate.CopyAt{Copy: a.deps.Catalog.Store(), Key: copyKey(c), Log: log})
		if err == nil && last != nil {
			last(massupdate.LastChunkKeys(kind, items, a.deps.Engine.Size()))
		}
		return rep, err
	}
}

// reply is the kind's answer to a submit that needs the user.
func (k massKind[In, Out]) reply(c echo.Context, checked massupdate.Checked[In, Out], rep *massupdate.Report, s *pages.Summary) error {
	if k.answer != nil {
		return k.answer(c, checked, rep, s)
	}
	return k.answerState(c, formState[In]{inputs: checked.Inputs, invalid: checked.Invalid, report: rep, held: checked.Held}, s)
}

// submitMass is the one submit flow of the mass-update forms: bind the
// rows, submit them (massupdate.SubmitForm: check, send what changed,
// record), then redirect with a flash when nothing changed or every row
// was accepted, else show each row's problem or fate (422).
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
	var checked massupdate.Checked[In, Out]
	var hist *massupdate.HistoryAlong // the entry written along the send, with sendAlong
	send := k.send
	if k.sendAlong != nil {
		send = func(ctx context.Context, items []Out) (*massupdate.Report, error) {
			hist = a.historyAlong(c, k.audit, func(key string) (i18n.Msgs, i18n.Msgs) { return k.change(checked.Inputs[key]) })
			return k.sendAlong(ctx, items, hist)
		}
	}
	f, err := massupdate.SubmitForm(ctx, rows, func(rows []In) (massupdate.Checked[In, Out], error) {
		ch, err := k.check(form, rows)
		checked = ch
		return ch, err
	}, send, k.key, func(f massupdate.FormSubmit[In, Out]) { k.record(a, c, f, hist) })
	if fe := (*massupdate.FormError)(nil); errors.As(err, &fe) {
		return echo.NewHTTPError(http.StatusBadRequest, fe.Msgs)
	}
	if err != nil {
		return massUpdateError(err)
	}
	sess, s := session(c), &pages.Summary{Held: f.Held, Unchanged: f.Unchanged}
	switch f.Outcome {
	case massupdate.FormInvalid:
		s.Invalid, s.Note = len(f.Checked.Invalid), i18n.Of(i18n.M(k.fixFirst, nil))
	case massupdate.FormUnchanged:
		sess.AddFlash("info", i18n.T(ctx, k.nothingChanged))
		return a.redirect(c, k.back)
	case massupdate.FormAnswered:
		s.Note = f.Report.Note()
	case massupdate.FormDone:
		sess.AddFlash("ok", i18n.N(ctx, k.updated, f.Report.Accepted))
		if k.shown != nil {
			sess.SetDraft(draftPricesDone, f.Done(maxDoneRows, func(in In) (string, string) { return k.shown(ctx, in) }))
		}
		return a.redirect(c, k.back)
	}
	return k.reply(c, f.Checked, f.Report, s)
}

// record keeps what the marketplace answered of a form's submit f: the
// history (the rest of hist's entry, when it was written along the send),
// the local copy, the kind's own step, the log.
func (k massKind[In, Out]) record(a *App, c echo.Context, f massupdate.FormSubmit[In, Out], hist *massupdate.HistoryAlong) {
	rep, sent := f.Report, f.Checked.Send
	if hist != nil {
		a.finishHistory(c.Request().Context(), hist, rep, f.Keys)
	} else {
		a.recordReport(c, k.audit, rep, f.Keys, func(key string) (i18n.Msgs, i18n.Msgs) { return k.change(f.Checked.Inputs[key]) })
	}
	copyAccepted(a, c, k.kind, rep, sent)
	if k.sent != nil {
		k.sent(rep, sent)
	}
	attrs := []any{"sent", len(sent), "accepted", rep.Accepted, "rejected", rep.Rejected, "unsent", rep.Unsent}
	if k.logged != nil {
		attrs = append(attrs, k.logged(rep, sent)...)
	}
	a.logger(c.Request().Context()).Info(k.name+" submitted", attrs...)
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
