package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/sessions"
	"github.com/sellerdesk/sellerdesk/sheets"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// ---- the executor: the runner's hands on the marketplace ----

// JobAccount is the marketplace account a bulk job sends with: the
// credentials of the session that submitted it, read from the session
// store at every chunk (the user may have navigated away, and a logout
// stops the job). It is the massupdate.Accounts internal/app gives the job
// executor.
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
	ctx := c.Request().Context()
	v := a.jobView(ctx, job, items, c.QueryParam("show"))
	ch := a.chrome(c, jobTitleIn(ctx, job), "bulk")
	return a.render(c, http.StatusOK, pages.JobPage(ch, v), nil)
}

// jobTitleIn is the kind of job in the language of ctx.
func jobTitleIn(ctx context.Context, j bulkjobs.Job) string {
	return bulkjobs.Title(j).In(i18n.LangOf(ctx), nil)
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
	return a.render(c, http.StatusOK, pages.JobProgressPage(a.chrome(c, jobTitleIn(c.Request().Context(), job), "bulk"), p), pages.JobProgressBlock(p))
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
		session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_cancelling"))
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
		session(c).AddFlash("info", i18n.T(ctx, "jobs.flash_nothing_to_retry"))
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	session(c).AddFlash("info", i18n.N(ctx, "jobs.flash_retry_ready", n))
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
		session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_only_retry"))
		return a.redirect(c, "/bulk/jobs/"+job.ID)
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, i18n.T(c.Request().Context(), "jobs.form_unreadable"))
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
	session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_revised"))
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
	cat, err := a.previewCatalog(c, a.wantRows(job.Kind, t, m))
	if err != nil {
		return "", 0, err
	}
	p := massupdate.Previewer{Guard: a.deps.Jobs.GuardPercent(), Catalog: cat}
	var rows []bulkjobs.Item
	switch { // issue 15: as the import previews them (bulk_import.go)
	case job.Kind == "stock" && a.deps.API.FilterWrites():
		rows = p.FilterStockItems(t, m)
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
		GuardPercent: p.Guard, ChunkSize: a.deps.Engine.Size(), CreatedAt: a.deps.Now(),
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
	session(c).AddFlash("info", i18n.T(c.Request().Context(), "jobs.flash_reading_back"))
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
	ctx := c.Request().Context()
	l := format.LocaleOf(ctx)
	items, err := a.deps.Jobs.Store().Items(ctx, job.ID)
	if err != nil {
		return errSessionStore(err)
	}
	fields := []string{"sku", "price", "sale", "start", "end"}
	header := []string{i18n.T(ctx, "import.col_sku"), i18n.T(ctx, "import.col_price"), i18n.T(ctx, "import.col_sale"),
		i18n.T(ctx, "import.col_sale_start"), i18n.T(ctx, "import.col_sale_end")}
	if job.Kind == "stock" {
		fields = []string{"warehouse", "barcode", "quantity", "status"}
		header = []string{i18n.T(ctx, "import.col_warehouse"), i18n.T(ctx, "import.col_barcode"), i18n.T(ctx, "import.col_quantity"), i18n.T(ctx, "import.col_status")}
	}
	header = append(header, i18n.T(ctx, "import.col_file_row"), i18n.T(ctx, "import.col_before"), i18n.T(ctx, "import.col_after"),
		i18n.T(ctx, "import.col_preview"), i18n.T(ctx, "import.col_result"), i18n.T(ctx, "import.col_message"),
		i18n.T(ctx, "import.col_read_back"), i18n.T(ctx, "import.col_read_back_value"))
	sheet := sheets.Sheet{Name: i18n.T(ctx, "import.sheet_rows"), Columns: sheets.Columns(header...)}
	for i, f := range fields {
		switch f {
		case "price", "sale":
			sheet.Columns[i].Kind = sheets.Money
		case "quantity":
			sheet.Columns[i].Kind = sheets.Number
		}
	}
	sheet.Columns[len(fields)].Kind = sheets.Number // the file row
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
		// The dashboard's words (flag, state, read-back, its messages) in
		// the reader's language, the marketplace's as sent.
		row = append(row, strconv.Itoa(it.Line), format.MessageIn(l, it.OldText), format.MessageIn(l, it.NewText),
			label(ctx, flagLabels, it.Flag), label(ctx, itemLabels, it.State), format.MessageIn(l, it.Message),
			readLabel(ctx, it.ReadBack), format.MessageIn(l, it.ReadBackText))
		sheet.Rows = append(sheet.Rows, row)
	}
	what := "rows"
	if errorsOnly {
		what = "errors"
	}
	return a.sendSheet(c, sheet, "csv", sheets.FileName("csv", "job", job.ID, job.Kind, what))
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
	p.StateLabel, p.Tone = jobStateLabel(ctx, j)
	wait, status := live.WaitUntil, live.Status
	if wait.IsZero() && j.State == bulkjobs.StateWaiting {
		wait, status = j.WaitUntil, 429
	}
	if !wait.IsZero() && p.Active {
		if status == 0 {
			status = 429
		}
		p.Waiting = i18n.TD(ctx, "jobs.waiting", map[string]any{"Status": status, "At": format.ClockIn(format.LocaleOf(ctx), wait)})
	}
	return p
}

