package bulkjobs

import (
	"context"
	"fmt"
	"time"
)

// Observer is told what the runner does, for metrics. Its methods run on
// a job's goroutine and must not block.
type Observer interface {
	// Rows reports n rows stored with outcome state (an Item state:
	// accepted, rejected, unknown, unsent, ...) as a chunk is answered or
	// a run ends.
	Rows(state string, n int)
	// Waited reports a wait the marketplace asked a job for (status 429
	// or 503) before its next chunk.
	Waited(status int, d time.Duration)
}

// itemStates are the states a row is stored with.
var itemStates = [...]string{ItemQueued, ItemAccepted, ItemRejected, ItemUnsent, ItemUnknown, ItemHeld, ItemSkipped}

// observeRows tells the observer, if any, how many of items were stored
// in each state.
func (r *Runner) observeRows(items []Item) {
	o := r.opts.Observer
	if o == nil || len(items) == 0 {
		return
	}
	for _, st := range itemStates {
		n := 0
		for i := range items {
			if items[i].State == st {
				n++
			}
		}
		if n > 0 {
			o.Rows(st, n)
		}
	}
}

// CountByState counts the jobs of every seller by state (metrics read it
// when scraped).
func (s *Store) CountByState(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT state, COUNT(*) FROM bulk_jobs GROUP BY state`)
	if err != nil {
		return nil, fmt.Errorf("bulkjobs: jobs by state: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, fmt.Errorf("bulkjobs: jobs by state: %w", err)
		}
		out[st] = n
	}
	return out, rows.Err()
}
