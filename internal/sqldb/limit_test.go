package sqldb

import (
	"slices"
	"testing"
)

// TestLimit: a first page carries its limit in the text, a deeper one
// both as parameters.
func TestLimit(t *testing.T) {
	for _, c := range []struct {
		limit, offset int
		sql           string
		args          []any
	}{
		{50, 0, " LIMIT 50", nil},
		{1000, -3, " LIMIT 1000", nil},
		{-1, 0, " LIMIT 0", nil},
		{50, 100, " LIMIT ? OFFSET ?", []any{50, 100}},
	} {
		sql, args := Limit(c.limit, c.offset)
		if sql != c.sql || !slices.Equal(args, c.args) {
			t.Errorf("Limit(%d, %d) = %q %v, want %q %v", c.limit, c.offset, sql, args, c.sql, c.args)
		}
	}
}
