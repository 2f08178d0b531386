package sqldb

import "strconv"

// Limit is a page's LIMIT clause (with a leading space) and its arguments.
// The first page (offset 0) carries its limit as a number in the text:
// PostgreSQL costs a statement whose LIMIT is a parameter as if it read a
// tenth of the table, so it never settles on the statement's generic plan
// and plans it again at every execution, which costs more than running it
// for a page of 50 rows. With the number in the text the generic plan is
// costed on the true limit and can win: one plan per page size (the lists
// offer a handful), unless another parameter's value decides the plan.
// Deeper pages keep both as parameters: one text whatever the offset.
// limit is the caller's bounded page size.
func Limit(limit, offset int) (string, []any) {
	if offset <= 0 {
		return " LIMIT " + strconv.Itoa(max(limit, 0)), nil
	}
	return " LIMIT ? OFFSET ?", []any{limit, offset}
}
