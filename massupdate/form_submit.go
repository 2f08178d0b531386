package massupdate

import "context"

// FormOutcome is what a mass-update form's submit comes to, and so how
// the form answers.
type FormOutcome int

const (
	// FormInvalid: rows to fix; nothing was sent.
	FormInvalid FormOutcome = iota + 1
	// FormHeld: only rows held beyond the price guard changed; nothing
	// was sent.
	FormHeld
	// FormUnchanged: nothing changed; nothing was sent.
	FormUnchanged
	// FormAnswered: sent, and some rows need the user (refused, not
	// sent, unanswered, held, or a price-check finding).
	FormAnswered
	// FormDone: sent, every row accepted, none held, no finding.
	FormDone
)

// FormSubmit is a form's submit: its rows checked, the report of what was
// sent (nil when nothing was), the keys of the rows sent, in order, and
// the rows unchanged and held (beyond the guard, not confirmed).
type FormSubmit[In, Out any] struct {
	Checked         Checked[In, Out]
	Report          *Report
	Keys            []string
	Unchanged, Held int
	Outcome         FormOutcome
}

// SubmitForm is the one submit of the mass-update forms below HTTP: rows
// checked by check; nothing sent while a row is invalid or when nothing
// changed; else the changed rows sent by send and, once the marketplace
// answered, recorded (record: the history, the copy) before the outcome
// is decided. An error is check's or send's.
func SubmitForm[In, Out any](ctx context.Context, rows []In, check func([]In) (Checked[In, Out], error),
	send func(context.Context, []Out) (*Report, error), key func(Out) string, record func(FormSubmit[In, Out])) (FormSubmit[In, Out], error) {
	checked, err := check(rows)
	if err != nil {
		return FormSubmit[In, Out]{}, err
	}
	f := FormSubmit[In, Out]{Checked: checked, Unchanged: len(rows) - len(checked.Inputs), Held: checked.Waiting()}
	switch {
	case len(checked.Invalid) > 0:
		f.Outcome = FormInvalid
		return f, nil
	case len(checked.Send) == 0 && f.Held > 0:
		f.Outcome = FormHeld
		return f, nil
	case len(checked.Send) == 0:
		f.Outcome = FormUnchanged
		return f, nil
	}
	if f.Report, err = send(ctx, checked.Send); err != nil {
		return FormSubmit[In, Out]{}, err
	}
	f.Keys = make([]string, len(checked.Send))
	for i, out := range checked.Send {
		f.Keys[i] = key(out)
	}
	record(f)
	f.Outcome = FormAnswered
	// A price-check finding is shown on the form even when its card was
	// accepted.
	if f.Report.Complete() && len(f.Report.Fraud) == 0 && f.Held == 0 {
		f.Outcome = FormDone
	}
	return f, nil
}

// Done is the before and after of the first limit rows sent, by key, as
// shown says them: what a submit every row of which was accepted carries
// to the page it lands on.
func (f FormSubmit[In, Out]) Done(limit int, shown func(In) (before, after string)) map[string][]string {
	keys := f.Keys[:min(len(f.Keys), limit)]
	done := make(map[string][]string, len(keys))
	for _, key := range keys {
		before, after := shown(f.Checked.Inputs[key])
		done[key] = []string{before, after}
	}
	return done
}
