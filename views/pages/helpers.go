package pages

import "strconv"

// summaryText is the sentence above a table after a submit.
func summaryText(s *Summary) string {
	out := strconv.Itoa(s.Updated) + " updated, " + strconv.Itoa(s.Rejected) + " rejected"
	if s.Invalid > 0 {
		out += ", " + strconv.Itoa(s.Invalid) + " to fix"
	}
	out += "."
	if s.Note != "" {
		out += " " + s.Note
		if s.Note[len(s.Note)-1] != '.' {
			out += "."
		}
	}
	return out
}

func summaryTone(s *Summary) string {
	switch {
	case s.Rejected > 0 || s.Invalid > 0:
		return "warn"
	case s.Updated > 0:
		return "ok"
	default:
		return "info"
	}
}

func errorTone(status int) string {
	if status == 429 || status == 503 {
		return "warn"
	}
	return "bad"
}
