package bench

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// floodPages are the heavy pages one session keeps in flight in P12: a
// search sorted by another column than the search's, at some depth.
var floodPages = []string{
	"/nomenclature?sort=-price&q=" + url.QueryEscape("крос"),
	"/prices?sort=name&q=" + url.QueryEscape("крос") + "&page=5",
	"/nomenclature?sort=-quantity&status=online&page=20",
}

// floodOtherPage is the page a colleague views meanwhile.
const floodOtherPage = "/prices?limit=50"

// PageUnderFlood (target P12) serves a copy of FloodProducts x 3 records
// (100,000 with the full sizes) on SQLite. One session keeps FloodInFlight
// heavy pages (floodPages) in flight without pause; another session, a
// colleague, views floodOtherPage one at a time. The colleague's times are
// taken alone and beside the flood, in alternating slices of FloodViews
// views each, so whatever else runs on the machine weighs on both sides;
// it holds when the colleague's p99 beside the flood stays within 100 ms.
func PageUnderFlood(s Sizes) (Result, error) {
	r := Result{ID: "P12", Target: "colleague's p99 <= 100 ms beside the flood"}
	ce, err := startCopy(s.FloodProducts, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	flooder, err := ce.Login()
	if err != nil {
		return r, err
	}
	colleague := ce.user
	// One unmeasured view of each page: templates, statements, page cache.
	heavy := make([]time.Duration, 0, len(floodPages))
	for _, p := range append(slices.Clone(floodPages), floodOtherPage) {
		if st, _, err := colleague.Get(p); err != nil || st != http.StatusOK {
			return r, fmt.Errorf("GET %s: %d %v", p, st, err)
		}
	}
	for _, p := range floodPages {
		t0 := time.Now()
		if st, _, err := colleague.Get(p); err != nil || st != http.StatusOK {
			return r, fmt.Errorf("GET %s: %d %v", p, st, err)
		}
		heavy = append(heavy, time.Since(t0))
	}

	var alone, beside []time.Duration
	view := func(into *[]time.Duration) error {
		for range s.FloodViews {
			t0 := time.Now()
			st, _, err := colleague.Get(floodOtherPage)
			if err != nil || st != http.StatusOK {
				return fmt.Errorf("colleague's GET %s: %d %v", floodOtherPage, st, err)
			}
			*into = append(*into, time.Since(t0))
		}
		return nil
	}
	var floodDone, flood200, floodOther atomic.Int64
	for slice := range 2 * s.FloodSlices {
		if slice%2 == 0 {
			if err := view(&alone); err != nil {
				return r, err
			}
			continue
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		started := make(chan struct{}, s.FloodInFlight)
		for i := range s.FloodInFlight {
			wg.Go(func() {
				for n := i; ; n++ {
					select {
					case <-stop:
						return
					default:
					}
					if n == i {
						started <- struct{}{}
					}
					st, _, err := flooder.Get(floodPages[n%len(floodPages)])
					floodDone.Add(1)
					switch {
					case err == nil && st == http.StatusOK:
						flood200.Add(1)
					default:
						floodOther.Add(1)
					}
				}
			})
		}
		for range s.FloodInFlight {
			<-started
		}
		err := view(&beside)
		close(stop)
		wg.Wait()
		if err != nil {
			return r, err
		}
	}
	pa, pb := percentile(alone, 99), percentile(beside, 99)
	r.Holds = pb <= 100*time.Millisecond
	r.Figure = fmt.Sprintf("%d records; colleague's %s p99 %s alone, %s beside one session's %d heavy pages in flight (p50 %s, %s)",
		ce.records, floodOtherPage, ms(pa), ms(pb), s.FloodInFlight, ms(median(alone)), ms(median(beside)))
	r.Detail = append(r.Detail,
		fmt.Sprintf("SQLite copy of %d records; one session keeps %d pages in flight, cycling through %q; a colleague's session views `%s` one at a time, %d views a slice, %d slices a side, alone and beside the flood in alternation", ce.records, s.FloodInFlight, floodPages, floodOtherPage, s.FloodViews, s.FloodSlices),
		fmt.Sprintf("colleague alone: p50 %s, p99 %s, max %s (%d views)", ms(median(alone)), ms(pa), ms(slices.Max(alone)), len(alone)),
		fmt.Sprintf("colleague beside the flood: p50 %s, p99 %s, max %s (%d views)", ms(median(beside)), ms(pb), ms(slices.Max(beside)), len(beside)),
		fmt.Sprintf("the flood's pages: %d answered, %d with 200, %d otherwise (503: stopped at the page's time bound); each alone took %v", floodDone.Load(), flood200.Load(), floodOther.Load(), rounded(heavy)),
	)
	return r, nil
}
