package sqldb

import "syscall"

// lowerThreadPriority gives the calling OS thread the lowest CPU priority,
// nice 19 (Linux's nice is per thread). Raising one's own niceness needs no
// privilege; a failure leaves the thread as it was. Its I/O priority
// follows the nice value unless set apart.
func lowerThreadPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

// onMainThread tells whether the calling OS thread is the process's first.
func onMainThread() bool { return syscall.Gettid() == syscall.Getpid() }
