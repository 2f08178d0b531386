package bulkjobs

import (
	"strconv"
	"time"

	"github.com/sellerdesk/sellerdesk/i18n"
)

// Title is the kind of job as a message kept as data: the job page shows
// it, and the history records it.
func Title(j Job) i18n.Msg {
	if j.Kind == "stock" {
		return i18n.M("jobs.title_stock", nil)
	}
	return i18n.M("jobs.title_prices", nil)
}

// ReadBackLine is the job's read-back status line as a message kept as
// data (none before a read-back is scheduled), its times in UTC for the
// reader's zone.
func ReadBackLine(j Job) i18n.Msgs {
	c := j.Counts
	switch {
	case j.ReadBackAt.IsZero():
		return nil
	case j.ReadBackDoneAt.IsZero():
		return i18n.Of(i18n.M("jobs.readback_scheduled", map[string]any{"At": j.ReadBackAt.UTC().Format(time.RFC3339)}))
	}
	return i18n.Of(i18n.M("jobs.readback_done", map[string]any{"At": j.ReadBackDoneAt.UTC().Format(time.RFC3339),
		"Confirmed": strconv.Itoa(c.Confirmed), "Processing": strconv.Itoa(c.Processing), "Different": strconv.Itoa(c.Different)}))
}

// readLabels are the catalogue keys of a row's read-back states.
var readLabels = map[string]string{
	ReadConfirmed: i18n.K("jobs.read_confirmed"), ReadProcessing: i18n.K("jobs.read_processing"),
	ReadQuarantine: i18n.K("jobs.read_quarantine"),
	ReadDifferent:  i18n.K("jobs.read_different"), ReadMissing: i18n.K("jobs.read_missing"),
}

// ReadLabel is the catalogue key of a row's read-back state ("" for a
// state of no label).
func ReadLabel(state string) string { return readLabels[state] }
