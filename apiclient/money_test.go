package apiclient_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

func TestParseMoney(t *testing.T) {
	tests := []struct {
		in   string
		want apiclient.Money
		err  error
	}{
		{"1299", 129900, nil},
		{"1299.5", 129950, nil},
		{"1299.50", 129950, nil},
		{"1299,5", 129950, nil},
		{"1 299,50", 129950, nil},
		{"1\u00a0299.50", 129950, nil},
		{"1\u202f234\u202f567.01", 123456701, nil},
		{"  12 345.6 ", 1234560, nil},
		{"0.05", 5, nil},
		{"-3.10", -310, nil},
		{"0", 0, nil},
		{"92233720368547758.07", 9223372036854775807, nil},
		{"", 0, apiclient.ErrMoneyEmpty},
		{"   ", 0, apiclient.ErrMoneyEmpty},
		{"abc", 0, apiclient.ErrMoneyFormat},
		{"1e3", 0, apiclient.ErrMoneyFormat},
		{"NaN", 0, apiclient.ErrMoneyFormat},
		{"Inf", 0, apiclient.ErrMoneyFormat},
		{"+5", 0, apiclient.ErrMoneyFormat},
		{"--5", 0, apiclient.ErrMoneyFormat},
		{"5.", 0, apiclient.ErrMoneyFormat},
		{".5", 0, apiclient.ErrMoneyFormat},
		{"1.2.3", 0, apiclient.ErrMoneyFormat},
		{"1.299,50", 0, apiclient.ErrMoneyFormat},
		{"12 34", 0, apiclient.ErrMoneyFormat},
		{"1234 567", 0, apiclient.ErrMoneyFormat},
		{"1  234", 0, apiclient.ErrMoneyFormat},
		{"١٢٣", 0, apiclient.ErrMoneyFormat},
		{"１２３", 0, apiclient.ErrMoneyFormat},
		{"100 ₽", 0, apiclient.ErrMoneyFormat},
		{"1.234", 0, apiclient.ErrMoneyPrecision},
		{"1,299", 0, apiclient.ErrMoneyPrecision},
		{"1.500", 0, apiclient.ErrMoneyPrecision},
		{"92233720368547758.08", 0, apiclient.ErrMoneyRange},
		{"99999999999999999999999", 0, apiclient.ErrMoneyRange},
	}
	for _, tt := range tests {
		got, err := apiclient.ParseMoney(tt.in)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("ParseMoney(%q) = %d, %v; want %d, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if apiclient.ErrMoneyFormat.Error() != "must be a number" || apiclient.ErrMoneyPrecision.Error() != "at most 2 decimals" {
		t.Error("form messages changed")
	}
}

func TestMoneyJSON(t *testing.T) {
	tests := []struct {
		in   string
		want apiclient.Money
		ok   bool
	}{
		{`1299`, 129900, true},
		{`1299.5`, 129950, true},
		{`1299.50`, 129950, true},
		{`"1234.00"`, 123400, true},
		{`"0.99"`, 99, true},
		{`1299.500`, 129950, true},
		{`-0.01`, -1, true},
		{`0.1`, 10, true},
		{`1e3`, 0, false},
		{`"abc"`, 0, false},
		{`""`, 0, false},
		{`1.005`, 0, false},
		{`true`, 0, false},
	}
	for _, tt := range tests {
		var m apiclient.Money
		err := json.Unmarshal([]byte(tt.in), &m)
		if (err == nil) != tt.ok || m != tt.want {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d, ok=%v", tt.in, m, err, tt.want, tt.ok)
		}
	}
	var p struct{ M *apiclient.Money }
	if err := json.Unmarshal([]byte(`{"M":null}`), &p); err != nil || p.M != nil {
		t.Errorf("null: %v %v", p.M, err)
	}
	for m, want := range map[apiclient.Money]string{129950: "1299.50", 5: "0.05", -310: "-3.10", 0: "0.00", 100000000: "1000000.00"} {
		b, err := json.Marshal(m)
		if err != nil || string(b) != want {
			t.Errorf("Marshal(%d) = %s, %v; want %s", m, b, err, want)
		}
	}
}

func TestMoneyString(t *testing.T) {
	for m, want := range map[apiclient.Money]string{
		123450:               "1 234.50",
		5:                    "0.05",
		-123456789:           "-1 234 567.89",
		99999:                "999.99",
		100000:               "1 000.00",
		-9223372036854775808: "-92 233 720 368 547 758.08",
	} {
		if got := m.String(); got != want {
			t.Errorf("Money(%d).String() = %q, want %q", int64(m), got, want)
		}
	}
	if got := apiclient.Money(123450).Decimal(); got != "1234.50" {
		t.Errorf("Decimal() = %q", got)
	}
	// ParseMoney reads back what String writes.
	for _, m := range []apiclient.Money{0, 1, 99, 100, 123456789, -5} {
		got, err := apiclient.ParseMoney(m.String())
		if err != nil || got != m {
			t.Errorf("round trip %d: %d, %v", m, got, err)
		}
	}
}
