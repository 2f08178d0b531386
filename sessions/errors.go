package sessions

import (
	"errors"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// ErrNotFound reports that a session does not exist (any more): it expired,
// was logged out or was never stored. Writes that get it wrote nothing.
var ErrNotFound = errors.New("session not found")

// ErrUnavailable reports that the session database could not be reached or
// did not answer in time. Handlers map it to 503 "session store unavailable".
var ErrUnavailable = errors.New("session store unavailable")

// errExists reports an id collision on Create; with 256-bit random ids it
// means a bug, not bad luck.
var errExists = errors.New("session id already exists")

// unavailableError wraps a driver error as ErrUnavailable. Its message names
// the operation and a redacted form of the cause, so that logging it never
// prints a DSN password.
type unavailableError struct {
	op    string
	cause error
}

func (e *unavailableError) Error() string {
	return "sessions: " + e.op + ": " + ErrUnavailable.Error() + ": " + sqldb.Redact(e.cause.Error())
}

// Unwrap lets errors.Is match both ErrUnavailable and the cause (for
// example context.DeadlineExceeded).
func (e *unavailableError) Unwrap() []error { return []error{ErrUnavailable, e.cause} }

// unavailable wraps err as ErrUnavailable unless it already is one of this
// package's sentinels, which pass through unchanged.
func unavailable(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrUnavailable) || errors.Is(err, errExists) {
		return err
	}
	return &unavailableError{op: op, cause: err}
}
