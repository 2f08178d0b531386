package sqldb

import "errors"

// StoreError is a failure of the database met by one store: errors.Is
// finds ErrUnavailable in it (and the cause), and Store names the store,
// so a page can say which of the dashboard's services failed.
type StoreError struct {
	Store string // "sessions", "jobs", "history", ...
	Err   error
}

func (e *StoreError) Error() string { return e.Store + ": " + Redact(e.Err.Error()) }

// Unwrap lets errors.Is and errors.As see ErrUnavailable and the cause.
func (e *StoreError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Unavailable marks err, met by the store named store while using the
// database, as ErrUnavailable; nil stays nil, and an error already naming
// its store keeps that name (the store that failed first is the one to
// report).
func Unavailable(store string, err error) error {
	if err == nil {
		return nil
	}
	var se *StoreError
	if errors.As(err, &se) {
		return err
	}
	return &StoreError{Store: store, Err: err}
}

// StoreOf names the store whose database failure err is, or "" when err
// is none or names no store.
func StoreOf(err error) string {
	var se *StoreError
	if errors.As(err, &se) {
		return se.Store
	}
	return ""
}
