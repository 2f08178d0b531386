package handlers

import (
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// answerSummary counts what became of a submit's edited rows (accepted,
// rejected, invalid, not sent, unanswered) into s; the unchanged rows are
// counted by the submit, which saw them.
func answerSummary[In any](s *pages.Summary, st formState[In]) {
	s.Invalid = len(st.invalid)
	rep := st.report
	if rep == nil {
		return
	}
	s.Updated, s.Rejected, s.Unsent, s.Unknown = rep.Accepted, rep.Rejected, rep.Unsent, rep.Unknown
}

// needsAttention reports whether a row's result asks the user for
// something: a field to fix, a refusal, a row not sent or not answered.
func needsAttention(r pages.RowResult) bool {
	switch r.State {
	case "invalid", "held", pages.RowState(massupdate.Rejected), pages.RowState(massupdate.Unsent), pages.RowState(massupdate.Unknown):
		return true
	}
	return false
}

// attentionPage is the answer to a submit of more rows than one page
// holds: of the answer's rows only those that need attention, the first
// limit of them in the answer's order, and the summary says how many more
// there are. A submit of at most a page is answered with every row.
//
// Nothing the user typed is lost with the rows not listed: kept are the
// edited rows the marketplace has not answered (waiting behind a row to
// fix, not sent, no answer, or themselves to fix), which the form carries
// hidden and sends again with the next submit. Accepted and refused rows
// are not carried: they have their answer, and the history keeps it.
func attentionPage[In, Row any](rows []Row, result func(*Row) pages.RowResult, key func(*Row) string, st formState[In], limit int, s *pages.Summary) (listed, kept []Row) {
	if len(st.inputs) <= limit {
		return rows, nil
	}
	listed = make([]Row, 0, min(len(rows), limit))
	for i := range rows {
		r := result(&rows[i])
		if needsAttention(r) && len(listed) < limit {
			listed = append(listed, rows[i])
			continue
		}
		if needsAttention(r) {
			s.NotShown++
		}
		if _, edited := st.inputs[key(&rows[i])]; edited && unanswered(r) {
			kept = append(kept, rows[i])
		}
	}
	s.Shown = len(listed)
	return listed, kept
}

// unanswered reports whether the marketplace has not answered a row: it
// was not sent (to fix, waiting behind a row to fix, not sent) or its
// answer never came.
func unanswered(r pages.RowResult) bool {
	switch r.State {
	case pages.RowState(massupdate.Accepted), pages.RowState(massupdate.Rejected):
		return false
	}
	return true
}
