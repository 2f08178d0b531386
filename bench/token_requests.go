package bench

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// tokenModel predicts the token requests of a single user's views: a token
// is requested when a view needs it at or after its refresh time (80 % of
// its 900 s life) and lasts from then on.
type tokenModel struct {
	refreshAt map[string]time.Time
	life      time.Duration
	count     map[string]int
}

func (m *tokenModel) view(t time.Time, kind string) {
	if !t.Before(m.refreshAt[kind]) {
		m.count[kind]++
		m.refreshAt[kind] = t.Add(time.Duration(float64(m.life) * 0.8))
	}
}

// TokenRequestsPerHour (target P2) drives one user through views spread over an hour of sandbox clock:
// orders (B2B token), prices (seller JSON-RPC) and return boxes (seller
// REST, seller token) in turn, with a burst of concurrent views at the very
// instant the B2B token expires. The counts must match the model exactly.
func TokenRequestsPerHour(s Sizes) (Result, error) {
	r := Result{ID: "P2", Target: "1 per interface per window, never more"}
	e, err := Start(EnvOptions{})
	if err != nil {
		return r, err
	}
	defer e.Close()
	u, err := e.Login()
	if err != nil {
		return r, err
	}
	sb := e.Sandbox
	ttl := sb.TokenTTL()
	start := sb.Now()
	m := &tokenModel{life: ttl, count: map[string]int{},
		refreshAt: map[string]time.Time{"b2b/test": start.Add(ttl * 8 / 10), "seller": start.Add(ttl * 8 / 10)}}
	sb.ResetCounters()
	pages := []struct{ path, kind string }{
		{"/orders?limit=20", "b2b/test"}, {"/prices?limit=20", "seller"}, {"/return-boxes", "seller"},
	}
	seq := s.P2Views - s.P2Burst
	step := s.P2Span / time.Duration(s.P2Views)
	burstAt := seq / 2
	var burstTokens map[string]int
	views := 0
	for i := range seq {
		if i == burstAt {
			// Jump to the exact expiry of the B2B token in the store (as
			// if the user paused), then fire the burst.
			toks, err := e.Store.LoadTokens(context.Background(), u.ID)
			if err != nil {
				return r, err
			}
			// The session names each token by its account (tokens.go).
			exp := toks[benchAccount()+"/b2b/test"].ExpiresAt
			if exp.IsZero() {
				return r, fmt.Errorf("burst: the session holds no B2B token of the bench account (holds %d)", len(toks))
			}
			if d := exp.Sub(sb.Now()); d > 0 {
				sb.Advance(d)
			}
			before := sb.Counters().TokensIssued
			now := sb.Now()
			var wg sync.WaitGroup
			errs := make(chan error, s.P2Burst)
			for j := range s.P2Burst {
				p := pages[j%2] // orders and prices: both tokens at once
				m.view(now, p.kind)
				wg.Go(func() {
					st, _, err := u.Get(p.path)
					if err == nil && st != http.StatusOK {
						err = fmt.Errorf("%s: status %d", p.path, st)
					}
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					return r, fmt.Errorf("burst: %w", err)
				}
			}
			views += s.P2Burst
			after := sb.Counters().TokensIssued
			burstTokens = map[string]int{"b2b/test": after["b2b/test"] - before["b2b/test"], "seller": after["seller"] - before["seller"]}
		}
		p := pages[i%len(pages)]
		m.view(sb.Now(), p.kind)
		st, _, err := u.Get(p.path)
		if err != nil || st != http.StatusOK {
			return r, fmt.Errorf("view %d %s: %d %v", i, p.path, st, err)
		}
		views++
		// Spread the rest evenly up to the end of the span.
		if left := start.Add(s.P2Span).Sub(sb.Now()); left > 0 && seq-i-1 > 0 {
			step = left / time.Duration(seq-i)
		}
		sb.Advance(step)
	}
	got := sb.Counters().TokensIssued
	span := sb.Now().Sub(start)
	r.Holds = got["b2b/test"] == m.count["b2b/test"] && got["seller"] == m.count["seller"] &&
		burstTokens["b2b/test"] == 1 && burstTokens["seller"] <= 1 && got["b2b/production"] == 0
	r.Figure = fmt.Sprintf("%d views/%s: b2b %d (model %d), seller %d (model %d); burst of %d: b2b %d, seller %d",
		views, span.Round(time.Minute), got["b2b/test"], m.count["b2b/test"], got["seller"], m.count["seller"], s.P2Burst, burstTokens["b2b/test"], burstTokens["seller"])
	r.Detail = append(r.Detail,
		fmt.Sprintf("token lifetime %s, refresh at 80 %%: a refresh window is %s; the model counts one request per token kind each time a view needs a token at or after its refresh time", ttl, ttl*8/10),
		fmt.Sprintf("the burst (%d concurrent views, orders and prices alternating, same session) fires at the exact ExpiresAt of the stored B2B token", s.P2Burst))
	return r, nil
}

// ---- P3: a forced 401 ----

// TokenRetryOn401 (target P3) makes the marketplace answer 401 once on a data call of each interface
// and counts what follows: exactly one token request and one retry.
func TokenRetryOn401(s Sizes) (Result, error) {
	r := Result{ID: "P3", Target: "1 token request + 1 retry"}
	e, err := Start(EnvOptions{})
	if err != nil {
		return r, err
	}
	defer e.Close()
	u, err := e.Login()
	if err != nil {
		return r, err
	}
	cases := []struct {
		name, path, route, token string
	}{
		{"B2B REST", "/orders?limit=50", sandbox.RouteB2BOrders, "b2b/test"},
		{"seller JSON-RPC", "/prices?limit=50", sandbox.RouteRPCList, "seller"},
		{"seller REST", "/return-boxes", sandbox.RouteReturnBoxes, "seller"},
	}
	r.Holds = true
	var parts []string
	for _, c := range cases {
		if st, _, err := u.Get(c.path); err != nil || st != http.StatusOK { // warm
			return r, fmt.Errorf("%s: %d %v", c.path, st, err)
		}
		e.Sandbox.ResetCounters()
		e.Sandbox.InjectFault(sandbox.Fault{Route: c.route, Kind: sandbox.FaultUnauthorized, Times: 1})
		st, _, err := u.Get(c.path)
		if err != nil {
			return r, err
		}
		cn := e.Sandbox.Counters()
		tokens := cn.TokensIssued["b2b/test"] + cn.TokensIssued["b2b/production"] + cn.TokensIssued["seller"]
		calls := cn.Requests[c.route]
		ok := st == http.StatusOK && tokens == 1 && cn.TokensIssued[c.token] == 1 && calls == 2
		r.Holds = r.Holds && ok
		parts = append(parts, fmt.Sprintf("%s %d token + %d calls", c.name, tokens, calls))
		r.Detail = append(r.Detail, fmt.Sprintf("%s (%s, route %s): page status %d, tokens issued %d (%s), requests to the route %d (the 401 + 1 retry)",
			c.name, c.path, c.route, st, tokens, c.token, calls))
	}
	r.Figure = fmt.Sprint(parts)
	return r, nil
}

// ---- P4: a 10,000-row price update ----
