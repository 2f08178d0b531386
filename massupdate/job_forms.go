package massupdate

import (
	"net/url"
	"strconv"
)

// ConfirmationsOf reads a job page's submit form: "confirm all" and the
// rows confirmed one by one, by number (a value that is no number
// confirms nothing).
func ConfirmationsOf(form url.Values) Confirmations {
	conf := Confirmations{All: form.Get("confirm_all") != "", Rows: map[int]bool{}}
	for _, v := range form["confirm"] {
		if n, err := strconv.Atoi(v); err == nil {
			conf.Rows[n] = true
		}
	}
	return conf
}

// EditsOf reads the cells a retry's preview form edits (ParseEditName),
// each value bounded by cell, by row number and field.
func EditsOf(form url.Values, cell func(string) string) map[int]map[string]string {
	edits := map[int]map[string]string{}
	for name, vals := range form {
		seq, field, ok := ParseEditName(name)
		if !ok || len(vals) == 0 {
			continue
		}
		if edits[seq] == nil {
			edits[seq] = map[string]string{}
		}
		edits[seq][field] = cell(vals[0])
	}
	return edits
}
