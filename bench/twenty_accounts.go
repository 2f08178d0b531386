package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sandbox"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// ---- P14: a session holding twenty accounts ----

// TwentyAccounts (target P14) compares, side by side on one dashboard
// serving the bench seller's copy (P14Products x 3 records), a session
// holding the bench seller's account alone with a session holding it and
// sessions.MaxAccounts-1 more, every one with both its tokens (the bench
// seller's tokens as the sandbox issued them, stored again under each
// further account's names, so they are the sandbox's size). Each of the
// catalogue pages is viewed P14Views times in each session, alternating
// which goes first; the target is each page's median in the larger
// session <= 1.2x its median in the smaller, the start page (in the
// larger session the all-accounts overview) <= 2x, and the larger
// session's stored size <= 16 KB.
func TwentyAccounts(s Sizes) (Result, error) {
	r := Result{ID: "P14", Target: "a page's p50 with 20 accounts <= 1.2x with one; overview <= 2x; stored session <= 16 KB"}
	t0 := time.Now()
	ce, err := startCopy(s.P14Products, "")
	if err != nil {
		return r, err
	}
	defer ce.Close()
	r.Detail = append(r.Detail, fmt.Sprintf("SQLite copy of %d records built (sandbox, first sync, no latency) in %s", ce.records, time.Since(t0).Round(time.Second)))
	many, err := ce.Login()
	if err != nil {
		return r, err
	}
	if err := addAccounts(ce.Env, many, sessions.MaxAccounts-1); err != nil {
		return r, err
	}
	ctx := context.Background()
	oneSize, err := ce.Backend.StoredSize(ctx, ce.user.ID)
	if err != nil {
		return r, err
	}
	size, err := ce.Backend.StoredSize(ctx, many.ID)
	if err != nil {
		return r, err
	}
	users := [2]*User{ce.user, many}
	times := make([][2][]time.Duration, len(copyPages))
	for round := range s.P14Views + 1 {
		for p, page := range copyPages {
			for k := range 2 {
				i := (round + p + k) % 2
				t := time.Now()
				st, body, err := users[i].Get(page)
				if err != nil || st != http.StatusOK {
					return r, fmt.Errorf("GET %s: %d %v", page, st, err)
				}
				if i == 1 && round == 0 && p == 0 {
					if n := strings.Count(string(body), "agency-"); n < sessions.MaxAccounts-1 {
						return r, fmt.Errorf("the overview of the %d-account session names %d of the added accounts", sessions.MaxAccounts, n)
					}
				}
				if round > 0 {
					times[p][i] = append(times[p][i], time.Since(t))
				}
			}
		}
	}
	worst, worstPage, overview := 0.0, "", 0.0
	table := []string{fmt.Sprintf("| page (one client, median of %d) | 1 account | %d accounts | ratio | target |", s.P14Views, sessions.MaxAccounts), "|---|---|---|---|---|"}
	for p, page := range copyPages {
		a, b := median(times[p][0]), median(times[p][1])
		g := float64(b) / float64(a)
		target := "<= 1.2x"
		switch {
		case page == "/": // the all-accounts overview in the larger session
			overview, target = g, "<= 2x (all-accounts overview)"
		case g > worst:
			worst, worstPage = g, page
		}
		table = append(table, fmt.Sprintf("| `%s` | %s | %s | %.2fx | %s |", page, ms(a), ms(b), g, target))
	}
	r.Holds = worst <= 1.2 && overview <= 2 && size <= 16<<10
	r.Figure = fmt.Sprintf("worst page %.2fx (%s); all-accounts overview %.2fx the one-account overview; stored session %d B with %d accounts (one: %d B)",
		worst, worstPage, overview, size, sessions.MaxAccounts, oneSize)
	r.Detail = append(r.Detail,
		"both sessions belong to the same dashboard and view the bench seller's pages in alternation, so what else runs weighs on both alike",
		fmt.Sprintf("stored size as SQLite measures it (session row and token rows): %d B with %d accounts and both their tokens, %d B with one", size, sessions.MaxAccounts, oneSize),
		strings.Join(table, "\n"))
	if !s.ChildRSS {
		r.Detail = append(r.Detail, "the refresh of twenty copies and the dashboard's RSS are measured with the child dashboard (Sizes.ChildRSS), not in this run")
		return r, nil
	}
	tc, err := twentyRefresh(s.P14Products, P14Interval)
	if err != nil {
		r.Holds = false
		r.Figure += "; the refresh of twenty copies did not run: " + err.Error()
		return r, nil
	}
	r.Holds = r.Holds && tc.MaxPasses <= sqlitePasses && tc.MaxInFlight <= 1 && max(tc.PeakRSS, tc.HWM) <= 256<<20
	r.Figure += fmt.Sprintf("; %d copies refreshed on schedule: at most %d pass(es) at once (SQLite allows %d), at most %d request(s) in flight per route and seller; child RSS peak %s (VmHWM %s)",
		sessions.MaxAccounts, tc.MaxPasses, sqlitePasses, tc.MaxInFlight, mb(tc.PeakRSS), mb(tc.HWM))
	r.Detail = append(r.Detail,
		fmt.Sprintf("refresh: cmd/web as a child process (SELLERDESK_SYNC_INTERVAL=%s, SQLite), one session of %d accounts added through the accounts form, each a copy of %d records; the first copies took %s, then a page of each account every few seconds (%d views) kept them in use until a pass begun after them refreshed every copy, %s later",
			P14Interval, sessions.MaxAccounts, tc.Records, tc.FirstCopies.Round(time.Second), tc.Views, tc.Scheduled.Round(time.Second)),
		fmt.Sprintf("the views that kept the copies in use (/prices?limit=50 of each account in turn, one client, during the refresh): answers %v (first other than 200: %s), median %s, slowest %s", tc.Codes, tc.FirstFailure, ms(tc.ViewP50), ms(tc.ViewMax)),
		"passes at once: copies whose state in the child's database says a pass is running, sampled every 20 ms from the first login to the end; in flight: the sandbox's max_in_flight over every route and seller (token requests included)",
		fmt.Sprintf("memory: the child's VmRSS sampled alongside, peak %s; VmHWM at the end %s (target <= 256 MB)", mb(tc.PeakRSS), mb(tc.HWM)))
	return r, nil
}

