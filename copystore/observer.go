package copystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Observer is told how the syncs go, for metrics. Its methods run on the
// sync's goroutine and must not block.
type Observer interface {
	// SyncStopped reports a run of a copy's sync that ended unfinished,
	// for reason (one of the StopReason constants: a fixed set).
	SyncStopped(reason string)
	// SyncWaited reports a wait the marketplace asked for (status 429 or
	// 503) before a page is read again.
	SyncWaited(status int, d time.Duration)
}

// Reasons a run of a sync ended unfinished, as Observer names them.
const (
	StopReasonUnauthorized = "unauthorized" // the credentials were rejected
	StopReasonForbidden    = "forbidden"    // the account may not read this seller
	StopReasonRateLimited  = "rate_limited" // 429 beyond what a pass waits out
	StopReasonUnavailable  = "unavailable"  // 503, or the marketplace did not answer
	StopReasonOther        = "other"        // anything else (the database, a malformed answer)
)

// StopReason names the reason of a sync run's failure err.
func StopReason(err error) string {
	switch {
	case errors.Is(err, ErrCredentialRejected), errors.Is(err, apiclient.ErrUnauthorized):
		return StopReasonUnauthorized
	case errors.Is(err, apiclient.ErrForbidden):
		return StopReasonForbidden
	case errors.Is(err, apiclient.ErrRateLimited):
		return StopReasonRateLimited
	case errors.Is(err, apiclient.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return StopReasonUnavailable
	default:
		return StopReasonOther
	}
}

// CopyAges are how old the copies in the database are: for each copy
// (seller and environment, not forgotten) whose every kind has finished a
// full pass, the time since the oldest of those passes finished; and how
// many copies have not finished one yet. Metrics read it when scraped; it
// names no seller.
func (s *Store) CopyAges(ctx context.Context) (ages []time.Duration, incomplete int, err error) {
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT MIN(completed_at), COUNT(*) FROM catalog_sync GROUP BY seller_id, env`))
	if err != nil {
		return nil, 0, fmt.Errorf("copystore: %w", err)
	}
	defer rows.Close()
	now := s.now()
	for rows.Next() {
		var completed int64
		var kinds int
		if err := rows.Scan(&completed, &kinds); err != nil {
			return nil, 0, fmt.Errorf("copystore: %w", err)
		}
		if completed == 0 || kinds < len(Kinds) {
			incomplete++
			continue
		}
		ages = append(ages, max(0, now.Sub(sqldb.FromMillis(completed))))
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("copystore: %w", err)
	}
	return ages, incomplete, nil
}
