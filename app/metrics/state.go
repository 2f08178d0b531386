package metrics

import (
	"context"
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// Sources are what the series read when scraped come from; a nil field
// leaves its series out.
type Sources struct {
	// DB is the process's database: its pools' statistics (database/sql's
	// for SQLite's writer, readers and bulk readers; pgxpool's for
	// PostgreSQL).
	DB *sqldb.DB
	// Gate is the page gate now: slots free, pages waiting.
	Gate func() (free, waiting int)
	// JobStates counts the bulk jobs by state (bulkjobs.Store.CountByState).
	JobStates func(context.Context) (map[string]int, error)
	// CopyAges are the complete copies' ages and the number of copies not
	// complete yet (copystore.Store.CopyAges).
	CopyAges func(context.Context) ([]time.Duration, int, error)
}

// Watch sets where the series read when scraped come from (app
// calls it once the dashboard is built); a later call replaces them.
func (m *Metrics) Watch(s Sources) { m.sources.Store(&s) }

// readTimeout bounds the database reads of one scrape.
const readTimeout = 5 * time.Second

// copyAgeBuckets suit a copy's age: refreshed every 15 minutes by
// default, up to the 30 days an unused copy is kept.
var copyAgeBuckets = []float64{60, 5 * 60, 15 * 60, 30 * 60, 3600, 3 * 3600, 12 * 3600, 86400, 7 * 86400, 30 * 86400}

var (
	descGateWaiting   = prometheus.NewDesc("sellerdesk_page_gate_waiting", "Pages waiting for a slot of the page gate now.", nil, nil)
	descGateFree      = prometheus.NewDesc("sellerdesk_page_gate_free_slots", "Slots of the page gate free now.", nil, nil)
	descJobs          = prometheus.NewDesc("sellerdesk_jobs", "Bulk jobs in the database, by state.", []string{"state"}, nil)
	descCopyAge       = prometheus.NewDesc("sellerdesk_copy_age_seconds", "The complete copies in the database by age: time since the oldest of a copy's last full passes (one per list) finished.", nil, nil)
	descCopyAgeMax    = prometheus.NewDesc("sellerdesk_copy_age_max_seconds", "The age of the oldest complete copy (0 with none).", nil, nil)
	descCopyPending   = prometheus.NewDesc("sellerdesk_copies_incomplete", "Copies whose lists have not all finished a first full pass.", nil, nil)
	descDBOpen        = prometheus.NewDesc("sellerdesk_db_connections", "Connections of a database pool now, by pool and state (in_use, idle).", []string{"pool", "state"}, nil)
	descDBMax         = prometheus.NewDesc("sellerdesk_db_max_connections", "The most connections a database pool opens (0: no bound).", []string{"pool"}, nil)
	descDBWaits       = prometheus.NewDesc("sellerdesk_db_waits_total", "Times a database pool had no connection free and a caller waited.", []string{"pool"}, nil)
	descDBWaitSeconds = prometheus.NewDesc("sellerdesk_db_wait_seconds_total", "Seconds callers waited for a connection of a database pool.", []string{"pool"}, nil)
)

// jobStates are the states the jobs series always lists (0 when none).
var jobStates = []string{bulkjobs.StatePreview, bulkjobs.StateQueued, bulkjobs.StateRunning, bulkjobs.StateWaiting,
	bulkjobs.StateDone, bulkjobs.StateCancelled, bulkjobs.StateStopped}

// stateCollector reads the Sources when scraped.
type stateCollector struct{ m *Metrics }

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descGateWaiting, descGateFree, descJobs, descCopyAge, descCopyAgeMax, descCopyPending,
		descDBOpen, descDBMax, descDBWaits, descDBWaitSeconds} {
		ch <- d
	}
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.m.sources.Load()
	if s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	if s.Gate != nil {
		free, waiting := s.Gate()
		ch <- prometheus.MustNewConstMetric(descGateWaiting, prometheus.GaugeValue, float64(waiting))
		ch <- prometheus.MustNewConstMetric(descGateFree, prometheus.GaugeValue, float64(free))
	}
	if s.JobStates != nil {
		if by, err := s.JobStates(ctx); err != nil {
			c.m.scrapeFailures.WithLabelValues("jobs").Inc()
		} else {
			for _, st := range jobStates {
				ch <- prometheus.MustNewConstMetric(descJobs, prometheus.GaugeValue, float64(by[st]), st)
			}
		}
	}
	if s.CopyAges != nil {
		if ages, incomplete, err := s.CopyAges(ctx); err != nil {
			c.m.scrapeFailures.WithLabelValues("copies").Inc()
		} else {
			ch <- copyAgeHistogram(ages)
			oldest := time.Duration(0)
			for _, a := range ages {
				oldest = max(oldest, a)
			}
			ch <- prometheus.MustNewConstMetric(descCopyAgeMax, prometheus.GaugeValue, oldest.Seconds())
			ch <- prometheus.MustNewConstMetric(descCopyPending, prometheus.GaugeValue, float64(incomplete))
		}
	}
	if s.DB != nil {
		collectDB(ch, s.DB)
	}
}