// P14Interval is the child dashboard's SELLERDESK_SYNC_INTERVAL in P14's
// refresh: the shortest the dashboard takes, so a scheduled round runs
// within the measurement.
const P14Interval = time.Minute

// sqlitePasses is how many passes the copy's manager runs at once on
// SQLite (copystore's maxPasses: one writer).
const sqlitePasses = 1

// mb is n bytes in MB, one decimal.
func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// addAccounts adds n accounts to u's session as the form adding an
// account leaves it (the bench seller's account stays current), each with
// both tokens: the bench seller's tokens, stored again under the added
// account's names.
func addAccounts(e *Env, u *User, n int) error {
	ctx := context.Background()
	req := httptest.NewRequest(http.MethodGet, e.URL+"/", nil)
	req.Header.Set("Cookie", u.Cookie)
	sess, err := e.Store.Load(req)
	if err != nil {
		return err
	}
	if sess.IsNew() {
		return fmt.Errorf("the session of %s is not stored", u.ID)
	}
	toks, err := e.Store.LoadTokens(ctx, u.ID)
	if err != nil {
		return err
	}
	d := sess.Data()
	var added []sessions.Account
	for i := range n {
		a := sessions.Account{
			ClientID: fmt.Sprintf("agency-client-%02d", i), ClientSecret: fmt.Sprintf("agency-secret-%02d-5b1e0c7d9a", i),
			Environment: env, SellerID: int64(2001 + i), DisplayName: fmt.Sprintf("agency-%02d Магазин", i),
		}
		if err := d.AddAccount(a); err != nil {
			return err
		}
		added = append(added, a)
	}
	if !d.SwitchAccount(benchAccount()) {
		return fmt.Errorf("the bench account left the session")
	}
	if err := sess.Save(req, httptest.NewRecorder()); err != nil {
		return err
	}
	prefix := benchAccount() + "/"
	for _, a := range added {
		for name, t := range toks {
			if rest, ok := strings.CutPrefix(name, prefix); ok {
				if err := e.Store.SaveToken(ctx, u.ID, a.ID()+"/"+rest, t); err != nil {
					return err
				}
			}
		}
	}
	if all, err := e.Store.LoadTokens(ctx, u.ID); err != nil || len(all) != 2*(n+1) {
		return fmt.Errorf("the session holds %d tokens (%v), want %d", len(all), err, 2*(n+1))
	}
	return nil
}

