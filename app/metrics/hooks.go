package metrics

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// statusClass is an HTTP status as the request series label it.
func statusClass(status int) string {
	switch {
	case status >= 500:
		return "5xx"
	case status >= 400:
		return "4xx"
	case status >= 300:
		return "3xx"
	case status >= 200:
		return "2xx"
	default:
		return "1xx"
	}
}

// upstreamStatus is a marketplace answer's status as the upstream series
// label it: the codes an operator acts on apart, else the class; "error"
// when no answer came.
func upstreamStatus(status int) string {
	switch status {
	case 0:
		return "error"
	case 401:
		return "401"
	case 403:
		return "403"
	case 404:
		return "404"
	case 429:
		return "429"
	case 503:
		return "503"
	}
	return statusClass(status)
}

// waitStatus is the status of a wait the marketplace asked for.
func waitStatus(status int) string {
	if status == 503 {
		return "503"
	}
	return "429"
}

// method is a request's method as the request series label it: the
// methods the dashboard answers, anything else "other" (a client chooses
// the method).
func method(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// Unmatched is the route label of a request no route matched.
const Unmatched = "unmatched"

// route is a route template as the request series label it: a request
// answered 404 by a catch-all ("/*", "/a/:account/*", a static file not
// there) is unmatched, whatever its group.
func route(r string, status int) string {
	if r == "" || (status == http.StatusNotFound && strings.HasSuffix(r, "*")) {
		return Unmatched
	}
	return r
}

// HTTP is the dashboard's hook (handlers.Deps.Observer).
func (m *Metrics) HTTP() HTTPObserver { return HTTPObserver{m} }

// HTTPObserver feeds the request and page gate series.
type HTTPObserver struct{ m *Metrics }

// Request observes one answered request.
func (o HTTPObserver) Request(r, meth string, status int, d time.Duration) {
	o.m.httpDuration.WithLabelValues(route(r, status), method(meth), statusClass(status)).Observe(d.Seconds())
}

// GateWait observes one page's wait for the page gate.
func (o HTTPObserver) GateWait(d time.Duration) { o.m.gateWait.Observe(d.Seconds()) }

// Upstream is the marketplace client's hook (apiclient.Options.Observer).
func (m *Metrics) Upstream() UpstreamObserver { return UpstreamObserver{m} }

// UpstreamObserver feeds the upstream series.
type UpstreamObserver struct{ m *Metrics }

// Request observes one attempt.
func (o UpstreamObserver) Request(iface, name string, status int, d time.Duration) {
	o.m.upstream.WithLabelValues(iface, name, upstreamStatus(status)).Inc()
	o.m.upstreamTime.WithLabelValues(iface).Observe(d.Seconds())
}

// Retry observes one wait of the client before a retry.
func (o UpstreamObserver) Retry(iface, name string, status int, wait time.Duration) {
	o.m.retries.WithLabelValues(iface, name, upstreamStatus(status)).Inc()
	o.m.wait(waiterClient, status, wait)
}

func (m *Metrics) wait(waiter string, status int, d time.Duration) {
	s := waitStatus(status)
	m.waits.WithLabelValues(waiter, s).Inc()
	m.waitSeconds.WithLabelValues(waiter, s).Add(d.Seconds())
}

// Sync is the copy's sync hook (copystore.Syncer.Observer).
func (m *Metrics) Sync() SyncObserver { return SyncObserver{m} }

// SyncObserver feeds the sync series.
type SyncObserver struct{ m *Metrics }

// SyncStopped counts a run ended unfinished.
func (o SyncObserver) SyncStopped(reason string) { o.m.syncStops.WithLabelValues(reason).Inc() }

// SyncWaited observes a wait of the sync.
func (o SyncObserver) SyncWaited(status int, d time.Duration) { o.m.wait(waiterSync, status, d) }

// Jobs is the bulk job runner's hook (bulkjobs.RunnerOptions.Observer).
func (m *Metrics) Jobs() JobObserver { return JobObserver{m} }

// JobObserver feeds the job series.
type JobObserver struct{ m *Metrics }

// Rows counts rows stored with an outcome.
func (o JobObserver) Rows(state string, n int) { o.m.jobRows.WithLabelValues(state).Add(float64(n)) }

// Waited observes a wait of a job.
func (o JobObserver) Waited(status int, d time.Duration) { o.m.wait(waiterJob, status, d) }

// SessionFailed counts an operation of the session store the database
// failed (sessions.Options.Failed).
func (m *Metrics) SessionFailed(op string) { m.sessionErrors.WithLabelValues(op).Inc() }

// Locker takes a seller's lock (massupdate.Locker, copystore.Locker).
type Locker interface {
	LockSeller(ctx context.Context, seller int64) (unlock func(), err error)
}

// Locker wraps l so that every wait for a seller's lock is observed,
// labelled user (LockMassUpdate, LockCopy).
func (m *Metrics) Locker(l Locker, user string) Locker {
	return timedLocker{l: l, h: m.lockWait.WithLabelValues(user)}
}

type timedLocker struct {
	l Locker
	h prometheus.Observer
}

func (t timedLocker) LockSeller(ctx context.Context, seller int64) (func(), error) {
	start := time.Now()
	unlock, err := t.l.LockSeller(ctx, seller)
	t.h.Observe(time.Since(start).Seconds())
	return unlock, err
}
