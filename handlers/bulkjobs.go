package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// ---- the executor: the runner's hands on the marketplace ----

// JobAccount is the marketplace account a bulk job sends with: the
// credentials of the session that submitted it, read from the session
// store at every chunk (the user may have navigated away, and a logout
// stops the job). It is massupdate.Accounts for the job executor.
func (a *App) JobAccount(ctx context.Context, job bulkjobs.Job) (*apiclient.Account, error) {
	d, err := a.deps.Sessions.LoadData(ctx, job.SessionRef)
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, bulkjobs.ErrLoggedOut
	}
	if err != nil {
		return nil, &bulkjobs.RetryLater{At: time.Now().Add(5 * time.Second)}
	}
	if d.ClientID == "" || d.ClientSecret == "" || d.SellerID != job.SellerID || d.Environment != job.Environment {
		return nil, bulkjobs.ErrLoggedOut
	}
	creds := apiclient.Credentials{ClientID: d.ClientID, ClientSecret: d.ClientSecret, Environment: apiclient.Environment(d.Environment)}
	return a.deps.API.Account(creds, sessionTokens{store: a.deps.Sessions, id: job.SessionRef}), nil
}

// JobExecutor is what the bulk job runner runs: the same engine (chunk
// size, per-seller lock, retry budget) as the forms, with the submitting
// session's account. internal/app binds it to the runner.
func (a *App) JobExecutor() *massupdate.Executor {
	return &massupdate.Executor{Engine: a.mass, Accounts: a.JobAccount,
		PricesByCard: a.deps.API.PricesByCard()} // issue 15: the lamoda profile's card kind
}

// ---- job page, progress, actions ----

