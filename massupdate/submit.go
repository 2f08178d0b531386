package massupdate

import (
	"strconv"
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// Confirmations are what a preview's submit confirms: every guarded row
// at once (All), and rows one by one (Rows, by row number).
type Confirmations struct {
	All  bool
	Rows map[int]bool
}

// Queueable keeps the rows a submit may queue: those it checks against
// the catalogue.
func Queueable(items []bulkjobs.Item) []bulkjobs.Item {
	out := make([]bulkjobs.Item, 0, len(items))
	for _, it := range items {
		if it.Flag == bulkjobs.FlagOK || it.Flag == bulkjobs.FlagGuard {
			out = append(out, it)
		}
	}
	return out
}

// Submit turns the preview job of items into a job to run, as confirmed:
// a row with nothing to send is skipped; a row the marketplace's known
// rule refuses (Doomed) is skipped, and one that would undo a change made
// after its file was exported (ChangedMeanwhile) held, unless confirmed on
// its own ("confirm all" covers neither); a guarded row is skipped unless
// confirmed, by its own confirmation or all; a row whose current value
// changed since the preview (read through current) is held; the rest are
// queued, numbered into chunks of job.ChunkSize in row order. The job is
// queued, submitted at now, or done at once when nothing is queued. It
// sets the rows' states in place and returns how many were queued; on an
// error from current neither job nor rows are changed.
func Submit(job *bulkjobs.Job, items []bulkjobs.Item, conf Confirmations, current Current, now time.Time) (int, error) {
	cat, err := current(WantItems(job.Kind, Queueable(items)))
	if err != nil {
		return 0, err
	}
	queued := 0
	for i := range items {
		it := &items[i]
		switch it.Flag {
		case bulkjobs.FlagOK, bulkjobs.FlagGuard:
		default:
			it.State = bulkjobs.ItemSkipped
			continue
		}
		own := conf.Rows[it.Seq]
		if Doomed(job.Kind, *it) && !own {
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_doomed", map[string]any{"Limit": strconv.Itoa(MarketDropLimit)}))
			continue
		}
		if ChangedMeanwhile(*it) && !own {
			it.State, it.Message = bulkjobs.ItemHeld, i18n.Join(MeanwhileMessage(*it), i18n.Of(i18n.M("jobs.held_meanwhile", nil)))
			continue
		}
		if it.Flag == bulkjobs.FlagGuard && !conf.All && !own {
			it.State, it.Message = bulkjobs.ItemSkipped, i18n.Of(i18n.M("jobs.skip_guard", map[string]any{"Guard": strconv.Itoa(job.GuardPercent)}))
			continue
		}
		if cur, changed := CurrentChanged(job.Kind, *it, cat); changed {
			it.State = bulkjobs.ItemHeld
			it.Message = i18n.Of(i18n.M("jobs.held", map[string]any{"Was": it.OldText, "Now": cur}))
			continue
		}
		it.State, it.Chunk = bulkjobs.ItemQueued, queued/job.ChunkSize
		queued++
	}
	job.Chunks = (queued + job.ChunkSize - 1) / job.ChunkSize
	job.SubmittedAt = now
	job.State = bulkjobs.StateQueued
	if queued == 0 {
		job.State, job.FinishedAt, job.StopReason = bulkjobs.StateDone, now, i18n.Of(i18n.M("jobs.nothing_sent", nil))
	}
	return queued, nil
}

// OwnConfirmation says why a guarded row of a preview is sent only when
// confirmed on its own, as Submit treats it: the marketplace's known rule
// refuses it (doomed), or else it would undo a change made after its file
// was exported (meanwhile). Neither holds for a row not guarded.
func OwnConfirmation(kind string, it bulkjobs.Item) (doomed, meanwhile bool) {
	if it.Flag != bulkjobs.FlagGuard {
		return false, false
	}
	doomed = Doomed(kind, it)
	return doomed, !doomed && ChangedMeanwhile(it)
}
