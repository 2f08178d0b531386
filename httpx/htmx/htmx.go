// Package htmx reads what htmx says about a request and answers in the
// headers it understands: whether a request came from htmx, whether it
// wants a fragment or a whole page, and a redirect that htmx follows.
package htmx

import "net/http"

// The request and response headers of htmx used by the dashboard.
const (
	HeaderRequest        = "HX-Request"
	HeaderBoosted        = "HX-Boosted"
	HeaderHistoryRestore = "HX-History-Restore-Request"
	HeaderRedirect       = "HX-Redirect"
	HeaderRetarget       = "HX-Retarget"
	HeaderReswap         = "HX-Reswap"
	HeaderTarget         = "HX-Target"
)

// IsRequest reports whether htmx sent r.
func IsRequest(r *http.Request) bool {
	return r.Header.Get(HeaderRequest) == "true"
}

// WantsFragment reports whether the answer to r should be a fragment
// rather than a whole page: an htmx request that is neither boosted nor a
// history restore (both of which replace the whole body).
func WantsFragment(r *http.Request) bool {
	return IsRequest(r) && r.Header.Get(HeaderBoosted) != "true" && r.Header.Get(HeaderHistoryRestore) != "true"
}

// WantsTarget reports whether r is htmx aimed at the element id (a list's
// live search aims at its results) and not a history restore, which wants
// the whole page.
func WantsTarget(r *http.Request, id string) bool {
	return IsRequest(r) && r.Header.Get(HeaderTarget) == id && r.Header.Get(HeaderHistoryRestore) != "true"
}

// Redirect sends the browser to the local path to: a 303 for a plain
// request, an empty 200 with HX-Redirect for htmx (which would otherwise
// follow a 303 itself and swap the target page into a fragment).
func Redirect(w http.ResponseWriter, r *http.Request, to string) {
	if IsRequest(r) {
		w.Header().Set(HeaderRedirect, to)
		w.WriteHeader(http.StatusOK)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// Retarget makes htmx swap the answer's body into the element target
// selects, with swap ("innerHTML", "outerHTML", ...), whatever the request
// asked for: an error lands in the flash area, not in the form.
func Retarget(h http.Header, target, swap string) {
	h.Set(HeaderRetarget, target)
	h.Set(HeaderReswap, swap)
}
