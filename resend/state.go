package resend

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// State is what is known of one order's notifications: what the last
// resend queued, and until when the marketplace is busy with them.
type State struct {
	Attempts int       // refusals in a row
	Until    time.Time // busy until: no resend can succeed before
	QueuedAt time.Time // when the last resend was queued (zero: none was)
	Queued   int       // how many notifications it queued
	Types    string    // their kinds, as the marketplace named them
}

// States are the States of the orders a user resent lately, by order
// number. The caller stores them between requests (Encode, Decode).
type States map[string]State

const (
	// maxStates bounds the orders remembered (the stored size).
	maxStates = 150
	// memory is how long a state is kept after its wait ended; after that
	// a refusal starts the schedule from 1 s again.
	memory = 30 * time.Minute
	// maxTypes bounds the kinds kept of one resend.
	maxTypes = 200
)

// Decode reads states written by Encode; entries that cannot be read are
// left out.
func Decode(stored map[string][]string) States {
	out := States{}
	for nr, v := range stored {
		if len(v) < 2 || !ValidOrderNr(nr) {
			continue
		}
		n, err1 := strconv.Atoi(v[0])
		at, err2 := strconv.ParseInt(v[1], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		st := State{Attempts: n, Until: time.UnixMilli(at)}
		if len(v) == 5 {
			q, _ := strconv.ParseInt(v[2], 10, 64)
			if q > 0 {
				st.QueuedAt = time.UnixMilli(q)
			}
			st.Queued, _ = strconv.Atoi(v[3])
			st.Types = v[4]
		}
		out[nr] = st
	}
	return out
}

// Encode writes the states to keep at now, as a map of string lists (the
// session's draft form): those whose wait ended more than 30 minutes ago
// are dropped, and beyond 150 orders the ones that were busy the longest
// ago. It returns nil when nothing is left to keep.
func (s States) Encode(now time.Time) map[string][]string {
	keep := make([]string, 0, len(s))
	for nr, st := range s {
		if now.Sub(st.Until) <= memory {
			keep = append(keep, nr)
		}
	}
	slices.SortFunc(keep, func(x, y string) int { return s[y].Until.Compare(s[x].Until) })
	if len(keep) > maxStates {
		keep = keep[:maxStates]
	}
	if len(keep) == 0 {
		return nil
	}
	v := make(map[string][]string, len(keep))
	for _, nr := range keep {
		st := s[nr]
		q := int64(0)
		if !st.QueuedAt.IsZero() {
			q = st.QueuedAt.UnixMilli()
		}
		v[nr] = []string{strconv.Itoa(st.Attempts), strconv.FormatInt(st.Until.UnixMilli(), 10), strconv.FormatInt(q, 10), strconv.Itoa(st.Queued), st.Types}
	}
	return v
}

// Queued records a resend the marketplace queued at now: n notifications
// of the given kinds, busy until the processing is taken to end.
func (s States) Queued(nr string, now, until time.Time, types []string, n int) {
	s[nr] = State{Until: until, QueuedAt: now, Queued: n, Types: cut(strings.Join(types, ", "), maxTypes)}
}

// Refused records a 429 for one order: the wait doubles from 1 s with each
// refusal in a row, capped at 60 s; a later time named by the marketplace
// wins. What was queued before is kept, to be shown.
func (s States) Refused(nr string, now, marketplaceAt time.Time) {
	st := s[nr]
	st.Attempts++
	wait := min(time.Second<<min(st.Attempts-1, 6), 60*time.Second)
	st.Until = now.Add(wait)
	if marketplaceAt.After(st.Until) {
		st.Until = marketplaceAt
	}
	s[nr] = st
}

// BusyUntil is the time before which no resend of nr can succeed (zero:
// none known).
func (s States) BusyUntil(nr string) time.Time { return s[nr].Until }

// Phase is where an order stands, as its resend control shows it.
type Phase int

const (
	// PhaseNone: nothing known; the control is as new.
	PhaseNone Phase = iota
	// PhaseProcessing: a resend was queued and is being processed.
	PhaseProcessing
	// PhaseBusy: the marketplace refused a resend and is still busy.
	PhaseBusy
	// PhaseDone: a resend was queued earlier and has been processed.
	PhaseDone
)

// Phase tells where order nr stands at now, with its state. While it is
// busy (PhaseProcessing, PhaseBusy) a resend cannot succeed before
// State.Until.
func (s States) Phase(nr string, now time.Time) (State, Phase) {
	st, ok := s[nr]
	if !ok {
		return st, PhaseNone
	}
	busy := st.Until.After(now)
	switch {
	case !st.QueuedAt.IsZero() && busy && st.Attempts == 0:
		return st, PhaseProcessing
	case busy:
		return st, PhaseBusy
	case !st.QueuedAt.IsZero():
		return st, PhaseDone
	}
	return st, PhaseNone
}

// cut bounds s (ASCII: notification kinds are letters) to max characters,
// marking a cut with "…".
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return s[:max-1] + "…"
}
