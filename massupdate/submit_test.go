package massupdate

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// submitCase is a preview of price rows against a catalogue where every
// product costs 1 000,00, and the submit of it.
type submitCase struct {
	items []bulkjobs.Item
	cat   *Catalog
	asked Want
}

// row is a price row of the preview: its product, flag, the price it
// sends (kopecks) and what it says.
func (s *submitCase) row(sku, flag string, price int64, msgs ...i18n.Msg) {
	upd, _ := json.Marshal(apiclient.PriceUpdate{MarketplaceSKU: sku, Price: apiclient.Money(price)})
	cur, _ := json.Marshal(PriceNow{Price: 1000_00})
	s.items = append(s.items, bulkjobs.Item{Seq: len(s.items) + 1, Line: len(s.items) + 2, Key: sku, Flag: flag, Chunk: -1,
		Payload: string(upd), Current: string(cur), Message: i18n.Of(msgs...)})
	if s.cat == nil {
		s.cat = NewCatalog()
	}
	s.cat.Add(apiclient.Nomenclature{MarketplaceSKU: sku, WarehouseCode: "W", Barcode: sku, Price: 1000_00})
}

func (s *submitCase) submit(t *testing.T, conf Confirmations) (bulkjobs.Job, int) {
	t.Helper()
	job := bulkjobs.Job{ID: "j", Kind: "prices", State: bulkjobs.StatePreview, GuardPercent: 50, ChunkSize: 2}
	n, err := Submit(&job, s.items, conf, func(w Want) (*Catalog, error) {
		s.asked = w
		return s.cat, nil
	}, time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatalf("Submit: %v", err)
	}
	return job, n
}

// fate is a row's state and the key of its first message.
func fate(it bulkjobs.Item) string {
	if len(it.Message) == 0 {
		return it.State
	}
	return it.State + " " + it.Message[0].Key
}

var meanwhile = i18n.M("mass.changed_meanwhile", map[string]any{"Now": "1000.00", "File": "900.00"})

// TestSubmitRule: each kind of row of a preview, submitted without a
// confirmation, with "confirm all" and with each row confirmed on its
// own: "confirm all" sends the guarded rows but neither a row the
// marketplace's known rule refuses nor one that would undo a change
// made after its file was exported; only their own confirmation does;
// a row whose current value changed since the preview is held whatever
// was confirmed; rows with nothing to send are skipped.
func TestSubmitRule(t *testing.T) {
	build := func() *submitCase {
		s := &submitCase{}
		s.row("OK", bulkjobs.FlagOK, 900_00)
		s.row("SAME", bulkjobs.FlagUnchanged, 1000_00)
		s.row("BAD", bulkjobs.FlagInvalid, 0)
		s.row("GUARD", bulkjobs.FlagGuard, 300_00)
		s.row("DOOMED", bulkjobs.FlagGuard, 10_00)
		s.row("MEANWHILE", bulkjobs.FlagGuard, 900_00, meanwhile)
		s.row("MOVED", bulkjobs.FlagOK, 900_00)
		s.row("GONE", bulkjobs.FlagOK, 900_00)
		n := s.cat.BySKU["MOVED"]
		n.Price = 1100_00
		s.cat.BySKU["MOVED"] = n
		delete(s.cat.BySKU, "GONE")
		return s
	}
	all := map[int]bool{}
	for i := range 8 {
		all[i+1] = true
	}
	for _, tc := range []struct {
		name   string
		conf   Confirmations
		queued []string
		want   map[string]string
	}{
		{"none confirmed", Confirmations{}, []string{"OK"}, map[string]string{
			"GUARD": "skipped jobs.skip_guard", "DOOMED": "skipped jobs.skip_doomed", "MEANWHILE": "held mass.changed_meanwhile",
		}},
		{"confirm all", Confirmations{All: true}, []string{"OK", "GUARD"}, map[string]string{
			"GUARD": "queued", "DOOMED": "skipped jobs.skip_doomed", "MEANWHILE": "held mass.changed_meanwhile",
		}},
		{"each confirmed on its own", Confirmations{Rows: all}, []string{"OK", "GUARD", "DOOMED", "MEANWHILE"}, map[string]string{
			"GUARD": "queued", "DOOMED": "queued", "MEANWHILE": "queued mass.changed_meanwhile",
		}},
		{"all and the doomed row on its own", Confirmations{All: true, Rows: map[int]bool{5: true}}, []string{"OK", "GUARD", "DOOMED"}, map[string]string{
			"DOOMED": "queued", "MEANWHILE": "held mass.changed_meanwhile",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := build()
			job, n := s.submit(t, tc.conf)
			got := map[string]string{}
			var queued []string
			for _, it := range s.items {
				got[it.Key] = fate(it)
				if it.State == bulkjobs.ItemQueued {
					queued = append(queued, it.Key)
				}
			}
			tc.want["SAME"], tc.want["BAD"] = "skipped", "skipped"
			tc.want["MOVED"], tc.want["GONE"] = "held jobs.held", "held jobs.held"
			if _, ok := tc.want["OK"]; !ok {
				tc.want["OK"] = "queued"
			}
			for k, w := range tc.want {
				if got[k] != w {
					t.Errorf("%s: %q, want %q", k, got[k], w)
				}
			}
			if n != len(tc.queued) || len(queued) != len(tc.queued) {
				t.Fatalf("queued %v (%d), want %v", queued, n, tc.queued)
			}
			for i, k := range tc.queued {
				if queued[i] != k {
					t.Errorf("queued %v, want %v", queued, tc.queued)
				}
			}
			if job.State != bulkjobs.StateQueued || job.Chunks != (n+1)/2 || job.SubmittedAt.IsZero() {
				t.Errorf("job %s with %d chunks, want queued with %d", job.State, job.Chunks, (n+1)/2)
			}
		})
	}
	s := build()
	s.submit(t, Confirmations{})
	if len(s.asked.SKUs) != 6 || s.asked.SKUs["SAME"] || s.asked.SKUs["BAD"] {
		t.Errorf("asked for %v, want the six rows a submit may queue", s.asked.SKUs)
	}
}

