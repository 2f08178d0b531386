package apiclient

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// The fuzz targets feed the parsers of marketplace and user input: none may
// panic, each must return a typed value or a typed error, and no error
// string may quote a secret the request carried.

func FuzzParseMoney(f *testing.F) {
	for _, s := range []string{"", "0", "-1", "1299.50", "12,50", "1 299,50", "1e309", "NaN", "Inf", "١٢٣",
		"99999999999999999999", "92233720368547758.07", "-92233720368547758.08", "1.234", ".5", "5.", "1,299", " 7 ", "\u00a01\u202f000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMoney(s)
		if err != nil {
			if !errors.Is(err, ErrMoneyEmpty) && !errors.Is(err, ErrMoneyFormat) && !errors.Is(err, ErrMoneyPrecision) && !errors.Is(err, ErrMoneyRange) {
				t.Fatalf("ParseMoney(%q): untyped error %v", s, err)
			}
			return
		}
		back, err := ParseMoney(m.Decimal())
		if err != nil || back != m {
			t.Fatalf("ParseMoney(%q) = %d, but its Decimal %q reads as %d (%v)", s, m, m.Decimal(), back, err)
		}
	})
}

func FuzzMoneyJSON(f *testing.F) {
	for _, s := range []string{`0`, `"1299.50"`, `1299.5`, `null`, `"abc"`, `1e309`, `-0`, `"12,50"`, `{}`, `[]`, `true`, `123456789012345678901234567890`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Money
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal %d: %v", m, err)
		}
		var back Money
		if err := json.Unmarshal(out, &back); err != nil || back != m {
			t.Fatalf("%s -> %d -> %s -> %d (%v)", b, m, out, back, err)
		}
	})
}

const fuzzSecret = "FUZZ-SECRET-c4n4ry"

func fuzzResponse(status int, ct string, body []byte) *response {
	return &response{op: "fuzz", status: status, header: http.Header{}, body: scrubBytes(body, []string{fuzzSecret}), requestID: "rid", contentType: ct}
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("an error body decoded to no error")
	}
	if strings.Contains(err.Error(), fuzzSecret) {
		t.Fatalf("error string quotes the secret: %q", err.Error())
	}
}

func addErrorSeeds(f *testing.F) {
	seeds := []string{
		`{"code":0,"description":"Rate limit has been reached","errors":[],"message":""}`,
		`{"code":400,"description":"bad","errors":[{"field":"limit","message":"too big"}]}`,
		`{"code":404,"message":"not found","description":"x","errors":["gift certificate not found"]}`,
		`{"error":{"code":"VALIDATION_FAILED","message":"m","details":[{"field":"status","issue":"bad"}]}}`,
		`{"jsonrpc":"2.0","id":"ID","error":{"code":-32602,"message":"Invalid params","data":{"param":"limit"}}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":"other","result":{}}`,
		`{"jsonrpc":"2.0","id":"ID","result":{"items":[]}}`,
		`<html><body>502 Bad Gateway</body></html>`, ``, `{`, `[]`, `null`, `{"code":"x"}`,
		`{"errors":[1,"a",{"field":1}],"code":1e400}`, `{"description":"FUZZ-SECRET-c4n4ry"}`,
	}
	for i, s := range seeds {
		ct := "application/json"
		if strings.HasPrefix(s, "<") {
			ct = "text/html"
		}
		f.Add(400+i%200, ct, []byte(s))
	}
}

func FuzzB2BErrorBody(f *testing.F) {
	addErrorSeeds(f)
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte) {
		checkErr(t, b2bErrorBody(fuzzResponse(status, ct, body)))
		checkErr(t, giftErrorBody(fuzzResponse(status, ct, body)))
	})
}

func FuzzRESTErrorBody(f *testing.F) {
	addErrorSeeds(f)
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte) {
		checkErr(t, restErrorBody(fuzzResponse(status, ct, body)))
	})
}

func FuzzRPCEnvelope(f *testing.F) {
	addErrorSeeds(f)
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte) {
		w, err := decodeRPCEnvelope(fuzzResponse(status, ct, body), "ID", "v1.nomenclatures.list", nil)
		if err != nil {
			checkErr(t, err)
			return
		}
		// Accepted only as a result for our id.
		var id string
		if json.Unmarshal(w.ID, &id) != nil || id != "ID" || w.Error != nil {
			t.Fatalf("accepted an envelope that is not our result: %s", body)
		}
	})
}

func FuzzItemError(f *testing.F) {
	for _, s := range []string{`{"warehouse_code":"W1","barcode":"460","code":404,"messages":["unknown"]}`,
		`{"marketplaceSku":"MP1","code":400,"message":"bad"}`, `{"error":{"code":7,"message":"x"}}`, `{}`, `[]`, `"x"`, `{"code":"1"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e ItemError
		_ = json.Unmarshal(b, &e)
		_ = e.Message()
	})
}
