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

// SetBackupPace sets BackupTo's pacing: the pages a step copies (-1: all
// in one), the rest after a step as a multiple of its time, whether the
// copy's thread is niced, and a function run on the copying goroutine after
// each step but the last. It returns the function that restores it.
func SetBackupPace(stepPages int32, rest float64, nice bool, afterStep func()) (restore func()) {
	old := backupPace
	backupPace = pacing{stepPages: stepPages, rest: rest, nice: nice, afterStep: afterStep}
	return func() { backupPace = old }
}
