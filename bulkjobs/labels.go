package bulkjobs

import (
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// flagLabels and itemLabels are the messages of a row's preview flag and
// state.
var flagLabels = map[string]i18n.Msg{
	FlagOK: i18n.M("jobs.flag_ok", nil), FlagUnchanged: i18n.M("jobs.flag_unchanged", nil), FlagInvalid: i18n.M("jobs.flag_invalid", nil),
	FlagGuard: i18n.M("jobs.flag_guard", nil),
}

var itemLabels = map[string]i18n.Msg{
	ItemQueued: i18n.M("jobs.item_queued", nil), ItemAccepted: i18n.M("jobs.item_accepted", nil), ItemRejected: i18n.M("jobs.item_rejected", nil),
	ItemUnsent: i18n.M("jobs.item_unsent", nil), ItemUnknown: i18n.M("jobs.item_unknown", nil), ItemHeld: i18n.M("jobs.item_held", nil),
	ItemSkipped: i18n.M("jobs.item_skipped", nil),
}

// labelOf is the message of code through table; a code the table does
// not know, as it is.
func labelOf(table map[string]i18n.Msg, code string) i18n.Msg {
	if m, ok := table[code]; ok {
		return m
	}
	return i18n.Msg{Text: code, Verbatim: true}
}

// FlagLabel is a row's preview flag as a message.
func FlagLabel(flag string) i18n.Msg { return labelOf(flagLabels, flag) }

// ItemLabel is a row's state as a message.
func ItemLabel(state string) i18n.Msg { return labelOf(itemLabels, state) }

// ReadLabelOf is a row's read-back state as a message.
func ReadLabelOf(state string) i18n.Msg {
	if key := ReadLabel(state); key != "" {
		return i18n.Msg{Key: key}
	}
	return i18n.Msg{Text: state, Verbatim: true}
}

// StateLabel is the job's state as a message and the tone of its badge
// (info, warn, ok, bad).
func StateLabel(j Job) (i18n.Msg, string) {
	switch j.State {
	case StatePreview:
		return i18n.M("jobs.state_preview", nil), "info"
	case StateQueued:
		return i18n.M("jobs.state_queued", nil), "info"
	case StateRunning:
		if j.CancelRequested {
			return i18n.M("jobs.state_cancelling", nil), "warn"
		}
		return i18n.M("jobs.state_sending", nil), "info"
	case StateWaiting:
		return i18n.M("jobs.state_waiting", nil), "warn"
	case StateDone:
		if j.Counts.Rejected > 0 || j.Counts.Unsent > 0 {
			return i18n.M("jobs.state_done_problems", nil), "warn"
		}
		return i18n.M("jobs.state_done", nil), "ok"
	case StateCancelled:
		return i18n.M("jobs.state_cancelled", nil), "warn"
	case StateStopped:
		return i18n.M("jobs.state_stopped", nil), "bad"
	}
	return i18n.Msg{Text: j.State, Verbatim: true}, ""
}

// Progress is how far a job has come: rows answered (Done) of rows to
// send (Total), in percent; and, while it waits on the marketplace, until
// when and for which HTTP status.
type Progress struct {
	Done, Total, Percent int
	WaitUntil            time.Time
	Status               int
}

// ProgressOf is job j's progress, live the runner's state of it now.
func ProgressOf(j Job, live Live) Progress {
	c := j.Counts
	p := Progress{Done: c.Sent() + c.Unsent, Total: c.ToSend()}
	if p.Total > 0 {
		p.Percent = p.Done * 100 / p.Total
	} else if !j.Active() {
		p.Percent = 100
	}
	p.WaitUntil, p.Status = live.WaitUntil, live.Status
	if p.WaitUntil.IsZero() && j.State == StateWaiting {
		p.WaitUntil, p.Status = j.WaitUntil, 429
	}
	if p.WaitUntil.IsZero() || !j.Active() {
		return Progress{Done: p.Done, Total: p.Total, Percent: p.Percent}
	}
	if p.Status == 0 {
		p.Status = 429
	}
	return p
}

// Who names the job's owner: the account's display name with its client
// id, or the client id alone.
func (j Job) Who() string {
	if j.DisplayName != "" {
		return j.DisplayName + " (" + j.ClientID + ")"
	}
	return j.ClientID
}