// TestSubmitNumbersChunks: queued rows are numbered into chunks of the
// job's size in row order, the rows not queued taking no place.
func TestSubmitNumbersChunks(t *testing.T) {
	s := &submitCase{}
	for _, sku := range []string{"A", "B", "C", "D", "E"} {
		s.row(sku, bulkjobs.FlagOK, 900_00)
		s.row(sku+"-same", bulkjobs.FlagUnchanged, 1000_00)
	}
	job, n := s.submit(t, Confirmations{})
	chunks := map[string]int{}
	for _, it := range s.items {
		if it.State == bulkjobs.ItemQueued {
			chunks[it.Key] = it.Chunk
		} else if it.Chunk != -1 {
			t.Errorf("%s (%s) numbered %d", it.Key, it.State, it.Chunk)
		}
	}
	want := map[string]int{"A": 0, "B": 0, "C": 1, "D": 1, "E": 2}
	if n != 5 || job.Chunks != 3 || len(chunks) != 5 {
		t.Fatalf("queued %d in %d chunks (%v), want 5 in 3", n, job.Chunks, chunks)
	}
	for k, c := range want {
		if chunks[k] != c {
			t.Errorf("%s in chunk %d, want %d", k, chunks[k], c)
		}
	}
}

// TestSubmitNothingQueued: a submit that queues nothing finishes the job
// at once, saying nothing was sent.
func TestSubmitNothingQueued(t *testing.T) {
	s := &submitCase{}
	s.row("GUARD", bulkjobs.FlagGuard, 300_00)
	s.row("SAME", bulkjobs.FlagUnchanged, 1000_00)
	job, n := s.submit(t, Confirmations{})
	if n != 0 || job.State != bulkjobs.StateDone || job.Chunks != 0 || job.FinishedAt != job.SubmittedAt || job.FinishedAt.IsZero() ||
		len(job.StopReason) != 1 || job.StopReason[0].Key != "jobs.nothing_sent" {
		t.Errorf("job %s, %d chunks, finished %v, reason %v; want done at once, nothing sent", job.State, job.Chunks, job.FinishedAt, job.StopReason)
	}
}

// TestSubmitCurrentFails: when the current values cannot be read, the
// submit fails and changes neither the job nor its rows.
func TestSubmitCurrentFails(t *testing.T) {
	s := &submitCase{}
	s.row("OK", bulkjobs.FlagOK, 900_00)
	job := bulkjobs.Job{Kind: "prices", State: bulkjobs.StatePreview, ChunkSize: 2}
	boom := errors.New("boom")
	_, err := Submit(&job, s.items, Confirmations{All: true}, func(Want) (*Catalog, error) { return nil, boom }, time.Now())
	if !errors.Is(err, boom) || job.State != bulkjobs.StatePreview || !job.SubmittedAt.IsZero() || s.items[0].State != "" {
		t.Errorf("err %v, job %s, row %q; want the error and nothing changed", err, job.State, s.items[0].State)
	}
}

// TestOwnConfirmation: the grid's marks of the rows only their own
// confirmation sends are Submit's: a doomed guarded row, else a guarded
// row changed meanwhile; never a row not guarded.
func TestOwnConfirmation(t *testing.T) {
	s := &submitCase{}
	s.row("DOOMED", bulkjobs.FlagGuard, 10_00, meanwhile)
	s.row("MEANWHILE", bulkjobs.FlagGuard, 900_00, meanwhile)
	s.row("OK", bulkjobs.FlagOK, 10_00, meanwhile)
	for i, want := range [][2]bool{{true, false}, {false, true}, {false, false}} {
		if d, m := OwnConfirmation("prices", s.items[i]); d != want[0] || m != want[1] {
			t.Errorf("%s: doomed %v meanwhile %v, want %v", s.items[i].Key, d, m, want)
		}
	}
}
