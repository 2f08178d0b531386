package massupdate

import (
	"context"
	"errors"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestSubmitForm: nothing is sent while a row is invalid, when only held
// rows changed or when nothing changed; a send is recorded before the
// outcome, done only when every row was accepted, with nothing held and
// no finding; check's and send's errors come back.
func TestSubmitForm(t *testing.T) {
	ctx := context.Background()
	rows := []PriceInput{{SKU: "A", OrigPrice: "100", Price: "101"}, {SKU: "B", OrigPrice: "100", Price: "100"}}
	sends, records := 0, 0
	send := func(rep *Report) func(context.Context, []apiclient.PriceUpdate) (*Report, error) {
		return func(context.Context, []apiclient.PriceUpdate) (*Report, error) { sends++; return rep, nil }
	}
	record := func(f FormSubmit[PriceInput, apiclient.PriceUpdate]) {
		records++
		if f.Report == nil || len(f.Keys) != 1 || f.Keys[0] != "A" {
			t.Errorf("recorded %+v", f)
		}
	}
	check := func(c Checked[PriceInput, apiclient.PriceUpdate]) func([]PriceInput) (Checked[PriceInput, apiclient.PriceUpdate], error) {
		return func([]PriceInput) (Checked[PriceInput, apiclient.PriceUpdate], error) { return c, nil }
	}
	checked := CheckPrices(rows)
	done := &Report{Outcomes: map[string]Outcome{"A": {State: Accepted}}, Accepted: 1}
	f, err := SubmitForm(ctx, rows, check(checked), send(done), Prices.Key, record)
	if err != nil || f.Outcome != FormDone || f.Unchanged != 1 || sends != 1 || records != 1 {
		t.Fatalf("done: %+v, %v", f, err)
	}
	if d := f.Done(1, func(in PriceInput) (string, string) { return in.OrigPrice, in.Price }); len(d) != 1 || d["A"][0] != "100" || d["A"][1] != "101" {
		t.Fatalf("done rows %v", d)
	}
	if d := f.Done(0, func(PriceInput) (string, string) { return "", "" }); len(d) != 0 {
		t.Fatalf("done rows beyond the limit %v", d)
	}
	refused := &Report{Outcomes: map[string]Outcome{"A": {State: Rejected}}, Rejected: 1}
	if f, _ := SubmitForm(ctx, rows, check(checked), send(refused), Prices.Key, record); f.Outcome != FormAnswered {
		t.Fatalf("refused: %v", f.Outcome)
	}
	bad := checked
	bad.Invalid = map[string]map[string]i18n.Msgs{"A": {}}
	if f, _ := SubmitForm(ctx, rows, check(bad), send(done), Prices.Key, record); f.Outcome != FormInvalid || f.Report != nil {
		t.Fatalf("invalid: %+v", f)
	}
	held := HoldPrices(CheckPrices([]PriceInput{{SKU: "A", OrigPrice: "100", Price: "200"}}), 20, nil)
	if f, _ := SubmitForm(ctx, rows, check(held), send(done), Prices.Key, record); f.Outcome != FormHeld || f.Held != 1 {
		t.Fatalf("held: %+v", f)
	}
	if f, _ := SubmitForm(ctx, rows, check(CheckPrices(rows[1:])), send(done), Prices.Key, record); f.Outcome != FormUnchanged {
		t.Fatalf("unchanged: %+v", f)
	}
	if sends != 2 || records != 2 {
		t.Fatalf("%d sends, %d records; want 2, 2", sends, records)
	}
	boom := errors.New("boom")
	failing := func(context.Context, []apiclient.PriceUpdate) (*Report, error) { return nil, boom }
	if _, err := SubmitForm(ctx, rows, check(checked), failing, Prices.Key, record); !errors.Is(err, boom) || records != 2 {
		t.Fatalf("send failed: %v, %d records", err, records)
	}
}
