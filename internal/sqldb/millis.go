package sqldb

import "time"

// Millis is how the stores keep a time: Unix milliseconds, 0 for the zero
// time (a column that says "not yet").
func Millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// FromMillis reads back what Millis stored: 0 is the zero time, anything
// else a UTC time.
func FromMillis(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}
