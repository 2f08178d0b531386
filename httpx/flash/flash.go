// Package flash names the kinds of one-shot messages a page shows at its
// top after a redirect: what the session stores and the page's CSS class
// come from one closed set.
package flash

// Kind is how a flash message is shown.
type Kind string

// The kinds of flash message.
const (
	OK   Kind = "ok"   // something was done as asked
	Info Kind = "info" // something the user should know
	Warn Kind = "warn" // done, or not, with a reservation
	Bad  Kind = "bad"  // something failed
)

// Of reads a stored kind back; anything outside the set (a session
// written by an older build) shows as Info.
func Of(s string) Kind {
	switch k := Kind(s); k {
	case OK, Info, Warn, Bad:
		return k
	}
	return Info
}
