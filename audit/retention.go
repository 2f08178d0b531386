package audit

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// DefaultRetention is how long entries are kept when nothing is
// configured: 400 days, a year and a bit, so last year's season can be
// compared with this one.
const DefaultRetention = 400 * 24 * time.Hour

// MinRetention is the shortest retention accepted: an audit trail kept
// for less than a day is not one.
const MinRetention = 24 * time.Hour

// ParseRetention reads a retention: a Go duration ("9600h") or a number
// of days ("400" or "400d").
func ParseRetention(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	days := strings.TrimSuffix(v, "d")
	if n, err := strconv.Atoi(days); err == nil {
		if n < 1 || n > 100*365 {
			return 0, errors.New("want between 1 and 36500 days")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, errors.New("want a number of days (400) or a duration (9600h)")
	}
	if d < MinRetention {
		return 0, errors.New("want at least 1 day (24h)")
	}
	return d, nil
}

// pruneBatch bounds one pruning transaction.
const pruneBatch = 100

// Prune removes every entry older than retention before now, in batches
// of pruneBatch entries (each its own short transaction), and reports how
// many it removed.
func (s *Store) Prune(ctx context.Context, now time.Time, retention time.Duration) (int, error) {
	cutoff := now.Add(-retention)
	total := 0
	for {
		n, err := s.PruneBefore(ctx, cutoff, pruneBatch)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}

// StartPruner prunes entries older than retention now and then every
// interval until ctx ends; the returned channel is closed when it has
// stopped. Failures are logged and retried at the next interval.
func (s *Store) StartPruner(ctx context.Context, retention, interval time.Duration, log *slog.Logger) <-chan struct{} {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			n, err := s.Prune(ctx, s.now(), retention)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("audit: pruning old history failed", "err", err)
			case n > 0:
				log.Info("audit: old history pruned", "entries", n, "retention", retention.String())
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return done
}
