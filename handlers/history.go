package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/views/components"
	"github.com/sellerdesk/sellerdesk/views/format"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// historyPageSize is the number of jobs per history page.
const historyPageSize = 50

// HistoryList shows every bulk job of the seller, newest first, kept until
// deleted.
func (a *App) HistoryList(c echo.Context) error {
	page := 1
	if p, err := strconv.Atoi(c.QueryParam("page")); err == nil && p >= 1 && p <= 1_000_000 {
		page = p
	}
	jobs, total, err := a.deps.Jobs.Store().Jobs(c.Request().Context(), session(c).Data().SellerID, session(c).Data().Environment, historyPageSize, (page-1)*historyPageSize)
	if err != nil {
		return errSessionStore(err)
	}
	v := pages.HistoryView{Total: total}
	npages := (total + historyPageSize - 1) / historyPageSize
	v.Pager = components.NewPager(page, npages, total, func(p int) string {
		if p == 1 {
			return "/history"
		}
		return "/history?page=" + strconv.Itoa(p)
	})
	for _, j := range jobs {
		state, tone := jobStateLabel(j)
		v.Jobs = append(v.Jobs, pages.HistoryRow{
			ID: j.ID, Href: "/bulk/jobs/" + j.ID, ExportHref: "/bulk/jobs/" + j.ID + "/export.csv", DeleteURL: "/history/" + j.ID + "/delete",
			When: format.DateTime(j.CreatedAt), Who: whoText(j), Environment: j.Environment, Kind: jobTitle(j), FileName: j.FileName,
			State: state, StateTone: tone, Rows: j.Counts.Rows, Sent: j.Counts.Sent(), Accepted: j.Counts.Accepted, Rejected: j.Counts.Rejected,
			Unsent: j.Counts.Unsent, Held: j.Counts.Held, ReadBack: readBackShort(j), CanDelete: !j.Active(),
		})
	}
	return a.render(c, http.StatusOK, pages.HistoryPage(a.chrome(c, "History", "history"), v), nil)
}

func readBackShort(j bulkjobs.Job) string {
	switch {
	case j.ReadBackAt.IsZero():
		return "—"
	case j.ReadBackDoneAt.IsZero():
		return "pending"
	}
	c := j.Counts
	return strconv.Itoa(c.Confirmed) + " confirmed, " + strconv.Itoa(c.Processing) + " processing, " + strconv.Itoa(c.Different) + " different"
}

// HistoryExportCSV downloads the list of every job of the seller.
func (a *App) HistoryExportCSV(c echo.Context) error {
	sheet := bulkjobs.Sheet{Name: "History", Numeric: map[int]bool{8: true, 9: true, 10: true, 11: true, 12: true, 13: true},
		Header: []string{"Job", "Created", "Submitted", "Client id", "Name", "Environment", "Kind", "File", "Rows", "Sent", "Accepted", "Rejected", "Not sent", "Held", "State", "Read-back"}}
	seller := session(c).Data().SellerID
	for offset := 0; ; offset += 500 {
		jobs, _, err := a.deps.Jobs.Store().Jobs(c.Request().Context(), seller, session(c).Data().Environment, 500, offset)
		if err != nil {
			return errSessionStore(err)
		}
		for _, j := range jobs {
			state, _ := jobStateLabel(j)
			sub := ""
			if !j.SubmittedAt.IsZero() {
				sub = j.SubmittedAt.Format("2006-01-02 15:04:05")
			}
			cn := j.Counts
			sheet.Rows = append(sheet.Rows, []string{j.ID, j.CreatedAt.Format("2006-01-02 15:04:05"), sub, j.ClientID, j.DisplayName, j.Environment, j.Kind, j.FileName,
				strconv.Itoa(cn.Rows), strconv.Itoa(cn.Sent()), strconv.Itoa(cn.Accepted), strconv.Itoa(cn.Rejected), strconv.Itoa(cn.Unsent), strconv.Itoa(cn.Held),
				state, readBackShort(j)})
		}
		if len(jobs) < 500 {
			break
		}
	}
	return a.sendSheet(c, sheet, "csv", bulkjobs.FileName("csv", "history", "seller-"+strconv.FormatInt(seller, 10)))
}

// HistoryDelete removes a finished job from the history.
func (a *App) HistoryDelete(c echo.Context) error {
	job, err := a.ownJob(c)
	if err != nil {
		return err
	}
	if job.Active() {
		session(c).AddFlash("warn", "A running job cannot be deleted: cancel it first.")
		return a.redirect(c, "/history")
	}
	if err := a.deps.Jobs.Store().Delete(c.Request().Context(), job.ID); err != nil {
		return errSessionStore(err)
	}
	session(c).AddFlash("ok", "The job was deleted from the history.")
	return a.redirect(c, "/history")
}