// copyAgeHistogram is the distribution of the copies' ages now: how many
// copies are at most so old, for each bucket.
func copyAgeHistogram(ages []time.Duration) prometheus.Metric {
	buckets := make(map[float64]uint64, len(copyAgeBuckets))
	var sum float64
	for _, a := range ages {
		sec := a.Seconds()
		sum += sec
		for _, b := range copyAgeBuckets {
			if sec <= b {
				buckets[b]++
			}
		}
	}
	for _, b := range copyAgeBuckets {
		buckets[b] += 0 // every bucket listed, empty ones too
	}
	return prometheus.MustNewConstHistogram(descCopyAge, uint64(len(ages)), sum, buckets)
}

// collectDB reads the pools' statistics.
func collectDB(ch chan<- prometheus.Metric, db *sqldb.DB) {
	if p := db.Pool(); p != nil {
		st := p.Stat()
		const pool = "postgres"
		ch <- prometheus.MustNewConstMetric(descDBOpen, prometheus.GaugeValue, float64(st.AcquiredConns()), pool, "in_use")
		ch <- prometheus.MustNewConstMetric(descDBOpen, prometheus.GaugeValue, float64(st.IdleConns()), pool, "idle")
		ch <- prometheus.MustNewConstMetric(descDBMax, prometheus.GaugeValue, float64(st.MaxConns()), pool)
		ch <- prometheus.MustNewConstMetric(descDBWaits, prometheus.CounterValue, float64(st.EmptyAcquireCount()), pool)
		ch <- prometheus.MustNewConstMetric(descDBWaitSeconds, prometheus.CounterValue, st.EmptyAcquireWaitTime().Seconds(), pool)
		return
	}
	for _, p := range []struct {
		name string
		db   *sql.DB
	}{{"writer", db.Writer()}, {"reader", db.Reader()}, {"bulk", db.Bulk()}} {
		if p.db == nil {
			continue
		}
		st := p.db.Stats()
		ch <- prometheus.MustNewConstMetric(descDBOpen, prometheus.GaugeValue, float64(st.InUse), p.name, "in_use")
		ch <- prometheus.MustNewConstMetric(descDBOpen, prometheus.GaugeValue, float64(st.Idle), p.name, "idle")
		ch <- prometheus.MustNewConstMetric(descDBMax, prometheus.GaugeValue, float64(st.MaxOpenConnections), p.name)
		ch <- prometheus.MustNewConstMetric(descDBWaits, prometheus.CounterValue, float64(st.WaitCount), p.name)
		ch <- prometheus.MustNewConstMetric(descDBWaitSeconds, prometheus.CounterValue, st.WaitDuration.Seconds(), p.name)
	}
}
