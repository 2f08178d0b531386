package resend

import (
	"net/url"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
)

// drafts is a session's drafts, in memory.
type drafts map[string]url.Values

func (d drafts) Draft(name string) url.Values { return d[name] }
func (d drafts) SetDraft(name string, v url.Values) bool {
	d[name] = v
	return true
}
func (d drafts) PopDraft(name string) url.Values {
	v := d[name]
	delete(d, name)
	return v
}

// TestSaveLoad: states worth keeping come back from the draft; once none
// is (its time passed), the draft is dropped.
func TestSaveLoad(t *testing.T) {
	now := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	d := drafts{}
	s := States{}
	s.Queued("1001", now, now.Add(time.Minute), []string{"sms"}, 1)
	Save(d, s, now)
	if len(d) != 1 {
		t.Fatalf("drafts after a save %v", d)
	}
	back := Load(d)
	if !back.BusyUntil("1001").Equal(now.Add(time.Minute)) {
		t.Errorf("loaded busy until %v", back.BusyUntil("1001"))
	}
	Save(d, back, now.Add(48*time.Hour))
	if len(d) != 0 {
		t.Errorf("a draft with nothing worth keeping is kept: %v", d)
	}
}

// TestEntry: the audit entry has one item per selected order with what
// became of it; a refusal keeps the words it was given, the kinds queued
// are the item's new value.
func TestEntry(t *testing.T) {
	r := &Run{Selected: []string{"1", "2", "3", "4", "5"}, Queued: map[string][]string{"1": nil},
		Empty: []string{"2"}, Busy: []string{"3"}, Unsent: []string{"4"}, Failure: FailureForeignOrder}
	e := Entry(r, "not yours")
	if e.Kind != audit.KindResend || len(e.Items) != 5 {
		t.Fatalf("entry %+v", e)
	}
	want := []string{audit.Queued, audit.Accepted, audit.Busy, audit.Refused, audit.Unsent}
	for i, it := range e.Items {
		if it.Key != r.Selected[i] || string(it.Outcome) != want[i] {
			t.Errorf("item %d: %s %s, want %s %s", i, it.Key, it.Outcome, r.Selected[i], want[i])
		}
	}
	if got := e.Items[3].Message; len(got) != 1 || got[0].Text != "not yours" {
		t.Errorf("refusal message %+v", got)
	}
	if got := e.Items[0].New; len(got) != 1 || got[0].Key != "orders.kinds_not_listed" {
		t.Errorf("queued kinds %+v", got)
	}
}
