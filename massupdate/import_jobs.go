package massupdate

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
)

// JobStore keeps the import's jobs and their rows (bulkjobs.Store).
type JobStore interface {
	Items(ctx context.Context, id string) ([]bulkjobs.Item, error)
	CreateJob(ctx context.Context, j *bulkjobs.Job, items []bulkjobs.Item) error
	Save(ctx context.Context, j *bulkjobs.Job, items []bulkjobs.Item) error
}

// JobStoreError is a failure of the JobStore met by an import use case.
type JobStoreError struct{ Err error }

func (e *JobStoreError) Error() string { return "job store: " + e.Err.Error() }
func (e *JobStoreError) Unwrap() error { return e.Err }

// HeaderError is a file whose header does not name the columns of its
// kind: the file's kind as told, and what is wrong.
type HeaderError struct {
	Kind     string
	Problems []bulkjobs.Problem
}

func (e *HeaderError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.Error()
	}
	return "bad header: " + strings.Join(parts, "; ")
}

// Owner is whom an import's jobs are for: the session's client, seller
// and environment, and the session a submitted job runs for.
type Owner struct {
	ClientID, DisplayName, Environment string
	SellerID                           int64
	SessionRef                         string
}

// Imports are the bulk-import use cases of one session: a file previewed
// (File), a job's refused rows (Retry) or a retry's edited rows (Revise)
// previewed again, a preview submitted (Submit).
type Imports struct {
	Profile Profile
	// Guard is the fat-finger guard in percent; 0 is off.
	Guard int
	// ChunkSize is the rows a job sends in one request.
	ChunkSize  int
	Current    Current
	Promotions Promotions
	Now        func() time.Time
	Owner      Owner
	Jobs       JobStore
	NewID      func() string
}

// File previews the rows of a file read into t, named name, as a new
// preview job: of kind "prices" or "stock", or else of the kind its
// header tells (Profile.Kind). A header without the kind's columns is a
// *HeaderError.
func (s Imports) File(ctx context.Context, kind, name string, t *bulkjobs.Table) (*bulkjobs.Job, error) {
	kind = s.Profile.Kind(kind, t.Header)
	m, probs := bulkjobs.MapColumns(t.Header, s.Profile.Columns(kind))
	if len(probs) > 0 {
		return nil, &HeaderError{Kind: kind, Problems: probs}
	}
	return s.preview(ctx, kind, name, "", t, m)
}

// Retry previews the rows of job the marketplace refused or that were not
// sent again, with the values as typed, as a new preview job whose parent
// is job; nil when there is no such row.
func (s Imports) Retry(ctx context.Context, job bulkjobs.Job) (*bulkjobs.Job, error) {
	return s.again(ctx, job, job.ID, nil, func(it bulkjobs.Item) bool {
		return it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent
	})
}

// Revise previews the rows of a retry's preview job again with the cells
// edits names (by row, then field; only the fields bulkjobs.EditFields
// lets a user change) replaced, as a new preview job of the same parent.
func (s Imports) Revise(ctx context.Context, job bulkjobs.Job, edits map[int]map[string]string) (*bulkjobs.Job, error) {
	return s.again(ctx, job, job.ParentID, edits, func(bulkjobs.Item) bool { return true })
}

// Submit turns the preview job into a job to run as confirmed (Submit,
// the rule) and saves it; it returns how many rows were queued.
func (s Imports) Submit(ctx context.Context, job *bulkjobs.Job, conf Confirmations) (int, error) {
	items, err := s.Jobs.Items(ctx, job.ID)
	if err != nil {
		return 0, &JobStoreError{err}
	}
	queued, err := Submit(job, items, conf, s.Current, s.Now())
	if err != nil {
		return 0, err
	}
	job.SessionRef, job.ClientID, job.DisplayName = s.Owner.SessionRef, s.Owner.ClientID, s.Owner.DisplayName
	if err := s.Jobs.Save(ctx, job, items); err != nil {
		return 0, &JobStoreError{err}
	}
	return queued, nil
}

// ParseEditName reads the name of a form field that edits a field of a
// row in a retry's preview, as the job page writes it:
// edit_<row number>_<field>.
func ParseEditName(name string) (seq int, field string, ok bool) {
	rest, ok := strings.CutPrefix(name, "edit_")
	if !ok {
		return 0, "", false
	}
	num, field, ok := strings.Cut(rest, "_")
	if !ok {
		return 0, "", false
	}
	seq, err := strconv.Atoi(num)
	if err != nil || seq <= 0 {
		return 0, "", false
	}
	return seq, field, true
}

func (s Imports) again(ctx context.Context, job bulkjobs.Job, parent string, edits map[int]map[string]string, keep func(bulkjobs.Item) bool) (*bulkjobs.Job, error) {
	items, err := s.Jobs.Items(ctx, job.ID)
	if err != nil {
		return nil, &JobStoreError{err}
	}
	t, m := bulkjobs.RetryTable(job.Kind, items, allowedEdits(job.Kind, edits), keep)
	if len(t.Rows) == 0 {
		return nil, nil
	}
	return s.preview(ctx, job.Kind, job.FileName, parent, t, m)
}

// allowedEdits keeps of edits the fields a retry's preview lets the user
// change.
func allowedEdits(kind string, edits map[int]map[string]string) map[int]map[string]string {
	fields := bulkjobs.EditFields(kind)
	out := make(map[int]map[string]string, len(edits))
	for seq, cells := range edits {
		for f, v := range cells {
			if !slices.Contains(fields, f) {
				continue
			}
			if out[seq] == nil {
				out[seq] = map[string]string{}
			}
			out[seq][f] = v
		}
	}
	return out
}

// preview makes the preview job of the rows of t.
func (s Imports) preview(ctx context.Context, kind, name, parent string, t *bulkjobs.Table, m bulkjobs.Mapping) (*bulkjobs.Job, error) {
	items, err := Preview(PreviewInput{Profile: s.Profile, Kind: kind, Table: t, Mapping: m, Guard: s.Guard,
		Current: s.Current, Promotions: s.Promotions, Now: s.Now()})
	if err != nil {
		return nil, err
	}
	job := &bulkjobs.Job{
		ID: s.NewID(), Kind: kind, State: bulkjobs.StatePreview, ParentID: parent, FileName: name,
		ClientID: s.Owner.ClientID, DisplayName: s.Owner.DisplayName, Environment: s.Owner.Environment, SellerID: s.Owner.SellerID,
		GuardPercent: s.Guard, ChunkSize: s.ChunkSize, CreatedAt: s.Now(),
	}
	if err := s.Jobs.CreateJob(ctx, job, items); err != nil {
		return nil, &JobStoreError{err}
	}
	return job, nil
}
