package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// ExportMemory (target P13) is the resident memory of the dashboard alone
// (cmd/web as a child process, SQLite, its copy of ExportProducts x 3
// records filled by a first sync) while ExportsAtOnce whole-catalogue XLSX
// exports, the export gate's maximum, run at once to clients that read
// them as fast as they come. It holds when the child's peak VmRSS during
// the exports stays within 256 MB. Without ChildRSS (the smoke sizes) it is
// not measured.
func ExportMemory(s Sizes) (Result, error) {
	r := Result{ID: "P13", Target: "RSS <= 256 MB"}
	if !s.ChildRSS {
		r.Info, r.Figure = true, "not measured: the smoke sizes do not build cmd/web"
		return r, nil
	}
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: s.ExportProducts}})
	if err != nil {
		return r, err
	}
	defer e.Close()
	dir, err := os.MkdirTemp("", "sdbench-export-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	child, err := startChild(e, dir, "")
	if err != nil {
		return r, err
	}
	defer child.stop()
	cookie, err := childLogin(child.base) // starts the first sync
	if err != nil {
		return r, err
	}
	db, err := sqldb.Open(context.Background(), child.dbURL)
	if err != nil {
		return r, err
	}
	defer db.Close()
	cs, err := copystore.New(context.Background(), db)
	if err != nil {
		return r, err
	}
	if err := waitCopy(cs, 30*time.Minute); err != nil {
		return r, err
	}
	records, err := cs.CountNomenclature(context.Background(), benchKey, copystore.Query{})
	if err != nil {
		return r, err
	}
	pid := child.cmd.Process.Pid
	before, _ := procStatus(pid)

	var peak atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		for {
			if v, _ := procStatus(pid); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	t0 := time.Now()
	var wg sync.WaitGroup
	sizes := make([]int64, s.ExportsAtOnce)
	errs := make([]error, s.ExportsAtOnce)
	for i := range s.ExportsAtOnce {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodGet, child.base+dash("/nomenclature/export-all.xlsx"), nil)
			req.Header.Set("Cookie", cookie)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			sizes[i], errs[i] = io.Copy(io.Discard, resp.Body)
			if errs[i] == nil && resp.StatusCode != http.StatusOK {
				errs[i] = fmt.Errorf("export %d: status %d", i+1, resp.StatusCode)
			}
		})
	}
	wg.Wait()
	took := time.Since(t0)
	close(stop)
	sampler.Wait()
	for _, err := range errs {
		if err != nil {
			return r, err
		}
	}
	r.Holds = peak.Load() <= 256<<20
	r.Figure = fmt.Sprintf("%d XLSX exports of %d records at once: dashboard alone peak RSS %d MB (%d MB before)", s.ExportsAtOnce, records, peak.Load()>>20, before>>20)
	r.Detail = append(r.Detail,
		fmt.Sprintf("cmd/web built and run as a child process against the sandbox, SQLite, its copy of %d records filled by a first sync; then %d clients each download `/nomenclature/export-all.xlsx` at once, reading as fast as it comes: files of %v bytes in %s", records, s.ExportsAtOnce, sizes, took.Round(100*time.Millisecond)),
		fmt.Sprintf("VmRSS from /proc/<pid>/status sampled every 50 ms during the exports: peak %d MB; %d MB before them", peak.Load()>>20, before>>20),
	)
	return r, nil
}
