package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// BackupUnderLoad (target P10b) serves P10's load (a SQLite copy of
// CopyLarge x 3 records, CopyUsers clients cycling through loadPages) in
// alternating slices, quiet and with one `sellerdesk backup` copy
// (sqldb.DB.BackupTo, SQLite's online backup) taken in each, and reports the
// dashboard's p99 on each side and how long a backup took.
func BackupUnderLoad(s Sizes) (Result, error) {
	r := Result{ID: "P10b", Target: "p99 <= 100 ms with a backup running, 0 err, every backup completes"}
	ce, err := startCopy(s.CopyLarge, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	users := make([]*User, s.CopyUsers)
	for i := range users {
		if users[i], err = ce.Login(); err != nil {
			return r, err
		}
	}
	var targets []vegeta.Target
	for k := range loadPages {
		for u := range users {
			p := (k + u) % len(loadPages)
			targets = append(targets, vegeta.Target{Method: http.MethodGet, URL: ce.URL + dash(loadPages[p]),
				Header: loadHeader(users[u].Cookie)})
		}
	}
	dir, err := os.MkdirTemp("", "sdbench-backup-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)

	var (
		mu        sync.Mutex
		durations []time.Duration
		backupErr error
		size      int64
	)
	// backup takes one copy of the database, as `sellerdesk backup` does.
	backup := func(n int) {
		path := filepath.Join(dir, "backup-"+strconv.Itoa(n)+".db")
		t0 := time.Now()
		err := ce.built.DB.BackupTo(context.Background(), path)
		d := time.Since(t0)
		st, _ := os.Stat(path)
		_ = os.Remove(path)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && backupErr == nil {
			backupErr = err
		}
		durations = append(durations, d)
		if st != nil {
			size = st.Size()
		}
	}
	type side struct {
		m     vegeta.Metrics
		total time.Duration
	}
	run := func(sd *side, name string, withBackup bool) {
		a := vegeta.NewAttacker(vegeta.Workers(uint64(s.CopyUsers)), vegeta.MaxWorkers(uint64(s.CopyUsers)),
			vegeta.KeepAlive(true), vegeta.Connections(s.CopyUsers*2), vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow))
		done := make(chan struct{})
		if withBackup {
			// One backup, started a tenth into the slice, while the load
			// runs at full tilt.
			n := len(durations)
			go func() { time.Sleep(s.CopySlice / 10); backup(n); close(done) }()
		} else {
			close(done)
		}
		t0 := time.Now()
		for res := range a.Attack(vegeta.NewStaticTargeter(targets...), vegeta.Rate{Freq: 0}, s.CopySlice, name) {
			sd.m.Add(res)
		}
		sd.total += time.Since(t0)
		a.Stop()
		<-done
	}
	quiet, busy := &side{}, &side{}
	for i := range s.CopySlices {
		if i%2 == 0 {
			run(quiet, "quiet", false)
			run(busy, "backup", true)
		} else {
			run(busy, "backup", true)
			run(quiet, "quiet", false)
		}
	}
	quiet.m.Close()
	busy.m.Close()
	// One backup each way on the same copy with the load stopped: the
	// process's CPU and the time of BackupTo (pages copied as they are)
	// beside VACUUM INTO (every table and index rebuilt), the way
	// BackupTo took before.
	type way struct {
		cpu, wall time.Duration
		err       error
	}
	measure := func(name string, copyTo func(path string) error) way {
		path := filepath.Join(dir, name+".db")
		c0, t0 := cpuTime(), time.Now()
		err := copyTo(path)
		w := way{cpu: cpuTime() - c0, wall: time.Since(t0), err: err}
		_ = os.Remove(path)
		return w
	}
	pages := measure("pages", func(path string) error { return ce.built.DB.BackupTo(context.Background(), path) })
	vacuum := measure("vacuum", func(path string) error {
		_, err := ce.built.DB.Writer().ExecContext(context.Background(), "VACUUM INTO ?", path)
		return err
	})
	errs := func(sd *side) int { return int(sd.m.Requests) - sd.m.StatusCodes["200"] }
	thr := func(sd *side) float64 { return float64(sd.m.StatusCodes["200"]) / sd.total.Seconds() }
	var longest time.Duration
	for _, d := range durations {
		longest = max(longest, d)
	}
	r.Holds = busy.m.Latencies.P99 <= 100*time.Millisecond && errs(busy) == 0 && len(durations) > 0 && backupErr == nil
	r.Figure = fmt.Sprintf("SQLite, %d records, %d clients: p99 %s with backups running (%d err, %.0f/s) vs %s quiet (%.0f/s); %d backups of %d MB, the longest %s",
		ce.records, s.CopyUsers, busy.m.Latencies.P99.Round(100*time.Microsecond), errs(busy), thr(busy),
		quiet.m.Latencies.P99.Round(100*time.Microsecond), thr(quiet), len(durations), size>>20, longest.Round(time.Millisecond))
	if backupErr != nil {
		r.Figure += "; a backup failed: " + backupErr.Error()
	}
	if pages.err != nil || vacuum.err != nil {
		return r, fmt.Errorf("a backup with the load stopped: %v, %v", pages.err, vacuum.err)
	}
	r.Detail = append(r.Detail, fmt.Sprintf("one backup each way with the load stopped, the process's CPU (getrusage) and time: BackupTo (online backup, pages as they are) %s CPU in %s; VACUUM INTO (every table and index rebuilt) %s CPU in %s",
		pages.cpu.Round(time.Millisecond), pages.wall.Round(time.Millisecond), vacuum.cpu.Round(time.Millisecond), vacuum.wall.Round(time.Millisecond)))
	r.Detail = append(r.Detail,
		fmt.Sprintf("vegeta (library), closed loop: %d workers, pages %v; %d slices of %s per side, alternating which goes first; in each of the backup side's slices the database is copied once, from a tenth into the slice (sqldb.DB.BackupTo into a new file on the same disk, then removed); a backup outlasting its slice is waited for, unloaded", s.CopyUsers, loadPages, s.CopySlices, s.CopySlice),
		fmt.Sprintf("with backups: %d requests, status codes %v, p50 %s p90 %s p99 %s max %s", busy.m.Requests, busy.m.StatusCodes, busy.m.Latencies.P50, busy.m.Latencies.P90, busy.m.Latencies.P99, busy.m.Latencies.Max),
		fmt.Sprintf("quiet: %d requests, status codes %v, p50 %s p90 %s p99 %s max %s", quiet.m.Requests, quiet.m.StatusCodes, quiet.m.Latencies.P50, quiet.m.Latencies.P90, quiet.m.Latencies.P99, quiet.m.Latencies.Max))
	return r, nil
}
