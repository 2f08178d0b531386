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
	case "invalid", string(massupdate.Rejected), string(massupdate.Unsent), string(massupdate.Unknown):
		return true
	}
	return false
}

// attentionPage is the answer to a submit of more rows than one page
// holds: of the answer's rows only those that need attention, the first
// limit of them in the answer's order, and the summary says how many more
// there are. A submit of at most a page is answered with every row.
func attentionPage[In, Row any](rows []Row, result func(*Row) pages.RowResult, st formState[In], limit int, s *pages.Summary) []Row {
	if len(st.inputs) <= limit {
		return rows
	}
	out := make([]Row, 0, min(len(rows), limit))
	for i := range rows {
		if !needsAttention(result(&rows[i])) {
			continue
		}
		if len(out) == limit {
			s.NotShown++
			continue
		}
		out = append(out, rows[i])
	}
	s.Shown = len(out)
	return out
}
