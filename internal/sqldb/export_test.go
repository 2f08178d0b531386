package sqldb

import "time"

// SetBusyTimeout sets SQLite's busy timeout of the DBs opened afterwards,
// in milliseconds, and returns the function that restores it.
func SetBusyTimeout(ms int) (restore func()) {
	old := busyTimeoutMS
	busyTimeoutMS = ms
	return func() { busyTimeoutMS = old }
}

// SetLockWait sets the bound of a lock wait without a deadline and returns
// the function that restores it.
func SetLockWait(d time.Duration) (restore func()) {
	old := lockWait
	lockWait = d
	return func() { lockWait = old }
}

// SellerLockKey is the key LockSeller locks.
var SellerLockKey = sellerLockKey

// MaxStmts is maxStmts for the tests.
const MaxStmts = maxStmts

// SetBackupPace sets BackupTo's pages a step (-1: all in one) and a
// function run on the copying goroutine after each step but the last. It
// returns the function that restores them.
func SetBackupPace(stepPages int32, afterStep func()) (restore func()) {
	old := backupPace
	backupPace = pacing{stepPages: stepPages, afterStep: afterStep}
	return func() { backupPace = old }
}