// BulkJobPage shows a job: the preview grid with its confirmations before
// submission, then progress and per-row results.
func (a *App) BulkJobPage(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	items, err := a.deps.Jobs.Store().Items(c.Request().Context(), job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	v := a.jobView(c.Request().Context(), job, items, c.QueryParam("show"))
	ch := a.chrome(c, jobTitle(job), "bulk")
	return a.render(c, http.StatusOK, pages.JobPage(ch, v), nil)
}

func jobTitle(j bulkjobs.Job) string {
	if j.Kind == "stock" {
		return "Stock import"
	}
	return "Price import"
}

// BulkJobProgress is the progress fragment htmx polls every second. When a
// job the page was polling has finished, the page reloads to show results.
func (a *App) BulkJobProgress(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	p := a.progress(c.Request().Context(), job)
	if !p.Active && c.QueryParam("polling") == "1" && isHTMX(c.Request()) {
		c.Response().Header().Set("HX-Refresh", "true")
	}
	return a.render(c, http.StatusOK, pages.JobProgressPage(a.chrome(c, jobTitle(job), "bulk"), p), pages.JobProgressBlock(p))
}

// BulkJobCancel asks the runner to stop after the chunk in flight.
func (a *App) BulkJobCancel(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.Active() {
		if err := a.deps.Jobs.Store().RequestCancel(c.Request().Context(), job.ID); err != nil {
			return errSessionStore(err)
		}
		session(c).AddFlash("info", "Cancelling: the batch in flight finishes, nothing after it is sent.")
	}
	return a.redirect(c, "/bulk/jobs/"+job.ID)
}

// BulkJobRetry makes a new preview of the rejected (and unsent) rows only,
// with the values as typed, checked against the catalogue as it is now.
func (a *App) BulkJobRetry(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	items, err := a.deps.Jobs.Store().Items(ctx, job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	retry, n, err := a.previewAgain(c, job, items, job.ID, nil, func(it bulkjobs.Item) bool {
		return it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent
	})
	if err != nil {
		return err
	}
	if n == 0 {
		session(c).AddFlash("info", "No rejected or unsent rows to retry.")
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	session(c).AddFlash("info", format.Count(n, "rejected or unsent row is", "rejected or unsent rows are")+" ready to review, change and send again.")
	return a.redirect(c, "/bulk/jobs/"+retry)
}

// maxEditedCell bounds one value edited in a retry's preview.
const maxEditedCell = 64

// editFields are the cells of a kind the retry preview lets the user
// change (issue 17 item 8).
func editFields(kind string) []string {
	if kind == "stock" {
		return []string{"quantity", "status"}
	}
	return []string{"price", "sale"}
}

// BulkJobRevise checks the values edited in a retry's preview (issue 17
// item 8: a retried row is not re-sent as it was refused): its rows, with
// the edited cells, become a new preview, checked against the catalogue as
// it is now; nothing is sent until that preview is confirmed.
func (a *App) BulkJobRevise(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.State != bulkjobs.StatePreview || job.ParentID == "" {
		session(c).AddFlash("info", "Only a retry's preview can be edited.")
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read.")
	}
	items, err := a.deps.Jobs.Store().Items(c.Request().Context(), job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	edits := map[int]map[string]string{}
	for _, it := range items {
		for _, f := range editFields(job.Kind) {
			name := "edit_" + strconv.Itoa(it.Seq) + "_" + f
			if vals, ok := form[name]; ok && len(vals) > 0 {
				if edits[it.Seq] == nil {
					edits[it.Seq] = map[string]string{}
				}
				v, _ := format.Short(vals[0], maxEditedCell)
				edits[it.Seq][f] = v
			}
		}
	}
	next, _, err := a.previewAgain(c, job, items, job.ParentID, edits, func(bulkjobs.Item) bool { return true })
	if err != nil {
		return err
	}
	session(c).AddFlash("info", "The edited values are checked: review them and send.")
	return a.redirect(c, "/bulk/jobs/"+next)
}

// previewAgain makes a new preview job of the rows of job that keep
// passes, with their typed values (edits, by row, replace cells), checked
// against the catalogue as it is now. It returns the new job's id and its
// row count; no job is made for no rows.
func (a *App) previewAgain(c echo.Context, job bulkjobs.Job, items []bulkjobs.Item, parent string, edits map[int]map[string]string, keep func(bulkjobs.Item) bool) (string, int, error) {
	t := &bulkjobs.Table{}
	var m bulkjobs.Mapping
	if job.Kind == "stock" {
		t.Header = []string{"warehouse", "barcode", "quantity", "status"}
		m, _ = bulkjobs.MapColumns(t.Header, bulkjobs.StockColumns)
	} else {
		t.Header = []string{"sku", "price", "sale", "start", "end"}
		m, _ = bulkjobs.MapColumns(t.Header, bulkjobs.PriceColumns)
	}
	for _, it := range items {
		if !keep(it) {
			continue
		}
		var typed map[string]string
		_ = json.Unmarshal([]byte(it.Typed), &typed)
		for f, v := range edits[it.Seq] {
			if typed == nil {
				typed = map[string]string{}
			}
			typed[f] = v
		}
		row := make([]string, len(t.Header))
		for i, h := range t.Header {
			row[i] = typed[h]
		}
		t.Rows = append(t.Rows, row)
		t.Lines = append(t.Lines, it.Line)
	}
	if len(t.Rows) == 0 {
		return "", 0, nil
	}
	sess := session(c)
	d := sess.Data()
	cat, err := massupdate.FetchCatalog(a.pageContext(c), a.account(c), d.SellerID)
	if err != nil {
		return "", 0, err
	}
	p := massupdate.Previewer{Guard: a.deps.Jobs.GuardPercent(), Catalog: cat}
	var rows []bulkjobs.Item
	switch { // issue 15: as the import previews them (bulk_import.go)
	case job.Kind == "stock" && a.stockUnavailable() != "":
		rows = p.RefusedStockItems(t, m, a.stockUnavailable())
	case job.Kind == "stock":
		rows = p.StockItems(t, m)
	case a.deps.API.PricesByCard():
		rows = p.CardPriceItems(t, m)
	default:
		rows = p.PriceItems(t, m)
	}
	p.Named(rows) // issue 17 item 8
	next := &bulkjobs.Job{
		ID: newJobID(), Kind: job.Kind, State: bulkjobs.StatePreview, ClientID: d.ClientID, DisplayName: d.DisplayName,
		Environment: d.Environment, SellerID: d.SellerID, FileName: job.FileName, ParentID: parent,
		GuardPercent: p.Guard, ChunkSize: a.mass.Size(), CreatedAt: a.deps.Now(),
	}
	if err := a.deps.Jobs.Store().CreateJob(c.Request().Context(), next, rows); err != nil {
		return "", 0, errSessionStore(err)
	}
	return next.ID, len(rows), nil
}

// BulkJobReadBack re-reads the job's rows from the marketplace now.
func (a *App) BulkJobReadBack(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if err := a.deps.Jobs.RequestReadBack(c.Request().Context(), job.ID); err != nil {
		return errSessionStore(err)
	}
	session(c).AddFlash("info", "Reading the rows back from the marketplace…")
	return a.redirect(c, "/bulk/jobs/"+job.ID)
}

// BulkJobErrorsCSV downloads the rows not applied (invalid, rejected,
// unsent, held, unconfirmed) with their typed values and the reason, in a
// shape that can be fixed and imported again.
func (a *App) BulkJobErrorsCSV(c echo.Context) error {
	return a.jobCSV(c, true)
}

// BulkJobExportCSV downloads every row of a job with its answer and
// read-back (the history record of one job).
func (a *App) BulkJobExportCSV(c echo.Context) error {
	return a.jobCSV(c, false)
}

func (a *App) jobCSV(c echo.Context, errorsOnly bool) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	items, err := a.deps.Jobs.Store().Items(c.Request().Context(), job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	fields := []string{"sku", "price", "sale", "start", "end"}
	header := []string{"Marketplace SKU", "Price", "Sale price", "Sale start", "Sale end"}
	if job.Kind == "stock" {
		fields = []string{"warehouse", "barcode", "quantity", "status"}
		header = []string{"Warehouse", "Barcode", "Quantity", "Status"}
	}
	header = append(header, "File row", "Before", "After", "Preview", "Result", "Message", "Read-back", "Read-back value")
	sheet := bulkjobs.Sheet{Name: "Rows", Header: header}
	for _, it := range items {
		bad := it.Flag == bulkjobs.FlagInvalid || it.State == bulkjobs.ItemRejected || it.State == bulkjobs.ItemUnsent ||
			it.State == bulkjobs.ItemHeld || (it.State == bulkjobs.ItemSkipped && it.Flag == bulkjobs.FlagGuard) ||
			(job.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard)
		if errorsOnly && !bad {
			continue
		}
		var typed map[string]string
		_ = json.Unmarshal([]byte(it.Typed), &typed)
		row := make([]string, 0, len(header))
		for _, f := range fields {
			row = append(row, typed[f])
		}
		row = append(row, strconv.Itoa(it.Line), it.OldText, it.NewText, it.Flag, it.State, it.Message, it.ReadBack, it.ReadBackText)
		sheet.Rows = append(sheet.Rows, row)
	}
	what := "rows"
	if errorsOnly {
		what = "errors"
	}
	return a.sendSheet(c, sheet, "csv", bulkjobs.FileName("csv", "job", job.ID, job.Kind, what))
}

// ---- view mapping ----

func (a *App) progress(ctx context.Context, j bulkjobs.Job) pages.JobProgress {
	live := a.deps.Jobs.Live(j.ID)
	c := j.Counts
	total := c.ToSend()
	done := c.Sent() + c.Unsent
	p := pages.JobProgress{
		ID: j.ID, Active: j.Active(), Done: done, Total: total,
		Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
		CancelRequested: j.CancelRequested,
		PollURL:         "/bulk/jobs/" + j.ID + "/progress?polling=1", CancelURL: "/bulk/jobs/" + j.ID + "/cancel",
	}
	if total > 0 {
		p.Percent = done * 100 / total
	} else if !p.Active {
		p.Percent = 100
	}
	p.StateLabel, p.Tone = jobStateLabel(j)
	wait, status := live.WaitUntil, live.Status
	if wait.IsZero() && j.State == bulkjobs.StateWaiting {
		wait, status = j.WaitUntil, 429
	}
	if !wait.IsZero() && p.Active {
		if status == 0 {
			status = 429
		}
		p.Waiting = fmt.Sprintf("The marketplace asked us to wait (%d): next attempt at %s.", status, format.ClockIn(i18n.LangOf(ctx), wait))
	}
	return p
}

func jobStateLabel(j bulkjobs.Job) (string, string) {
	switch j.State {
	case bulkjobs.StatePreview:
		return "preview: nothing sent yet", "info"
	case bulkjobs.StateQueued:
		return "queued", "info"
	case bulkjobs.StateRunning:
		if j.CancelRequested {
			return "cancelling after the current batch", "warn"
		}
		return "sending", "info"
	case bulkjobs.StateWaiting:
		return "waiting on the marketplace", "warn"
	case bulkjobs.StateDone:
		if j.Counts.Rejected > 0 || j.Counts.Unsent > 0 {
			return "finished with problems", "warn"
		}
		return "finished", "ok"
	case bulkjobs.StateCancelled:
		return "cancelled", "warn"
	case bulkjobs.StateStopped:
		return "stopped", "bad"
	}
	return j.State, ""
}

func whoText(j bulkjobs.Job) string {
	if j.DisplayName != "" {
		return j.DisplayName + " (" + j.ClientID + ")"
	}
	return j.ClientID
}

func readBackLine(j bulkjobs.Job) string { return readBackLineIn(i18n.EN, j) }

// readBackLineIn is the read-back status line with its times in the one
// configured zone, labelled (issue 17 item 8).
func readBackLineIn(l i18n.Lang, j bulkjobs.Job) string {
	c := j.Counts
	switch {
	case j.ReadBackAt.IsZero():
		return ""
	case j.ReadBackDoneAt.IsZero():
		return "Read-back scheduled for " + format.ClockIn(l, j.ReadBackAt) + "."
	}
	return fmt.Sprintf("Read back at %s: %d confirmed, %d still processing, %d different from what was sent.",
		format.ClockIn(l, j.ReadBackDoneAt), c.Confirmed, c.Processing, c.Different)
}

// jobFilters are the grid's row filters.
var jobFilters = []pages.Option{
	{Value: "", Label: "All rows"}, {Value: "problems", Label: "Problems only"}, {Value: "send", Label: "Rows to send"},
}

// maxGridRows bounds the rows drawn at once; the downloads have them all.
const maxGridRows = 10_000

func (a *App) jobView(ctx context.Context, j bulkjobs.Job, items []bulkjobs.Item, show string) pages.JobView {
	c := j.Counts
	l := i18n.LangOf(ctx)
	v := pages.JobView{
		ID: j.ID, Kind: j.Kind, KindLabel: jobTitle(j), FileName: j.FileName, Who: whoText(j), ClientID: j.ClientID, Environment: j.Environment,
		Created: format.DateTimeIn(l, j.CreatedAt), Preview: j.State == bulkjobs.StatePreview, Active: j.Active(), GuardPercent: j.GuardPercent,
		StopReason: j.StopReason, ReadBack: readBackLineIn(l, j), Filter: show, Filters: jobFilters, RowsTotal: len(items),
		Progress: a.progress(ctx, j),
		Counts: pages.JobCounts{
			Rows: c.Rows, ToSend: c.OK + c.Guard, Unchanged: c.Unchanged, Invalid: c.Invalid, Guard: c.Guard,
			Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
			Held: c.Held, Skipped: c.Skipped, Queued: c.Queued, Confirmed: c.Confirmed, Processing: c.Processing, Different: c.Different,
		},
	}
	v.StateLabel, v.StateTone = jobStateLabel(j)
	if !j.SubmittedAt.IsZero() {
		v.Submitted = format.DateTimeIn(l, j.SubmittedAt)
	}
	if !j.FinishedAt.IsZero() {
		v.Finished = format.DateTimeIn(l, j.FinishedAt)
	}
	if j.ParentID != "" {
		v.ParentHref = "/bulk/jobs/" + j.ParentID
	}
	finished := !v.Preview && !v.Active
	v.CanRetry = finished && (c.Rejected > 0 || c.Unsent > 0)
	v.CanReadBack = finished && c.Accepted+c.Unknown > 0
	v.CanDelete = !v.Active
	if v.Preview && j.ParentID != "" {
		v.Editable, v.EditFields = true, editFields(j.Kind)
	}
	for _, it := range items {
		row := jobRow(j, it)
		if v.Editable {
			var typed map[string]string
			_ = json.Unmarshal([]byte(it.Typed), &typed)
			row.Edit = map[string]string{}
			for _, f := range v.EditFields {
				row.Edit[f] = typed[f]
			}
		}
		if row.Doomed {
			v.Counts.Doomed++
		}
		switch show {
		case "problems":
			if row.Tone == "" || row.Tone == "accepted" {
				continue
			}
		case "send":
			if it.Flag != bulkjobs.FlagOK && it.Flag != bulkjobs.FlagGuard {
				continue
			}
		}
		if len(v.Rows) < maxGridRows {
			v.Rows = append(v.Rows, row)
		}
	}
	v.RowsShown = len(v.Rows)
	return v
}

var flagLabels = map[string]string{
	bulkjobs.FlagOK: "change", bulkjobs.FlagUnchanged: "unchanged", bulkjobs.FlagInvalid: "invalid", bulkjobs.FlagGuard: "needs confirmation",
}

var itemLabels = map[string]string{
	bulkjobs.ItemQueued: "queued", bulkjobs.ItemAccepted: "accepted", bulkjobs.ItemRejected: "rejected", bulkjobs.ItemUnsent: "not sent",
	bulkjobs.ItemUnknown: "no answer", bulkjobs.ItemHeld: "changed since preview", bulkjobs.ItemSkipped: "skipped",
}

func jobRow(j bulkjobs.Job, it bulkjobs.Item) pages.JobRow {
	r := pages.JobRow{
		Seq: it.Seq, Line: it.Line, Key: it.Key, Old: orDash(it.OldText), New: orDash(it.NewText),
		Flag: it.Flag, FlagLabel: flagLabels[it.Flag], State: it.State, StateLabel: itemLabels[it.State], Message: format.MessageNumbers(it.Message), // issue 17 item 7: amounts as the grid writes them
		ReadBack: it.ReadBack, ReadText: it.ReadBackText, Name: massupdate.RowName(it),
		Doomed: it.Flag == bulkjobs.FlagGuard && massupdate.Doomed(j.Kind, it),
	}
	if it.HasNum {
		d := it.NewNum - it.OldNum
		if j.Kind == "stock" {
			r.Delta = fmt.Sprintf("%+d", d)
		} else {
			sign := "+"
			if d < 0 {
				sign = "−"
				d = -d
			}
			r.Delta = sign + format.Money(d)
		}
		if it.OldNum != 0 {
			r.DeltaPct = fmt.Sprintf("%+.1f %%", float64(it.NewNum-it.OldNum)*100/float64(it.OldNum))
		}
	}
	switch {
	case it.State == bulkjobs.ItemAccepted:
		r.Tone = "accepted"
	case it.State == bulkjobs.ItemRejected, it.State == bulkjobs.ItemUnsent, it.State == bulkjobs.ItemUnknown:
		r.Tone = "rejected"
	case it.State == bulkjobs.ItemHeld:
		r.Tone = "held"
	case it.Flag == bulkjobs.FlagInvalid:
		r.Tone = "invalid"
	case it.Flag == bulkjobs.FlagGuard:
		r.Tone = "guard"
	}
	r.Confirmable = j.State == bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard
	if r.Doomed && r.Confirmable {
		r.Tone, r.FlagLabel = "invalid", "refused by the marketplace's rule"
	}
	if j.State != bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard {
		// Once submitted, say what became of the confirmation.
		r.FlagLabel = "confirmed"
		if it.State == bulkjobs.ItemSkipped {
			r.FlagLabel = "not confirmed"
		}
	}
	switch it.ReadBack {
	case bulkjobs.ReadConfirmed:
		r.ReadTone = "ok"
	case bulkjobs.ReadProcessing:
		r.ReadTone = "warn"
	case bulkjobs.ReadDifferent, bulkjobs.ReadMissing:
		r.ReadTone = "bad"
	}
	return r
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
