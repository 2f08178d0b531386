package apiclient

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff schedule of spec §8: the delay doubles from 1 s and is capped at
// 60 s.
const (
	backoffBase = time.Second
	backoffCap  = 60 * time.Second
)

// RetryEvent describes one wait before a retry, for progress displays.
type RetryEvent struct {
	// Attempt is the number of the attempt that failed (1 for the first).
	Attempt int
	// Wait is how long the client waits before the next attempt.
	Wait time.Duration
	// Status is the HTTP status that caused the wait (429 or 503).
	Status int
}

type budgetKey struct{}
type observerKey struct{}

// WithRetryBudget returns a context whose calls may spend at most d in total
// waiting between 429/503 retries (overriding Options.RetryBudget). A zero or
// negative d disables automatic retries: the first 429 or 503 returns a
// *RateLimitError at once.
func WithRetryBudget(ctx context.Context, d time.Duration) context.Context {
	if d < 0 {
		d = 0
	}
	return context.WithValue(ctx, budgetKey{}, d)
}

// WithRetryObserver returns a context whose calls report every wait before a
// retry to fn, synchronously, before waiting. fn must not block.
func WithRetryObserver(ctx context.Context, fn func(RetryEvent)) context.Context {
	return context.WithValue(ctx, observerKey{}, fn)
}

// retryPolicy says what a request may do on 429/503.
type retryPolicy int

const (
	// retryIdempotent: reads and token issuance; 429 and 503 are retried.
	retryIdempotent retryPolicy = iota
	// retryUnprocessed: writes (store, set-prices). 429 and 503 are
	// answers that the request was refused before being processed (the
	// rate limiter and the unavailable service reject it at the door), so
	// repeating it cannot apply it twice; they are retried like reads.
	// Failures after sending without such an answer (timeout, reset,
	// gateway error) leave the outcome unknown and are never replayed.
	retryUnprocessed
	// retryNever: resend notifications. Its 429 means earlier
	// notifications are still processing; waiting blindly would not help
	// and the user should decide, so it is returned at once.
	retryNever
)

// callState is shared by every attempt of one call (including the retry
// after a 401), so the budget covers the call as a whole.
type callState struct {
	budget   time.Duration
	waited   time.Duration
	attempts int
	observer func(RetryEvent)
}

func (c *Client) newCallState(ctx context.Context) *callState {
	st := &callState{budget: c.budget}
	if d, ok := ctx.Value(budgetKey{}).(time.Duration); ok {
		st.budget = d
	}
	if fn, ok := ctx.Value(observerKey{}).(func(RetryEvent)); ok {
		st.observer = fn
	}
	return st
}

// backoff returns the delay after the n-th failed attempt (n >= 1).
func backoff(n int) time.Duration {
	d := backoffBase
	for i := 1; i < n; i++ {
		d *= 2
		if d >= backoffCap {
			return backoffCap
		}
	}
	return d
}

// retryAfter parses a Retry-After value (delay seconds or an HTTP date)
// relative to now. It reports false for an absent or unusable value.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > 24*3600 {
			secs = 24 * 3600
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		if d > 24*time.Hour {
			d = 24 * time.Hour
		}
		return d, true
	}
	return 0, false
}

// send performs req, retrying 429 and 503 answers according to pol and the
// call's budget. Any other answer is returned for the caller to decode,
// except a success whose body refuses the request's token (authInOKBody),
// which is an error matching ErrUnauthorized (and, for a write,
// ErrOutcomeUnknown).
// errBody decodes the error body of a 429/503 for RateLimitError.Err.
func (c *Client) send(ctx context.Context, st *callState, pol retryPolicy, req *request, errBody func(*response) error) (*response, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("apiclient: %s: %w", req.op, err)
		}
		st.attempts++
		resp, err := c.roundTrip(ctx, req, st.attempts)
		if err != nil {
			return nil, err
		}
		if resp.status != http.StatusTooManyRequests && resp.status != http.StatusServiceUnavailable {
			if req.token == "" {
				return resp, nil
			}
			if err := authInOKBody(resp); err != nil {
				if req.write {
					return nil, &outcomeUnknownError{op: req.op, err: err}
				}
				return nil, err
			}
			return resp, nil
		}
		now := time.Now()
		wait := backoff(st.attempts)
		if ra, ok := retryAfter(resp.header.Get("Retry-After"), now); ok && ra > wait {
			wait = ra // Retry-After lengthens a wait, never shortens it
		}
		stop := pol == retryNever || st.waited+wait > st.budget
		if dl, ok := ctx.Deadline(); ok && now.Add(wait).After(dl) {
			stop = true // the context would end before the next attempt
		}
		if stop {
			var inner error
			if errBody != nil {
				inner = errBody(resp)
			}
			return nil, &RateLimitError{
				RetryAt:   now.Add(wait),
				Attempts:  st.attempts,
				Status:    resp.status,
				RequestID: resp.requestID,
				Err:       inner,
			}
		}
		if st.observer != nil {
			st.observer(RetryEvent{Attempt: st.attempts, Wait: wait, Status: resp.status})
		}
		if c.obs != nil {
			iface, name := opLabels(req.op)
			c.obs.Retry(iface, name, resp.status, wait)
		}
		c.log.LogAttrs(ctx, slog.LevelInfo, "apiclient retry",
			slog.String("op", req.op), slog.Int("status", resp.status), slog.Int("attempt", st.attempts),
			slog.Duration("wait", wait), slog.String("upstream_request_id", resp.requestID))
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("apiclient: %s: waiting to retry after status %d: %w", req.op, resp.status, ctx.Err())
		case <-timer.C:
		}
		st.waited += wait
	}
}
