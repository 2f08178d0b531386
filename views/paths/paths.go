// Package paths names every path the dashboard serves and links to, once:
// the router registers its routes with these names and the handlers and
// views build their links and redirects with them. A path that changes
// for every page (a prefix naming the account, say) changes here only.
//
// Fixed paths are constants; a path with a parameter is a function that
// escapes it, and the router registers the same function given the
// parameter's pattern (Job(":id") is the route "/bulk/jobs/:id").
package paths

import (
	"net/url"
)

// The dashboard's fixed paths.
const (
	Overview     = "/"
	Login        = "/login"
	Logout       = "/logout"
	Language     = "/settings/language"
	Orders       = "/orders"
	OrdersResend = "/orders/resend"
	Nomenclature = "/nomenclature"
	Prices       = "/prices"
	ReturnBoxes  = "/return-boxes"
	BulkImport   = "/bulk/import"
	History      = "/history"
	SyncStatus   = "/sync/status"
	SyncRefresh  = "/sync/refresh"
	SyncForget   = "/sync/forget"
)

// LoggedOut is the login page as a logout leaves it (it says so).
const LoggedOut = Login + "?logged_out=1"

// HistoryExportCSV is the history's CSV download.
const HistoryExportCSV = History + "/export.csv"

// Order is an order's page.
func Order(nr string) string { return Orders + "/" + url.PathEscape(nr) }

// Export is the download of the page a list shows (list is Prices or
// Nomenclature) as ext, "csv" or "xlsx".
func Export(list, ext string) string { return list + "/export." + ext }

// ExportAll is the download of the whole filtered catalogue from the local
// copy as ext, "csv" or "xlsx".
func ExportAll(ext string) string { return Nomenclature + "/export-all." + ext }

// Job is a bulk job's page; the functions below are its actions and
// downloads.
func Job(id string) string { return "/bulk/jobs/" + url.PathEscape(id) }

// JobProgress is a job's progress fragment.
func JobProgress(id string) string { return Job(id) + "/progress" }

// JobSubmit submits a job's preview.
func JobSubmit(id string) string { return Job(id) + "/submit" }

// JobCancel cancels a running job.
func JobCancel(id string) string { return Job(id) + "/cancel" }

// JobRetry previews a job's rows not applied again.
func JobRetry(id string) string { return Job(id) + "/retry" }

// JobRevise previews a retry with its values as edited.
func JobRevise(id string) string { return Job(id) + "/revise" }

// JobReadBack reads a job's rows back from the marketplace.
func JobReadBack(id string) string { return Job(id) + "/readback" }

// JobErrorsCSV downloads a job's rows not applied.
func JobErrorsCSV(id string) string { return Job(id) + "/errors.csv" }

// JobExportCSV downloads every row of a job.
func JobExportCSV(id string) string { return Job(id) + "/export.csv" }

// Filtered is path listing only what key is value ("/orders?status=new").
func Filtered(path, key, value string) string {
	return path + "?" + key + "=" + url.QueryEscape(value)
}

// WithQuery is path with the query q, or the bare path when q is empty.
func WithQuery(path string, q url.Values) string {
	if enc := q.Encode(); enc != "" {
		return path + "?" + enc
	}
	return path
}
