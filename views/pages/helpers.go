package pages

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
