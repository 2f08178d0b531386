package apiclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sellerdesk/sellerdesk/apiclient"
)

// rateLimited answers 429 (or status) for the first n requests, then 200.
func rateLimited(status, n int, retryAfter func() string, ok string) (http.HandlerFunc, *[]time.Time) {
	var mu sync.Mutex
	var times []time.Time
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		k := len(times)
		mu.Unlock()
		if n < 0 || k <= n {
			if retryAfter != nil {
				if v := retryAfter(); v != "" {
					w.Header().Set("Retry-After", v)
				}
			}
			if strings.HasPrefix(r.URL.Path, "/api/v2/") {
				writeJSON(w, status, `{"error":{"code":"SERVICE_UNAVAILABLE","message":"try later"}}`)
			} else {
				writeJSON(w, status, `{"code":0,"description":"Rate limit has been reached","errors":[],"message":"too many"}`)
			}
			return
		}
		writeJSON(w, 200, ok)
	}, &times
}

func gaps(times []time.Time) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(times); i++ {
		out = append(out, times[i].Sub(times[i-1]))
	}
	return out
}

func TestBackoffSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMarket()
		h, times := rateLimited(429, -1, nil, "")
		m.b2b = h
		acct := inMemory(t, m, withBudget(10*time.Minute))
		var events []apiclient.RetryEvent
		ctx := apiclient.WithRetryObserver(context.Background(), func(e apiclient.RetryEvent) { events = append(events, e) })
		start := time.Now()
		_, err := acct.B2B.ListOrders(ctx, nil)
		s := time.Second
		// 1+2+4+8+16+32+60+60+60+60+60+60+60+60 = 543 s; the next 60 s
		// would pass the 600 s budget.
		wantGaps := []time.Duration{1 * s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s, 60 * s, 60 * s, 60 * s, 60 * s, 60 * s, 60 * s}
		if d := cmp.Diff(wantGaps, gaps(*times)); d != "" {
			t.Errorf("gaps between attempts (-want +got):\n%s", d)
		}
		for i, e := range events {
			if e.Attempt != i+1 || e.Wait != wantGaps[i] || e.Status != 429 {
				t.Errorf("event %d = %+v", i, e)
			}
		}
		var rl *apiclient.RateLimitError
		if !errors.As(err, &rl) || !errors.Is(err, apiclient.ErrRateLimited) {
			t.Fatalf("err = %v, want *RateLimitError", err)
		}
		if rl.Attempts != 15 || rl.Status != 429 {
			t.Errorf("Attempts = %d, Status = %d", rl.Attempts, rl.Status)
		}
		if want := start.Add(543*s + 60*s); !rl.RetryAt.Equal(want) {
			t.Errorf("RetryAt = %v, want %v", rl.RetryAt, want)
		}
		var be *apiclient.B2BError
		if !errors.As(err, &be) || be.Message != "too many" {
			t.Errorf("last body not kept: %v", err)
		}
	})
}

func TestRetryAfter(t *testing.T) {
	s := time.Second
	tests := []struct {
		name       string
		retryAfter func() string
		want       []time.Duration
	}{
		{name: "seconds lengthen", retryAfter: func() string { return "5" }, want: []time.Duration{5 * s, 5 * s}},
		{name: "seconds never shorten", retryAfter: func() string { return "0" }, want: []time.Duration{1 * s, 2 * s}},
		{name: "garbage ignored", retryAfter: func() string { return "soon" }, want: []time.Duration{1 * s, 2 * s}},
		{name: "http date", retryAfter: func() string {
			return time.Now().Add(7 * s).UTC().Format(http.TimeFormat)
		}, want: []time.Duration{7 * s, 7 * s}},
		{name: "http date in the past", retryAfter: func() string {
			return time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
		}, want: []time.Duration{1 * s, 2 * s}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := newMarket()
				h, times := rateLimited(429, 2, tt.retryAfter, emptyOrders)
				m.b2b = h
				acct := inMemory(t, m)
				if _, err := acct.B2B.ListOrders(context.Background(), nil); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(tt.want, gaps(*times)); d != "" {
					t.Errorf("gaps (-want +got):\n%s", d)
				}
			})
		})
	}
}

func TestRetryBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMarket()
		h, times := rateLimited(429, -1, func() string { return "20" }, "")
		m.b2b = h
		acct := inMemory(t, m) // default budget 30 s
		start := time.Now()
		_, err := acct.B2B.ListOrders(context.Background(), nil)
		var rl *apiclient.RateLimitError
		if !errors.As(err, &rl) {
			t.Fatalf("err = %v", err)
		}
		// waits 20 s once; the second 20 s would exceed 30 s
		if rl.Attempts != 2 || len(*times) != 2 || !rl.RetryAt.Equal(start.Add(40*time.Second)) {
			t.Errorf("attempts %d, requests %d, RetryAt %v (start %v)", rl.Attempts, len(*times), rl.RetryAt, start)
		}
		if !strings.Contains(err.Error(), "retry at") {
			t.Errorf("message %q", err)
		}
	})
	t.Run("per call override to zero", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m := newMarket()
			h, times := rateLimited(429, -1, nil, "")
			m.b2b = h
			acct := inMemory(t, m)
			start := time.Now()
			_, err := acct.B2B.ListOrders(apiclient.WithRetryBudget(context.Background(), 0), nil)
			var rl *apiclient.RateLimitError
			if !errors.As(err, &rl) || rl.Attempts != 1 || len(*times) != 1 || !rl.RetryAt.Equal(start.Add(time.Second)) {
				t.Errorf("err = %v", err)
			}
		})
	})
	t.Run("context deadline bounds the wait", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m := newMarket()
			h, times := rateLimited(429, -1, nil, "")
			m.b2b = h
			acct := inMemory(t, m)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := acct.B2B.ListOrders(ctx, nil)
			// waits 1 s and 2 s; 4 s more would pass the deadline
			var rl *apiclient.RateLimitError
			if !errors.As(err, &rl) || len(*times) != 3 {
				t.Errorf("err = %v, requests %d", err, len(*times))
			}
		})
	})
	t.Run("cancel while waiting", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m := newMarket()
			h, _ := rateLimited(429, -1, func() string { return "10" }, "")
			m.b2b = h
			acct := inMemory(t, m)
			ctx, cancel := context.WithCancel(context.Background())
			go func() { time.Sleep(3 * time.Second); cancel() }()
			_, err := acct.B2B.ListOrders(ctx, nil)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v", err)
			}
		})
	})
}

func TestServiceUnavailableReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMarket()
		h, times := rateLimited(503, 3, nil, `{"data":[{"code":"B-1","status":"shipped"}],"pagination":{"page":1,"limit":20,"pages":1,"total":1}}`)
		m.rest = h
		acct := inMemory(t, m)
		l, err := acct.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Boxes) != 1 || len(*times) != 4 {
			t.Errorf("boxes %d, requests %d", len(l.Boxes), len(*times))
		}
		s := time.Second
		if d := cmp.Diff([]time.Duration{s, 2 * s, 4 * s}, gaps(*times)); d != "" {
			t.Errorf("gaps (-want +got):\n%s", d)
		}
	})
	t.Run("exhausted", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			m := newMarket()
			h, _ := rateLimited(503, -1, nil, "")
			m.rest = h
			acct := inMemory(t, m, withBudget(3*time.Second))
			_, err := acct.ReturnBoxes.List(context.Background(), &apiclient.ListReturnBoxesOptions{SellerID: 1})
			var re *apiclient.RESTError
			if !errors.Is(err, apiclient.ErrUnavailable) || errors.Is(err, apiclient.ErrRateLimited) || !errors.As(err, &re) {
				t.Errorf("err = %v", err)
			}
		})
	})
}

func TestWritesRetryOnlyUnprocessedAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMarket()
		var calls int
		m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
			calls++
			if calls <= 2 {
				writeJSON(w, 429, `{"jsonrpc":"2.0","id":"`+req.ID+`","error":{"code":429,"message":"Too many requests"}}`)
				return
			}
			rpcResult(w, req.ID, `{"updated":1,"error_count":0,"errors":[]}`)
		}
		acct := inMemory(t, m)
		res, err := acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: "X", Price: 100}}})
		if err != nil || res.Updated != 1 || calls != 3 {
			t.Errorf("res %+v, err %v, calls %d", res, err, calls)
		}
	})
}

func TestResendIsNeverRetried(t *testing.T) {
	m := newMarket()
	var calls int
	m.b2b = func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.Header().Set("Retry-After", "3")
		writeJSON(w, 429, `{"code":0,"description":"Rate limit has been reached","errors":[],"message":"Notifications for RU1 are already being processed"}`)
	}
	acct, _ := serve(t, m)
	before := time.Now()
	_, err := acct.B2B.ResendNotifications(context.Background(), &apiclient.ResendRequest{OrderNrs: []string{"RU1"}})
	var rl *apiclient.RateLimitError
	if !errors.As(err, &rl) || !errors.Is(err, apiclient.ErrRateLimited) {
		t.Fatalf("err = %v", err)
	}
	if calls != 1 || rl.Attempts != 1 {
		t.Errorf("calls %d, attempts %d", calls, rl.Attempts)
	}
	if rl.RetryAt.Before(before.Add(3 * time.Second)) {
		t.Errorf("RetryAt %v ignores Retry-After", rl.RetryAt)
	}
	var be *apiclient.B2BError
	if !errors.As(err, &be) || be.Message != "Notifications for RU1 are already being processed" ||
		!strings.Contains(err.Error(), "already being processed") {
		t.Errorf("message lost: %v", err)
	}
}

// closeAfterRead reads the request and drops the connection without an answer.
func closeAfterRead(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

func TestOutcomeUnknownWrites(t *testing.T) {
	tests := []struct {
		name string
		call func(a *apiclient.Account) error
	}{
		{"set prices", func(a *apiclient.Account) error {
			_, err := a.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{Prices: []apiclient.PriceUpdate{{MarketplaceSKU: "X", Price: 100}}})
			return err
		}},
		{"store", func(a *apiclient.Account) error {
			_, err := a.Seller.StoreNomenclatures(context.Background(), &apiclient.StoreRequest{SellerID: 1})
			return err
		}},
		{"resend", func(a *apiclient.Account) error {
			_, err := a.B2B.ResendNotifications(context.Background(), &apiclient.ResendRequest{OrderNrs: []string{"RU1"}})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMarket()
			m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) { closeAfterRead(w, r) }
			m.b2b = closeAfterRead
			acct, _ := serve(t, m)
			err := tt.call(acct)
			if !errors.Is(err, apiclient.ErrOutcomeUnknown) {
				t.Fatalf("err = %v, want ErrOutcomeUnknown", err)
			}
			if n := m.apiCalls.Load(); n != 1 {
				t.Errorf("write sent %d times, want 1", n)
			}
		})
	}
	t.Run("gateway timeout", func(t *testing.T) {
		m := newMarket()
		m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(504)
			io.WriteString(w, "<html>gateway timeout</html>")
		}
		acct, _ := serve(t, m)
		_, err := acct.Seller.SetPrices(context.Background(), &apiclient.SetPricesRequest{})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) || !errors.Is(err, apiclient.ErrUnexpectedResponse) || m.apiCalls.Load() != 1 {
			t.Errorf("err = %v, calls %d", err, m.apiCalls.Load())
		}
	})
	t.Run("timeout after sending", func(t *testing.T) {
		m := newMarket()
		release := make(chan struct{})
		m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) { <-release }
		acct, _ := serve(t, m)
		defer close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{})
		if !errors.Is(err, apiclient.ErrOutcomeUnknown) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("reads are not outcome unknown", func(t *testing.T) {
		m := newMarket()
		m.b2b = closeAfterRead
		acct, _ := serve(t, m)
		_, err := acct.B2B.ListOrders(context.Background(), nil)
		if err == nil || errors.Is(err, apiclient.ErrOutcomeUnknown) {
			t.Errorf("err = %v", err)
		}
	})
}
