package massupdate

import (
	"net/url"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// drafts is a session's drafts, in memory.
type drafts map[string]url.Values

func (d drafts) SetDraft(name string, v url.Values) bool {
	d[name] = v
	return true
}
func (d drafts) PopDraft(name string) url.Values {
	v := d[name]
	delete(d, name)
	return v
}

// TestHeldCards: only a card rejected with a warning finding is kept; it
// may be forced once, by the same account, at the price it was held at;
// another price, another account or a second submit does not force it.
func TestHeldCards(t *testing.T) {
	rows := []PriceInput{{SKU: "P1", OrigPrice: "100.00", Price: "40.00"}, {SKU: "P2", OrigPrice: "100.00", Price: "30.00"}}
	sent := CheckCards(rows, nil).Send
	rep := &Report{
		Outcomes: map[string]Outcome{"P1": {State: Rejected}, "P2": {State: Rejected}},
		Fraud: map[string][]apiclient.FraudValidation{
			"P1": {{Status: "warning", ChangedValue: "black_price"}},
			"P2": {{Status: "restriction", ChangedValue: "black_price"}},
		},
	}
	acct := HeldAccount("sandbox", 42)
	d := drafts{}
	KeepHeldCards(d, acct, rep, sent)
	held := PopHeldCards(d)
	if len(held) != 1 || held["P1"] == nil {
		t.Fatalf("held %v; want P1 alone", held)
	}
	if again := PopHeldCards(d); len(again) != 0 {
		t.Errorf("held twice: %v", again)
	}
	asked := map[string]bool{"P1": true, "P2": true}
	if got := held.Confirmed(acct, asked, rows); len(got) != 1 || !got["P1"] {
		t.Errorf("confirmed %v; want P1", got)
	}
	if got := held.Confirmed(HeldAccount("sandbox", 43), asked, rows); len(got) != 0 {
		t.Errorf("another account forces %v", got)
	}
	moved := []PriceInput{{SKU: "P1", OrigPrice: "100.00", Price: "41.00"}}
	if got := held.Confirmed(acct, asked, moved); len(got) != 0 {
		t.Errorf("another price forces %v", got)
	}
	forced := CheckCards(rows, held.Confirmed(acct, asked, rows)).Send
	if n := CountForced(forced); n != 1 {
		t.Errorf("forced %d; want 1", n)
	}
}
