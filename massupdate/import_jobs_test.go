package massupdate

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// fakeJobs is a JobStore in memory.
type fakeJobs struct {
	jobs  map[string]*bulkjobs.Job
	items map[string][]bulkjobs.Item
	fail  error
}

func (f *fakeJobs) Items(_ context.Context, id string) ([]bulkjobs.Item, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	return append([]bulkjobs.Item(nil), f.items[id]...), nil
}

func (f *fakeJobs) CreateJob(_ context.Context, j *bulkjobs.Job, items []bulkjobs.Item) error {
	if f.fail != nil {
		return f.fail
	}
	j.Counts.Rows = len(items)
	f.jobs[j.ID], f.items[j.ID] = j, items
	return nil
}

func (f *fakeJobs) Save(_ context.Context, j *bulkjobs.Job, items []bulkjobs.Item) error {
	if f.fail != nil {
		return f.fail
	}
	f.jobs[j.ID], f.items[j.ID] = j, items
	return nil
}

func newImports(t *testing.T) (Imports, *fakeJobs) {
	t.Helper()
	cat := NewCatalog()
	for _, sku := range []string{"A", "B", "C"} {
		cat.Add(apiclient.Nomenclature{MarketplaceSKU: sku, WarehouseCode: "W", Barcode: sku, Price: 1000_00, Name: "Boots " + sku})
	}
	jobs := &fakeJobs{jobs: map[string]*bulkjobs.Job{}, items: map[string][]bulkjobs.Item{}}
	n := 0
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	return Imports{
		Guard: 50, ChunkSize: 2, Now: func() time.Time { return now },
		Current: func(Want) (*Catalog, error) { return cat, nil },
		Owner:   Owner{ClientID: "client", DisplayName: "Shop", Environment: "test", SellerID: 7, SessionRef: "sess"},
		Jobs:    jobs,
		NewID: func() string {
			n++
			return "job" + string(rune('0'+n))
		},
	}, jobs
}

// TestImportsFileRetryReviseSubmit: a file becomes a preview job of the
// session's owner with its guard and chunk size; a bad header is a
// HeaderError naming the kind told; a retry previews again only the
// refused and unsent rows, under the job; a revise previews the retry's
// rows with the cells a user may edit replaced, under the same parent;
// a submit runs the rule and saves the job for the session.
func TestImportsFileRetryReviseSubmit(t *testing.T) {
	s, jobs := newImports(t)
	ctx := context.Background()
	if _, err := s.File(ctx, "", "f.xlsx", &bulkjobs.Table{Header: []string{"warehouse", "barcode", "quantity", "status"}, Rows: [][]string{}}); err != nil {
		t.Fatalf("stock file without rows: %v", err)
	}
	var he *HeaderError
	if _, err := s.File(ctx, "prices", "f.xlsx", &bulkjobs.Table{Header: []string{"what"}}); !errors.As(err, &he) || he.Kind != "prices" || len(he.Problems) == 0 {
		t.Fatalf("bad header: %v, want a HeaderError of prices", err)
	}
	table := &bulkjobs.Table{Header: []string{"sku", "price"}, Rows: [][]string{{"A", "900"}, {"B", "800"}, {"C", "100"}}, Lines: []int{2, 3, 4}}
	job, err := s.File(ctx, "", "prices.xlsx", table)
	if err != nil {
		t.Fatal(err)
	}
	if job.Kind != "prices" || job.State != bulkjobs.StatePreview || job.SellerID != 7 || job.ClientID != "client" || job.Environment != "test" ||
		job.GuardPercent != 50 || job.ChunkSize != 2 || job.FileName != "prices.xlsx" || job.ParentID != "" || job.Counts.Rows != 3 {
		t.Fatalf("job %+v", job)
	}
	items := jobs.items[job.ID]
	if items[2].Flag != bulkjobs.FlagGuard || items[0].Flag != bulkjobs.FlagOK {
		t.Fatalf("flags %s %s %s, want the 90 %% drop guarded", items[0].Flag, items[1].Flag, items[2].Flag)
	}
	// As sent: A accepted, B rejected, C unsent.
	for i, st := range []string{bulkjobs.ItemAccepted, bulkjobs.ItemRejected, bulkjobs.ItemUnsent} {
		jobs.items[job.ID][i].State = st
	}
	retry, err := s.Retry(ctx, *job)
	if err != nil || retry == nil {
		t.Fatalf("retry: %v %v", retry, err)
	}
	if retry.ParentID != job.ID || retry.Counts.Rows != 2 || jobs.items[retry.ID][0].Key != "B" || jobs.items[retry.ID][1].Line != 4 {
		t.Fatalf("retry %+v rows %+v, want B and C under %s", retry, jobs.items[retry.ID], job.ID)
	}
	revised, err := s.Revise(ctx, *retry, map[int]map[string]string{1: {"price": "850", "sku": "C"}})
	if err != nil || revised == nil {
		t.Fatalf("revise: %v %v", revised, err)
	}
	var typed map[string]string
	_ = json.Unmarshal([]byte(jobs.items[revised.ID][0].Typed), &typed)
	if revised.ParentID != job.ID || typed["price"] != "850" || typed["sku"] != "B" {
		t.Errorf("revised %+v, typed %v; want B at 850 under %s, its SKU not editable", revised, typed, job.ID)
	}
	queued, err := s.Submit(ctx, revised, Confirmations{All: true})
	if err != nil || queued != 2 {
		t.Fatalf("submit: %d queued, %v; want 2", queued, err)
	}
	if saved := jobs.jobs[revised.ID]; saved.State != bulkjobs.StateQueued || saved.SessionRef != "sess" || saved.Chunks != 1 {
		t.Errorf("saved %+v, want queued for the session in one chunk", saved)
	}
	none := *job
	for i := range jobs.items[job.ID] {
		jobs.items[job.ID][i].State = bulkjobs.ItemAccepted
	}
	if r, err := s.Retry(ctx, none); r != nil || err != nil {
		t.Errorf("retry of nothing: %v %v, want none", r, err)
	}
	jobs.fail = errors.New("disk")
	var se *JobStoreError
	if _, err := s.Retry(ctx, none); !errors.As(err, &se) {
		t.Errorf("a store failing: %v, want a JobStoreError", err)
	}
}

// TestParseEditName: the job page's edit fields, and nothing else.
func TestParseEditName(t *testing.T) {
	if seq, f, ok := ParseEditName("edit_12_price"); !ok || seq != 12 || f != "price" {
		t.Errorf("edit_12_price: %d %q %v", seq, f, ok)
	}
	for _, bad := range []string{"confirm", "edit_x_price", "edit_0_price", "edit_3", "edit__price"} {
		if _, _, ok := ParseEditName(bad); ok {
			t.Errorf("%q read as an edit", bad)
		}
	}
}