// jobStateLabel is the job's state in words, in the language of ctx, and
// its badge's tone.
func jobStateLabel(ctx context.Context, j bulkjobs.Job) (string, string) {
	switch j.State {
	case bulkjobs.StatePreview:
		return i18n.T(ctx, "jobs.state_preview"), "info"
	case bulkjobs.StateQueued:
		return i18n.T(ctx, "jobs.state_queued"), "info"
	case bulkjobs.StateRunning:
		if j.CancelRequested {
			return i18n.T(ctx, "jobs.state_cancelling"), "warn"
		}
		return i18n.T(ctx, "jobs.state_sending"), "info"
	case bulkjobs.StateWaiting:
		return i18n.T(ctx, "jobs.state_waiting"), "warn"
	case bulkjobs.StateDone:
		if j.Counts.Rejected > 0 || j.Counts.Unsent > 0 {
			return i18n.T(ctx, "jobs.state_done_problems"), "warn"
		}
		return i18n.T(ctx, "jobs.state_done"), "ok"
	case bulkjobs.StateCancelled:
		return i18n.T(ctx, "jobs.state_cancelled"), "warn"
	case bulkjobs.StateStopped:
		return i18n.T(ctx, "jobs.state_stopped"), "bad"
	}
	return j.State, ""
}

// envLabel names an environment in the language of ctx.
func envLabel(ctx context.Context, env string) string {
	switch env {
	case "production":
		return i18n.T(ctx, "env.production")
	case "test":
		return i18n.T(ctx, "env.test")
	}
	return env
}

func whoText(j bulkjobs.Job) string {
	if j.DisplayName != "" {
		return j.DisplayName + " (" + j.ClientID + ")"
	}
	return j.ClientID
}

// readBackLineIn is the read-back status line in locale l.
func readBackLineIn(l format.Locale, j bulkjobs.Job) string {
	return format.MessageIn(l, bulkjobs.ReadBackLine(j))
}

// jobFilters are the grid's row filters, in the language of ctx.
func jobFilters(ctx context.Context) []pages.Option {
	return []pages.Option{
		{Value: "", Label: i18n.T(ctx, "jobs.filter_all")}, {Value: "problems", Label: i18n.T(ctx, "jobs.filter_problems")},
		{Value: "send", Label: i18n.T(ctx, "jobs.filter_send")},
	}
}

// maxGridRows bounds the rows drawn at once; the downloads have them all.
const maxGridRows = 10_000

