package apiclient_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

const (
	canarySecret  = "CANARY-SECRET-7f3a9c"
	canaryToken   = "CANARY-TOKEN-"
	canaryRefresh = "CANARY-REFRESH-"
)

// TestCanarySecrets sends a canary secret and canary tokens through every
// path, with a server that echoes them back wherever it can, and checks that
// no error message, formatted value or log line contains them.
func TestCanarySecrets(t *testing.T) {
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))

	var mode string
	var modeMu sync.Mutex
	setMode := func(s string) { modeMu.Lock(); mode = s; modeMu.Unlock() }
	getMode := func() string { modeMu.Lock(); defer modeMu.Unlock(); return mode }

	m := newMarket()
	m.issue = func(kind string, n int64) string { return fmt.Sprintf("%s%s-%d", canaryToken, kind, n) }
	echo := func(r *http.Request) string {
		b, _ := io.ReadAll(r.Body)
		return strings.NewReplacer(`"`, `'`).Replace(string(b)) + " " + r.Header.Get("Authorization")
	}
	m.b2b = func(w http.ResponseWriter, r *http.Request) {
		tok := bearer(r)
		switch getMode() {
		case "401":
			writeJSON(w, 401, fmt.Sprintf(`{"code":0,"description":"invalid token %s","errors":[]}`, tok))
		case "400":
			writeJSON(w, 400, fmt.Sprintf(`{"code":0,"description":"bad %s","errors":[{"field":"limit","message":"token %s secret %s"}],"message":%q}`, tok, tok, canarySecret, echo(r)))
		case "429":
			writeJSON(w, 429, fmt.Sprintf(`{"code":0,"description":"Rate limit has been reached","errors":[],"message":"%s"}`, tok))
		case "500":
			writeJSON(w, 500, fmt.Sprintf(`{"code":32603,"message":"%s","description":"%s","errors":["%s"]}`, tok, canarySecret, tok))
		case "html":
			w.Header().Set("Content-Type", "text/html; token="+tok)
			w.WriteHeader(502)
			fmt.Fprintf(w, "<html>%s %s</html>", tok, canarySecret)
		case "reset":
			closeAfterRead(w, r)
		}
	}
	m.rpc = func(w http.ResponseWriter, r *http.Request, req rpcReq) {
		tok := bearer(r)
		switch getMode() {
		case "401":
			rpcError(w, req.ID, 401, "expired "+tok, fmt.Sprintf(`{"token":%q}`, tok))
		case "400":
			rpcError(w, req.ID, -32602, "Invalid params "+tok, fmt.Sprintf(`{"param":"limit","reason":%q}`, tok+" "+canarySecret))
		default:
			rpcResult(w, "other-"+tok, `{}`)
		}
	}
	m.rest = func(w http.ResponseWriter, r *http.Request) {
		tok := bearer(r)
		writeJSON(w, 400, fmt.Sprintf(`{"error":{"code":"VALIDATION_FAILED","message":"%s","details":[{"field":"status","issue":"%s %s"}]}}`, tok, tok, canarySecret))
	}
	srv := newServer(t, m)
	c, err := apiclient.New(apiclient.Options{B2BBaseURL: srv, B2BTestBaseURL: srv + "/test", SellerBaseURL: srv, Logger: logger, RetryBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	creds := apiclient.Credentials{ClientID: "client-1", ClientSecret: canarySecret, Environment: apiclient.Test}
	acct := c.Account(creds, nil)
	ctx := context.Background()

	var texts []string
	record := func(err error) {
		if err == nil {
			t.Errorf("mode %s: no error", getMode())
			return
		}
		texts = append(texts, err.Error(), fmt.Sprintf("%v|%+v|%#v|%s|%q", err, err, err, err, err))
		for _, fe := range apiclient.FieldErrors(err) {
			texts = append(texts, fe.Field+" "+fe.Message)
		}
		logger.Error("call failed", "err", err)
	}

	// token endpoints rejecting the pair, echoing the secret back
	m.tokenStatus = 400
	m.tokenBody = fmt.Sprintf(`{"code":0,"description":"bad secret %s","errors":[{"field":"client_secret","message":"%s is wrong"}]}`, canarySecret, canarySecret)
	m.sellerTokenError = fmt.Sprintf(`{"code":401,"message":"bad secret %s","data":{"client_secret":%q}}`, canarySecret, canarySecret)
	record(acct.Login(ctx))
	m.tokenStatus = 500
	m.tokenBody = fmt.Sprintf(`<html>%s</html>`, canarySecret)
	record(acct.Login(ctx))
	m.tokenStatus, m.tokenBody, m.sellerTokenError = 0, "", ""
	m.refresh(canaryRefresh)
	if err := acct.Login(ctx); err != nil {
		t.Fatal(err)
	}

	for _, mode := range []string{"401", "400", "429", "500", "html", "reset"} {
		setMode(mode)
		_, err := acct.B2B.ListOrders(ctx, nil)
		record(err)
		_, err = acct.B2B.ResendNotifications(ctx, &apiclient.ResendRequest{OrderNrs: []string{"RU1"}})
		record(err)
		_, err = acct.B2B.GiftCertificate(ctx, "CODE")
		record(err)
	}
	for _, mode := range []string{"401", "400", "mismatch"} {
		setMode(mode)
		_, err := acct.Seller.ListNomenclatures(ctx, &apiclient.ListNomenclaturesRequest{SellerID: 1})
		record(err)
		_, err = acct.Seller.SetPrices(ctx, &apiclient.SetPricesRequest{})
		record(err)
	}
	_, err = acct.ReturnBoxes.List(ctx, &apiclient.ListReturnBoxesOptions{SellerID: 1})
	record(err)

	// formatted values
	tok, err := acct.Token(ctx, apiclient.KindB2B)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok.AccessToken, canaryToken) || !strings.HasPrefix(tok.RefreshToken, canaryRefresh) {
		t.Fatalf("test setup: token %q", tok.AccessToken)
	}
	for _, v := range []any{creds, &creds, tok, &tok, acct, *acct, c, acct.TokenKey(apiclient.KindB2B), acct.B2B, *acct.B2B} {
		texts = append(texts, fmt.Sprintf("%v|%+v|%#v|%s", v, v, v, v))
		logger.Info("value", "v", v)
	}
	logger.Info("values", "creds", creds, "token", tok, "account", acct)
	logger.Info("group", slog.Any("creds", creds), slog.Any("token", tok))

	logMu.Lock()
	texts = append(texts, logs.String())
	logMu.Unlock()
	if !strings.Contains(logs.String(), "apiclient request") {
		t.Error("no request was logged")
	}
	for _, s := range texts {
		for _, canary := range []string{canarySecret, canaryToken, canaryRefresh} {
			if strings.Contains(s, canary) {
				t.Errorf("canary %q leaked in:\n%s", canary, s)
			}
		}
	}
}

// refresh makes the B2B token endpoint issue refresh tokens with prefix.
func (m *market) refresh(prefix string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.refreshPrefix = prefix
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
