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
	"context"
	"net/url"
	"strings"
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
	Promotions   = "/promotions"
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

// Products is the prefix of the products' pages; Product(sku) is one.
const Products = "/products"

// Product is a product's page: a marketplace SKU, or in the lamoda profile
// a product card (lamodaParentSku).
func Product(sku string) string { return Products + "/" + url.PathEscape(sku) }

// Export is the download of the page a list shows (list is Prices or
// Nomenclature) as ext, "csv" or "xlsx".
func Export(list, ext string) string { return list + "/export." + ext }

// ExportWhole is the download of every record of a list in the shape of
// its page export (list is Prices or Nomenclature), up to the rows one
// import reads: the import page's "start from your current data".
func ExportWhole(list, ext string) string { return Export(list, ext) + "?all=1" }

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

// Accounts is the page listing the session's accounts, where one is added;
// AccountRemove(id) removes one.
const Accounts = "/accounts"

// AccountRemove removes the account id from the session.
func AccountRemove(id string) string { return Accounts + "/" + url.PathEscape(id) + "/remove" }

// AccountPrefix is the route prefix of an account's pages; the router
// registers every account path under it.
const AccountPrefix = "/a/:account"

// Of is path p of the account id: "/a/{id}/orders".
func Of(id, p string) string { return "/a/" + url.PathEscape(id) + p }

type accountKey struct{}

// WithAccount returns ctx naming the account id whose page is being served:
// In builds that account's links.
func WithAccount(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, accountKey{}, id)
}

// AccountOf returns the account WithAccount put in ctx, or "".
func AccountOf(ctx context.Context) string {
	id, _ := ctx.Value(accountKey{}).(string)
	return id
}

// In is path p of the account whose page ctx serves, so that a link or a
// form of an account's page names that account; without one it is p.
func In(ctx context.Context, p string) string {
	if id := AccountOf(ctx); id != "" {
		return Of(id, p)
	}
	return p
}

// Split parses an account's path into its account and the path within it;
// ok is false for a path outside every account.
func Split(p string) (id, rest string, ok bool) {
	tail, found := strings.CutPrefix(p, "/a/")
	if !found {
		return "", "", false
	}
	id, rest, _ = strings.Cut(tail, "/")
	if id == "" {
		return "", "", false
	}
	return id, "/" + rest, true
}