func (a *App) jobView(ctx context.Context, j bulkjobs.Job, items []bulkjobs.Item, show string) pages.JobView {
	c := j.Counts
	l := format.LocaleOf(ctx)
	v := pages.JobView{
		ID: j.ID, Kind: j.Kind, KindLabel: jobTitleIn(ctx, j), FileName: j.FileName, Who: whoText(j), ClientID: j.ClientID, Environment: envLabel(ctx, j.Environment),
		Created: format.DateTimeIn(l, j.CreatedAt), Preview: j.State == bulkjobs.StatePreview, Active: j.Active(), GuardPercent: j.GuardPercent,
		StopReason: format.MessageIn(l, j.StopReason), ReadBack: readBackLineIn(l, j), Filter: show, Filters: jobFilters(ctx), RowsTotal: len(items),
		Progress: a.progress(ctx, j),
		Counts: pages.JobCounts{
			Rows: c.Rows, ToSend: c.OK + c.Guard, Unchanged: c.Unchanged, Invalid: c.Invalid, Guard: c.Guard,
			Sent: c.Sent(), Accepted: c.Accepted, Rejected: c.Rejected, Unsent: c.Unsent, Unknown: c.Unknown,
			Held: c.Held, Skipped: c.Skipped, Queued: c.Queued, Confirmed: c.Confirmed, Processing: c.Processing, Different: c.Different,
		},
	}
	v.StateLabel, v.StateTone = jobStateLabel(ctx, j)
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
		row := jobRow(ctx, j, it)
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

// flagLabels and itemLabels are the catalogue keys of a row's preview
// flag and state (bulkjobs.ReadLabel: of its read-back).
var flagLabels = map[string]string{
	bulkjobs.FlagOK: i18n.K("jobs.flag_ok"), bulkjobs.FlagUnchanged: i18n.K("jobs.flag_unchanged"), bulkjobs.FlagInvalid: i18n.K("jobs.flag_invalid"),
	bulkjobs.FlagGuard: i18n.K("jobs.flag_guard"),
}

var itemLabels = map[string]string{
	bulkjobs.ItemQueued: i18n.K("jobs.item_queued"), bulkjobs.ItemAccepted: i18n.K("jobs.item_accepted"), bulkjobs.ItemRejected: i18n.K("jobs.item_rejected"),
	bulkjobs.ItemUnsent: i18n.K("jobs.item_unsent"), bulkjobs.ItemUnknown: i18n.K("jobs.item_unknown"), bulkjobs.ItemHeld: i18n.K("jobs.item_held"),
	bulkjobs.ItemSkipped: i18n.K("jobs.item_skipped"),
}

// readLabel is the words of a read-back state, a state of no label as it
// is.
func readLabel(ctx context.Context, state string) string {
	if key := bulkjobs.ReadLabel(state); key != "" {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
	}
	return state
}

// label is the words of a code through one of the tables above; a code
// the table does not know as it is.
func label(ctx context.Context, table map[string]string, code string) string {
	if key, ok := table[code]; ok {
		return i18n.In(i18n.LangOf(ctx), key, nil, nil)
	}
	return code
}

// gridText is a stored text of a row (a message, a value) as the grid
// shows it: the dashboard's words in the reader's language, the
// marketplace's as sent, amounts written the reader's way (issue 17 item
// 7).
func gridText(l format.Locale, ms i18n.Msgs) string {
	return format.GridNumbersIn(l.Lang, format.MessageIn(l, ms))
}

func jobRow(ctx context.Context, j bulkjobs.Job, it bulkjobs.Item) pages.JobRow {
	l := format.LocaleOf(ctx)
	r := pages.JobRow{
		Seq: it.Seq, Line: it.Line, Key: it.Key, Old: orDash(format.MessageIn(l, it.OldText)), New: orDash(format.MessageIn(l, it.NewText)),
		Flag: it.Flag, FlagLabel: label(ctx, flagLabels, it.Flag), State: it.State, StateLabel: label(ctx, itemLabels, it.State), Message: gridText(l, it.Message),
		ReadBack: it.ReadBack, ReadLabel: readLabel(ctx, it.ReadBack), ReadText: format.MessageIn(l, it.ReadBackText), Name: massupdate.RowName(it),
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
			r.Delta = sign + format.GridMoneyIn(l.Lang, d)
		}
		if it.OldNum != 0 {
			r.DeltaPct = fmt.Sprintf("%+.1f %%", float64(it.NewNum-it.OldNum)*100/float64(it.OldNum))
			if l.Lang != i18n.EN {
				r.DeltaPct = strings.Replace(r.DeltaPct, ".", ",", 1)
			}
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
		r.Tone, r.FlagLabel = "invalid", i18n.T(ctx, "jobs.flag_doomed")
	}
	if j.State != bulkjobs.StatePreview && it.Flag == bulkjobs.FlagGuard {
		// Once submitted, say what became of the confirmation.
		r.FlagLabel = i18n.T(ctx, "jobs.flag_confirmed")
		if it.State == bulkjobs.ItemSkipped {
			r.FlagLabel = i18n.T(ctx, "jobs.flag_not_confirmed")
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
