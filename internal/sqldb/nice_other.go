//go:build !linux

package sqldb

// lowerThreadPriority does nothing where nice is per process, not per
// thread: lowering it would lower the server's pages too.
func lowerThreadPriority() {}

// onMainThread is false where no thread is niced.
func onMainThread() bool { return false }
