package sqldb

// SetBusyTimeout sets SQLite's busy timeout of the DBs opened afterwards,
// in milliseconds, and returns the function that restores it.
func SetBusyTimeout(ms int) (restore func()) {
	old := busyTimeoutMS
	busyTimeoutMS = ms
	return func() { busyTimeoutMS = old }
}
