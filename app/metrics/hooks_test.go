package metrics

import (
	"context"
	"errors"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

func TestLabelValues(t *testing.T) {
	for in, want := range map[int]string{200: "2xx", 204: "2xx", 303: "3xx", 404: "4xx", 422: "4xx", 500: "5xx", 503: "5xx", 101: "1xx"} {
		if got := statusClass(in); got != want {
			t.Errorf("statusClass(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[int]string{0: "error", 200: "2xx", 401: "401", 403: "403", 404: "404", 422: "4xx", 429: "429", 500: "5xx", 502: "5xx", 503: "503"} {
		if got := upstreamStatus(in); got != want {
			t.Errorf("upstreamStatus(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"GET": "GET", "POST": "POST", "HEAD": "HEAD", "get": "other", "PROPFIND": "other", "X-1001": "other"} {
		if got := method(in); got != want {
			t.Errorf("method(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		route  string
		status int
		want   string
	}{
		{"", 404, Unmatched}, {"/*", 404, Unmatched}, {"/a/:account/*", 404, Unmatched}, {"/static/*", 404, Unmatched},
		{"/static/*", 200, "/static/*"}, {"/a/:account/orders/:orderNr", 404, "/a/:account/orders/:orderNr"}, {"/healthz", 200, "/healthz"},
	} {
		if got := route(c.route, c.status); got != c.want {
			t.Errorf("route(%q, %d) = %q, want %q", c.route, c.status, got, c.want)
		}
	}
}

// The copies' ages are a histogram of the copies now: each bucket counts
// the copies at most that old.
func TestCopyAgeHistogram(t *testing.T) {
	var m dto.Metric
	if err := copyAgeHistogram([]time.Duration{30 * time.Second, 10 * time.Minute, 2 * time.Hour}).Write(&m); err != nil {
		t.Fatal(err)
	}
	h := m.GetHistogram()
	if h.GetSampleCount() != 3 || h.GetSampleSum() != 30+600+7200 {
		t.Fatalf("count %d sum %v", h.GetSampleCount(), h.GetSampleSum())
	}
	want := map[float64]uint64{60: 1, 300: 1, 900: 2, 1800: 2, 3600: 2, 3 * 3600: 3, 30 * 86400: 3}
	got := map[float64]uint64{}
	for _, b := range h.GetBucket() {
		got[b.GetUpperBound()] = b.GetCumulativeCount()
	}
	if len(got) != len(copyAgeBuckets) {
		t.Errorf("%d buckets, want %d", len(got), len(copyAgeBuckets))
	}
	for le, n := range want {
		if got[le] != n {
			t.Errorf("bucket le=%v: %d, want %d", le, got[le], n)
		}
	}
}

type slowLocker struct{ wait time.Duration }

func (l slowLocker) LockSeller(ctx context.Context, seller int64) (func(), error) {
	time.Sleep(l.wait)
	if seller < 0 {
		return nil, errors.New("refused")
	}
	return func() {}, nil
}

// A wait for a seller's lock is observed, a refused one too, by user.
func TestLockerObservesWaits(t *testing.T) {
	m := New()
	l := m.Locker(slowLocker{wait: 20 * time.Millisecond}, LockMassUpdate)
	unlock, err := l.LockSeller(context.Background(), 1001)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if _, err := l.LockSeller(context.Background(), -1); err == nil {
		t.Fatal("the inner locker's refusal was lost")
	}
	var d dto.Metric
	if err := m.lockWait.WithLabelValues(LockMassUpdate).(interface{ Write(*dto.Metric) error }).Write(&d); err != nil {
		t.Fatal(err)
	}
	if h := d.GetHistogram(); h.GetSampleCount() != 2 || h.GetSampleSum() < 0.04 {
		t.Errorf("lock waits: %d observed, %v s, want 2 of at least 20 ms", h.GetSampleCount(), h.GetSampleSum())
	}
}

// With no sources watched yet a scrape still answers, without the series
// read from them.
func TestScrapeBeforeWatch(t *testing.T) {
	fams, err := New().Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == "sellerdesk_db_connections" {
			t.Error("database series without a database")
		}
	}
}
