// Package metrics is Seller Desk's Prometheus metrics: a registry of its
// own (never the process-global default) holding the Go and process
// collectors, the series the packages' observer hooks feed, and the
// series read when scraped (the database's pools, the page gate, the jobs
// by state, the copies' ages). app builds one when
// SELLERDESK_METRICS_ADDR is set, hands its hooks to the packages and
// serves Handler on a listener of its own.
//
// Every label takes its values from a small fixed set: a route's
// template (never the raw path), a method, a status class or one of a few
// codes, an interface and operation of the marketplace client, a reason,
// a state. No label ever holds a seller, a client id, a token, an order
// number or anything else a user or the marketplace chose.
package metrics

import (
	"context"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/buildinfo"
)

// Path is where Handler serves the metrics; it serves nothing else.
const Path = "/metrics"

// Metrics is one registry and the series of one dashboard process.
type Metrics struct {
	reg *prometheus.Registry

	httpDuration   *prometheus.HistogramVec // route, method, status
	upstream       *prometheus.CounterVec   // interface, name, status
	upstreamTime   *prometheus.HistogramVec // interface
	retries        *prometheus.CounterVec   // interface, name, status
	waits          *prometheus.CounterVec   // waiter, status
	waitSeconds    *prometheus.CounterVec   // waiter, status
	lockWait       *prometheus.HistogramVec // user
	gateWait       prometheus.Histogram
	jobRows        *prometheus.CounterVec // outcome
	syncStops      *prometheus.CounterVec // reason
	sessionErrors  *prometheus.CounterVec // op
	scrapeFailures *prometheus.CounterVec // source

	sources atomic.Pointer[Sources]
}

// Waiters: who waited out a 429 or 503 (the waits' label).
const (
	waiterClient = "client" // the marketplace client, between retries of one call
	waiterSync   = "sync"   // the copy's sync, between reads of a page
	waiterJob    = "job"    // a bulk job, between chunks
)

// Lock users: who waited for a seller's lock (the lock wait's label).
const (
	LockMassUpdate = "massupdate" // the mass-update engine (forms and jobs)
	LockCopy       = "copy"       // the copy's sync, and requests sent under its lock
)

// durationBuckets suit a page or a call: 5 ms to 10 s.
var durationBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// waitBuckets suit a wait for a lock or a slot: 1 ms to 60 s.
var waitBuckets = []float64{.001, .005, .025, .1, .5, 2.5, 10, 60}

// New builds the registry with every series, the Go and process
// collectors and sellerdesk_build_info.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.httpDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "sellerdesk_http_request_duration_seconds", Help: "Requests answered, by route template (unmatched: no route), method and status class.",
		Buckets: durationBuckets}, []string{"route", "method", "status"})
	m.upstream = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_upstream_requests_total", Help: "Attempts sent to the marketplace, by interface, operation and status (a class, a few codes, or error: no answer)."},
		[]string{"interface", "name", "status"})
	m.upstreamTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "sellerdesk_upstream_request_duration_seconds", Help: "Attempts sent to the marketplace, by interface: time to the whole answer.",
		Buckets: durationBuckets}, []string{"interface"})
	m.retries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_upstream_retries_total", Help: "Calls the marketplace client repeated after a 429 or 503, by interface, operation and status."},
		[]string{"interface", "name", "status"})
	m.waits = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_upstream_waits_total", Help: "Waits the marketplace asked for (429, 503), by who waited: client (between retries), sync (the copy), job (between a job's chunks)."},
		[]string{"waiter", "status"})
	m.waitSeconds = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_upstream_wait_seconds_total", Help: "Seconds of the waits the marketplace asked for, by who waited and status."},
		[]string{"waiter", "status"})
	m.lockWait = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "sellerdesk_seller_lock_wait_seconds", Help: "Waits for a seller's lock (one request of a seller at a time), by who waited: massupdate or copy.",
		Buckets: waitBuckets}, []string{"user"})
	m.gateWait = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "sellerdesk_page_gate_wait_seconds", Help: "Waits of the pages read from the copy or the history for a slot of the page gate.",
		Buckets: waitBuckets})
	m.jobRows = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_job_rows_total", Help: "Rows of bulk jobs stored with an outcome, by outcome."}, []string{"outcome"})
	m.syncStops = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_sync_stops_total", Help: "Runs of a copy's sync that ended unfinished, by reason."}, []string{"reason"})
	m.sessionErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_session_store_errors_total", Help: "Operations of the session store the database failed, by operation."}, []string{"op"})
	m.scrapeFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sellerdesk_metrics_read_errors_total", Help: "Reads of the series taken when scraped that failed, by source (jobs, copies)."}, []string{"source"})

	bi := buildinfo.Get()
	build := prometheus.NewGauge(prometheus.GaugeOpts{Name: "sellerdesk_build_info", Help: "The running build: always 1.",
		ConstLabels: prometheus.Labels{"version": bi.Version, "commit": bi.Commit, "go": bi.Go}})
	build.Set(1)

	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		build, m.httpDuration, m.upstream, m.upstreamTime, m.retries, m.waits, m.waitSeconds, m.lockWait, m.gateWait,
		m.jobRows, m.syncStops, m.sessionErrors, m.scrapeFailures, &stateCollector{m: m})

	// The fixed label values are there from the start, at zero: a rate
	// over a series that appears only with its first event misses it.
	for _, r := range []string{copystore.StopReasonUnauthorized, copystore.StopReasonForbidden, copystore.StopReasonRateLimited,
		copystore.StopReasonUnavailable, copystore.StopReasonOther} {
		m.syncStops.WithLabelValues(r)
	}
	for _, o := range []string{bulkjobs.ItemAccepted, bulkjobs.ItemRejected, bulkjobs.ItemUnknown, bulkjobs.ItemUnsent} {
		m.jobRows.WithLabelValues(o)
	}
	for _, w := range []string{waiterClient, waiterSync, waiterJob} {
		for _, s := range []string{"429", "503"} {
			m.waits.WithLabelValues(w, s)
			m.waitSeconds.WithLabelValues(w, s)
		}
	}
	for _, u := range []string{LockMassUpdate, LockCopy} {
		m.lockWait.WithLabelValues(u)
	}
	for _, i := range []string{apiclient.IfaceB2B, apiclient.IfaceSellerRPC, apiclient.IfaceSellerREST, apiclient.IfaceSellerV2} {
		m.upstreamTime.WithLabelValues(i)
	}
	for _, op := range []string{"load", "create", "save", "touch", "delete", "load tokens", "save token", "lock", "purge"} {
		m.sessionErrors.WithLabelValues(op)
	}
	for _, s := range []string{"jobs", "copies"} {
		m.scrapeFailures.WithLabelValues(s)
	}
	return m
}

// Registry is the metrics' own registry (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics at Path (GET) and answers 404 to anything
// else.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET "+Path, promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError, Timeout: 10 * time.Second}))
	return mux
}

// Server is the HTTP server of the metrics' listener, with the dashboard's
// defences against slow clients.
func (m *Metrics) Server(ctx context.Context) *http.Server {
	return &http.Server{
		Handler:           m.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(_ net.Listener) context.Context { return ctx },
	}
}
