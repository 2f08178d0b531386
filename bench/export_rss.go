package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/paths"
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
	// Two sellers, each with a copy: one export per copy runs at once,
	// two in all.
	var cookies []string
	for i := range s.ExportsAtOnce {
		seller := sellerID + i
		cookie, err := childLoginAs(child.base, fmt.Sprintf("demo-%d", seller), fmt.Sprintf("sandbox-secret-%d", seller), seller) // starts its first sync
		if err != nil {
			return r, err
		}
		cookies = append(cookies, cookie)
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
	records := 0
	for i := range s.ExportsAtOnce {
		k := copystore.Key{SellerID: int64(sellerID + i), Env: env}
		if err := waitCopyOf(cs, k, 30*time.Minute); err != nil {
			return r, err
		}
		n, err := cs.CountNomenclature(context.Background(), k, copystore.Query{})
		if err != nil {
			return r, err
		}
		records = max(records, n)
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
			seller := int64(sellerID + i)
			acct := sessions.Account{ClientID: fmt.Sprintf("demo-%d", seller), SellerID: seller, Environment: env}.ID()
			req, _ := http.NewRequest(http.MethodGet, child.base+paths.Of(acct, "/nomenclature/export-all.xlsx"), nil)
			req.Header.Set("Cookie", cookies[i])
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
	r.Figure = fmt.Sprintf("%d XLSX exports of %d records (two sellers' copies) at once: dashboard alone peak RSS %d MB (%d MB before)", s.ExportsAtOnce, records, peak.Load()>>20, before>>20)
	r.Detail = append(r.Detail,
		fmt.Sprintf("cmd/web built and run as a child process against the sandbox, SQLite, two sellers each with a copy of %d records filled by a first sync; then %d clients, one of each seller, each download `/nomenclature/export-all.xlsx` at once, reading as fast as it comes: files of %v bytes in %s", records, s.ExportsAtOnce, sizes, took.Round(100*time.Millisecond)),
		fmt.Sprintf("VmRSS from /proc/<pid>/status sampled every 50 ms during the exports: peak %d MB; %d MB before them", peak.Load()>>20, before>>20),
	)
	return r, nil
}

// childLoginAs logs a seller in to the dashboard at base and returns its
// session cookie.
func childLoginAs(base, client, secret string, seller int) (string, error) {
	c := &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"client_id": {client}, "client_secret": {secret}, "seller_id": {strconv.Itoa(seller)}, "environment": {env}}
	resp, err := c.PostForm(base+"/login", form)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return "", fmt.Errorf("child login: status %d, want 303", resp.StatusCode)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == "sd_session" {
			return ck.Name + "=" + ck.Value, nil
		}
	}
	return "", errors.New("child login: no session cookie")
}

// waitCopyOf waits until every kind of the copy k has a finished pass and
// none runs.
func waitCopyOf(cs *copystore.Store, k copystore.Key, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		states, err := cs.SyncStates(context.Background(), k)
		if err != nil {
			return err
		}
		done := len(states) == len(copystore.Kinds)
		for _, st := range states {
			done = done && st.Complete() && !st.Running
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the first sync of %d did not finish in %s: %+v", k.SellerID, limit, states)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
