package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/sandbox"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines and the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var originRE = regexp.MustCompile(`\{b2b_base_url\}\s+(http://127\.0\.0\.1:\d+)`)

func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-admin", "-seed", "7", "-token-ttl", "2m", "-price-apply-delay", "5s"}, out)
	}()

	var origin string
	deadline := time.Now().Add(10 * time.Second)
	for origin == "" {
		if m := originRE.FindStringSubmatch(out.String()); m != nil {
			origin = m[1]
			break
		}
		select {
		case err := <-done:
			t.Fatalf("run returned early: %v\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no banner:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	banner := out.String()
	for _, want := range []string{origin + "/test", origin + "/_sandbox/", "demo-1001", "sandbox-secret-1001", "demo-1002", "sandbox-secret-1002", "test-1003", "sandbox-secret-1003", "no (400)"} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}

	resp, err := http.Post(origin+"/test/auth/token", "application/json",
		strings.NewReader(`{"client_id":"test-1003","client_secret":"sandbox-secret-1003","grant_type":"client_credentials"}`))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	err = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || tok.ExpiresIn != 120 {
		t.Fatalf("token: %d %v %+v", resp.StatusCode, err, tok)
	}
	resp, err = http.Get(origin + "/_sandbox/counters")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"b2b/test":1`) {
		t.Fatalf("counters: %d %s", resp.StatusCode, body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no shutdown after cancel")
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("no shutdown log:\n%s", out.String())
	}
	if strings.Contains(out.String(), tok.AccessToken) {
		t.Error("a token reached the log")
	}
	if _, err := http.Get(origin + "/"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestRunFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-nope"}, "flag provided but not defined"},
		{[]string{"-token-ttl", "0s"}, "durations must be positive"},
		{[]string{"extra"}, "unexpected arguments"},
		{[]string{"-products", "-1"}, fmt.Sprintf("want 0 (the default) to %d", sandbox.MaxProductsPerSeller)},
		{[]string{"-products", strconv.Itoa(sandbox.MaxProductsPerSeller + 1)}, fmt.Sprintf("want 0 (the default) to %d", sandbox.MaxProductsPerSeller)},
		{[]string{"-sellers", "2"}, "want 0 (the default 3) or 3 to 99"},
		{[]string{"-sellers", "100"}, "want 0 (the default 3) or 3 to 99"},
		{[]string{"-addr", "256.0.0.1:99999"}, "listen"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			err := run(context.Background(), tc.args, &out)
			if err == nil || !strings.Contains(err.Error()+out.String(), tc.want) {
				t.Fatalf("err = %v, out = %s", err, out.String())
			}
		})
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &out); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-price-apply-delay") {
		t.Fatalf("-h: %v %s", err, out.String())
	}
}

// TestProductsFlag: -products N gives every seller N products, each in the
// three warehouses.
func TestProductsFlag(t *testing.T) {
	cfg, err := parseFlags([]string{"-products", "1500"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sb := sandbox.New(sandboxOptions(cfg, slog.New(slog.DiscardHandler)))
	if n := len(sb.Products(1002)) * len(sb.Warehouses(1002)); n != 4500 {
		t.Fatalf("%d records, want 4500", n)
	}
	var out bytes.Buffer
	printBanner(&out, "http://127.0.0.1:1", cfg, sb.Credentials())
	if !strings.Contains(out.String(), "1500 products per seller, 4500 nomenclature records each") {
		t.Errorf("banner:\n%s", out.String())
	}
}

// TestSellersFlag: -sellers N seeds N sellers, and the banner lists the
// credentials of each.
func TestSellersFlag(t *testing.T) {
	cfg, err := parseFlags([]string{"-sellers", "5"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sb := sandbox.New(sandboxOptions(cfg, slog.New(slog.DiscardHandler)))
	if len(sb.Products(1005)) == 0 || len(sb.Products(1006)) != 0 {
		t.Fatalf("sellers 1005 and 1006: %d and %d products, want some and none", len(sb.Products(1005)), len(sb.Products(1006)))
	}
	var out bytes.Buffer
	printBanner(&out, "http://127.0.0.1:1", cfg, sb.Credentials())
	for _, want := range []string{"demo-1001", "test-1003", "demo-1005  sandbox-secret-1005"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the banner lacks %q:\n%s", want, out.String())
		}
	}
}
