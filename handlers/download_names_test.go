package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// days are the dates a download taken between before and now (the
// dashboard's clock, the sandbox's in tests) may carry in zone: a test
// running over midnight sees either.
func days(zone *time.Location, before time.Time, now func() time.Time) []string {
	return []string{before.In(zone).Format(time.DateOnly), now().In(zone).Format(time.DateOnly)}
}

// dated fails unless the download's name is prefix, one of days, ext.
func dated(t *testing.T, what string, resp *http.Response, prefix string, days []string, ext string) {
	t.Helper()
	cd := resp.Header.Get("Content-Disposition")
	for _, d := range days {
		if strings.Contains(cd, `filename="`+prefix+d+"."+ext+`"`) {
			return
		}
	}
	t.Errorf("%s: %d %q, want %s<%s>.%s", what, resp.StatusCode, cd, prefix, days[1], ext)
}

// TestDownloadNamesCarryTheDate: every download's name ends with the day
// it was taken in the dashboard's zone: the page exports, the job's rows
// and errors, the history (with its date range when filtered by dates).
func TestDownloadNamesCarryTheDate(t *testing.T) {
	msk, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	e := newBulkEnv(t, sandbox.Options{}, 10, bulkjobs.RunnerOptions{})
	b := e.browser()
	before := e.sb.Now()
	for _, ext := range []string{"csv", "xlsx"} {
		resp, _ := download(t, e, b, "/prices/export."+ext+"?page=2&limit=50")
		dated(t, "page export", resp, "prices_seller-1001_test_page-2_limit-50_", days(msk, before, e.sb.Now), ext)
		resp, _ = download(t, e, b, "/nomenclature/export."+ext+"?all=1")
		dated(t, "whole export", resp, "nomenclature_seller-1001_test_all_", days(msk, before, e.sb.Now), ext)
	}
	id := jobIDOf(t, upload(t, e, b, "prices.csv", priceCSV(t, e, 5), "prices"))
	resp, _ := download(t, e, b, "/bulk/jobs/"+id+"/export.csv")
	dated(t, "job rows", resp, "job_"+id+"_prices_rows_", days(msk, before, e.sb.Now), "csv")
	resp, _ = download(t, e, b, "/bulk/jobs/"+id+"/errors.csv")
	dated(t, "job errors", resp, "job_"+id+"_prices_errors_", days(msk, before, e.sb.Now), "csv")
	resp, _ = download(t, e, b, "/history/export.csv")
	dated(t, "history", resp, "history_seller-1001_", days(msk, before, e.sb.Now), "csv")
	resp, _ = download(t, e, b, "/history/export.csv?from=2026-10-01&to=2026-11-27&q=x")
	dated(t, "history by dates", resp, "history_seller-1001_2026-10-01--2026-11-27_", days(msk, before, e.sb.Now), "csv")
	resp, _ = download(t, e, b, "/history/export.csv?from=2026-10-01")
	dated(t, "history from a date", resp, "history_seller-1001_from-2026-10-01_", days(msk, before, e.sb.Now), "csv")
}

// TestDownloadNameZone: the day is the dashboard's zone's
// (SELLERDESK_TIMEZONE), here one whose date is not UTC's at the time
// (14 hours ahead of it, or 12 behind), for the whole catalogue's export
// from the copy too.
func TestDownloadNameZone(t *testing.T) {
	start := sandbox.New(sandbox.Options{}).Now()
	zone := time.FixedZone("UTC+14", 14*3600)
	if start.In(zone).Day() == start.UTC().Day() {
		zone = time.FixedZone("UTC-12", -12*3600)
	}
	app := testapp.New(t, testapp.Options{Sandbox: sandbox.Options{ProductsPerSeller: 10}, Catalog: true, Zone: zone})
	b := app.Browser(t)
	b.LoginDemo()
	copyDone(t, app, 1)
	before := app.Sandbox.Now()
	resp, _ := getCSV(t, app, b, "/nomenclature/export-all.csv")
	dated(t, "whole catalogue", resp, "nomenclature_seller-1001_test_all_", days(zone, before, app.Sandbox.Now), "csv")
}