// twentyCopies is what twentyRefresh measured.
type twentyCopies struct {
	Records      int // records of each copy
	FirstCopies  time.Duration
	Scheduled    time.Duration // from the first views after the first copies to a pass of every copy since
	MaxPasses    int           // copies with a pass running at once, sampled
	MaxInFlight  int           // the sandbox's highest in-flight count of a route and seller
	PeakRSS, HWM int64
	Views        int         // the views that kept the copies in use
	Codes        map[int]int // their answers by status
	FirstFailure string      // the status and title of the first view not answered 200
	ViewP50      time.Duration
	ViewMax      time.Duration
}

// twentyRefresh (P14's refresh and memory) runs cmd/web as a child
// process (startChild) with a scheduled refresh every interval, against
// a sandbox of sessions.MaxAccounts sellers of products x 3 records each;
// one session logs in to the first seller and adds the others through the
// accounts form, which starts each account's first copy. Once every copy
// is complete, the session keeps viewing a page of each account, so every
// copy stays in use, until each has been refreshed by a pass begun after
// that. Throughout, it samples the number of copies the child's database
// says a pass is running for (copystore.SyncState.Running) and the
// child's VmRSS; at the end it reads the sandbox's highest number of
// requests in flight per route and seller.
func twentyRefresh(products int, interval time.Duration) (twentyCopies, error) {
	var out twentyCopies
	e, err := Start(EnvOptions{Sandbox: sandbox.Options{ProductsPerSeller: products, Sellers: sessions.MaxAccounts}})
	if err != nil {
		return out, err
	}
	defer e.Close()
	creds := e.Sandbox.Credentials()
	dir, err := os.MkdirTemp("", "sdbench-twenty-")
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	child, err := startChild(e, dir, "", "SELLERDESK_SYNC_INTERVAL="+interval.String())
	if err != nil {
		return out, err
	}
	defer child.stop()
	pid := child.cmd.Process.Pid
	e.Sandbox.ResetCounters()

	db, err := sqldb.Open(context.Background(), child.dbURL)
	if err != nil {
		return out, err
	}
	defer db.Close()
	cs, err := copystore.New(context.Background(), db)
	if err != nil {
		return out, err
	}
	keys := make([]copystore.Key, len(creds))
	ids := make([]string, len(creds))
	for i, c := range creds {
		keys[i] = copystore.Key{SellerID: c.SellerID, Env: env}
		ids[i] = sessions.Account{ClientID: c.ClientID, Environment: env, SellerID: c.SellerID}.ID()
	}
	// The sampler: copies with a pass running, and the child's memory.
	var maxPasses, peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan error, 1)
	go func() {
		var firstErr error
		for {
			// One statement for all the copies: sampling each in turn
			// counts a pass that ends and the next that starts as two.
			n, err := cs.RunningCopies(context.Background())
			if err != nil && firstErr == nil {
				firstErr = err
			}
			if int64(n) > maxPasses.Load() {
				maxPasses.Store(int64(n))
			}
			if v, _ := procStatus(pid); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				sampled <- firstErr
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	defer func() {
		if stop != nil {
			close(stop)
			<-sampled
		}
	}()

	t0 := time.Now()
	cookie, err := childLoginAs(child.base, creds[0].ClientID, creds[0].ClientSecret, int(creds[0].SellerID))
	if err != nil {
		return out, err
	}
	for _, c := range creds[1:] {
		if cookie, err = childAddAccount(child.base, cookie, c); err != nil {
			return out, err
		}
	}
	for _, k := range keys {
		if err := waitCopyOf(cs, k, 60*time.Minute); err != nil {
			return out, err
		}
	}
	out.FirstCopies = time.Since(t0)
	if out.Records, err = cs.CountNomenclature(context.Background(), keys[len(keys)-1], copystore.Query{}); err != nil {
		return out, err
	}

	// Every copy in use until a pass begun after mark refreshed it.
	mark := time.Now()
	client := &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	deadline := mark.Add(4*interval + 30*time.Minute)
	out.Codes = map[int]int{}
	var took []time.Duration
	for {
		for _, id := range ids {
			req, _ := http.NewRequest(http.MethodGet, child.base+paths.Of(id, "/prices?limit=50"), nil)
			req.Header.Set("Cookie", cookie)
			t := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				return out, err
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			took = append(took, time.Since(t))
			if resp.StatusCode != http.StatusOK && out.FirstFailure == "" {
				out.FirstFailure = fmt.Sprintf("%d %q", resp.StatusCode, titleOf(body))
			}
			// A page may answer 503 when its local work outlasts the
			// page gate's limit behind a pass's writes: counted and
			// reported, the copy stays in use all the same.
			out.Codes[resp.StatusCode]++
			out.Views++
		}
		done := true
		for _, k := range keys {
			states, err := cs.SyncStates(context.Background(), k)
			if err != nil {
				return out, err
			}
			for _, st := range states {
				done = done && st.StartedAt.After(mark) && st.CompletedAt.After(st.StartedAt) && !st.Running
			}
			done = done && len(states) == len(copystore.Kinds)
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			return out, fmt.Errorf("not every copy was refreshed within %s of the first copies", deadline.Sub(mark))
		}
		time.Sleep(2 * time.Second)
	}
	out.Scheduled = time.Since(mark)
	out.ViewP50 = median(took)
	out.ViewMax = slices.Max(took)
	if out.FirstFailure == "" {
		out.FirstFailure = "none"
	}
	if out.Codes[http.StatusOK] == 0 {
		return out, fmt.Errorf("no view of an account's page answered 200: %v", out.Codes)
	}
	close(stop)
	serr := <-sampled
	stop = nil
	if serr != nil {
		return out, serr
	}
	_, out.HWM = procStatus(pid)
	out.PeakRSS, out.MaxPasses = peak.Load(), int(maxPasses.Load())
	for key, n := range e.Sandbox.Counters().MaxInFlight {
		if strings.HasSuffix(key, "/0") {
			continue // requests naming no seller
		}
		out.MaxInFlight = max(out.MaxInFlight, n)
	}
	return out, nil
}

// childAddAccount adds the account of c to the session of cookie in the
// child dashboard at base, through the accounts form, and returns the
// session's cookie (a new one when the dashboard renewed it).
func childAddAccount(base, cookie string, c sandbox.Credential) (string, error) {
	client := &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"client_id": {c.ClientID}, "client_secret": {c.ClientSecret}, "seller_id": {strconv.FormatInt(c.SellerID, 10)}, "environment": {env}}
	req, err := http.NewRequest(http.MethodPost, base+paths.Accounts, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", cookie)
	req.Header.Set("Origin", base)
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return "", fmt.Errorf("adding account %s: status %d, want 303", c.ClientID, resp.StatusCode)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == "sd_session" {
			cookie = ck.Name + "=" + ck.Value
		}
	}
	return cookie, nil
}

// titleOf is the text of a page's <title>, or "".
func titleOf(page []byte) string {
	_, rest, ok := strings.Cut(string(page), "<title>")
	if !ok {
		return ""
	}
	t, _, _ := strings.Cut(rest, "</title>")
	return t
}
