package sandbox

import (
	"strconv"
	"time"
)

// Now reports the sandbox clock: Options.Start plus every Advance so far,
// plus, with Options.Live, the wall-clock time since New. Without Live it
// never moves by itself, so tests decide when tokens expire and when price
// changes and resent notifications finish processing.
func (s *Sandbox) Now() time.Time {
	t := s.opts.Start.Add(time.Duration(s.offset.Load()))
	if s.opts.Live {
		t = t.Add(time.Since(s.born))
	}
	return t
}

// Advance moves the sandbox clock forward by d. Negative durations are ignored:
// the clock never runs backwards.
func (s *Sandbox) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	s.offset.Add(int64(d))
}

// itoa formats an integer in base 10.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }
