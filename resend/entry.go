package resend

import (
	"net/url"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// Drafts is where the caller keeps States between requests: the
// dashboard's session drafts.
type Drafts interface {
	Draft(name string) url.Values
	SetDraft(name string, v url.Values) bool
	PopDraft(name string) url.Values
}

// draftName is the draft that keeps States.
const draftName = "resend"

// Load reads the States d keeps.
func Load(d Drafts) States { return Decode(d.Draft(draftName)) }

// Save keeps s in d, or drops the draft when no state is worth keeping
// at now.
func Save(d Drafts, s States, now time.Time) {
	if v := s.Encode(now); v != nil {
		d.SetDraft(draftName, v)
		return
	}
	d.PopDraft(draftName)
}

// Entry is the audit trail's entry of a run: one item per selected
// order, with what became of it. refused is the words of the run's
// refusal, kept as they were said.
func Entry(r *Run, refused string) audit.Entry {
	e := audit.Entry{Kind: audit.KindResend}
	for _, nr := range r.Selected {
		it := audit.Item{Key: nr}
		switch r.Outcome(nr) {
		case OutcomeQueued:
			it.Outcome, it.New, it.Message = audit.Queued, TypesKept(r.Queued[nr]), i18n.Of(i18n.M("orders.queued", nil))
		case OutcomeNothing:
			it.Outcome, it.Message = audit.Accepted, i18n.Of(i18n.M("history.resend_nothing", nil))
		case OutcomeBusy:
			it.Outcome, it.Message = audit.Busy, i18n.Of(i18n.M("orders.still_processing", nil))
		case OutcomeRefused:
			it.Outcome, it.Message = audit.Refused, i18n.Plain(refused)
		default:
			it.Outcome, it.Message = audit.Unsent, i18n.Of(i18n.M("history.item_unsent", nil))
		}
		e.Items = append(e.Items, it)
	}
	return e
}

// TypesKept lists the kinds of notification queued as the audit trail
// keeps them, as data read in the reader's language: the kinds the
// marketplace named (by their labels, an unknown one as named), or the
// catalogue's "kinds not listed".
func TypesKept(types []string) i18n.Msgs {
	if len(types) == 0 {
		return i18n.Of(i18n.M("orders.kinds_not_listed", nil))
	}
	return i18n.NotificationTypes(types)
}
