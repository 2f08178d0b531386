package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sellerdesk/sellerdesk/httpx/flash"
)

// Data is a session's payload. It is stored sealed (encrypted and
// authenticated) and persisted by Session.Save when it changed. The short
// JSON names keep a logged-in session small in the database.
type Data struct {
	ClientID     string `json:"ci,omitempty"`
	ClientSecret string `json:"cs,omitempty"`
	Environment  string `json:"en,omitempty"`
	DisplayName  string `json:"dn,omitempty"`
	SellerID     int64  `json:"si,omitempty"`
	// Accounts are every account the session holds (see AccountList);
	// the fields above are a copy of the current one.
	Accounts []Account `json:"ac,omitempty"`
	// AddAgain is the account the marketplace last refused (Refuse),
	// without its secret: the form adding an account offers it again.
	AddAgain *Account `json:"aa,omitempty"`
	// Flashes are one-shot messages shown on the next page.
	Flashes []Flash `json:"fl,omitempty"`
	// ReturnTo is the local path to go back to after logging in.
	ReturnTo string `json:"rt,omitempty"`
	// Drafts keeps submitted form values by form name, so that a form
	// survives a detour through the login page.
	Drafts map[string]url.Values `json:"dr,omitempty"`
	// Values holds the string values set through the gorilla/sessions
	// interface (Store.Get / sessions.Session.Values).
	Values map[string]string `json:"v,omitempty"`

	// home is the ID of the account current before ActAs, which the
	// session keeps as current; "" when no request acts on another.
	home string
}

// String describes d without its client secret, so that printing a session
// by mistake leaks nothing.
func (d Data) String() string {
	return fmt.Sprintf("sessions.Data{ClientID:%q Environment:%q SellerID:%d ClientSecret:%s Flashes:%d Drafts:%d}",
		d.ClientID, d.Environment, d.SellerID, redacted(d.ClientSecret), len(d.Flashes), len(d.Drafts))
}

// GoString is String, so that %#v redacts too.
func (d Data) GoString() string { return d.String() }

// LogValue describes d for log/slog without its client secret.
func (d Data) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("client_id", d.ClientID),
		slog.String("environment", d.Environment),
		slog.Int64("seller_id", d.SellerID),
		slog.String("client_secret", redacted(d.ClientSecret)),
	)
}

func redacted(s string) string {
	if s == "" {
		return `""`
	}
	return "[redacted]"
}

// Flash is a one-shot message for the next page.
type Flash struct {
	// Kind is how the page shows it.
	Kind flash.Kind `json:"k,omitempty"`
	Text string     `json:"t"`
}

// StoredToken is an API token kept with a session, sealed separately from
// the payload (see Store.SaveToken).
type StoredToken struct {
	AccessToken  string    `json:"a,omitempty"`
	RefreshToken string    `json:"r,omitempty"`
	IssuedAt     time.Time `json:"i"`
	ExpiresAt    time.Time `json:"e"`
}

// String describes t without its secrets.
func (t StoredToken) String() string {
	return fmt.Sprintf("sessions.StoredToken{AccessToken:%s RefreshToken:%s IssuedAt:%s ExpiresAt:%s}",
		redacted(t.AccessToken), redacted(t.RefreshToken), t.IssuedAt.Format(time.RFC3339), t.ExpiresAt.Format(time.RFC3339))
}

// GoString is String, so that %#v redacts too.
func (t StoredToken) GoString() string { return t.String() }

// LogValue describes t for log/slog without its secrets.
func (t StoredToken) LogValue() slog.Value {
	return slog.GroupValue(slog.Time("issued_at", t.IssuedAt), slog.Time("expires_at", t.ExpiresAt))
}

// Session is one browser's session for the duration of a request. It is not
// safe for concurrent use; load it once per request.
type Session struct {
	store      *Store
	cookieName string

	id            string // current id; after Renew the id the next Save creates
	oldID         string // the stored id that Renew replaces
	persisted     bool   // a row exists (under oldID while renewing)
	isNew         bool
	renew         bool
	destroyed     bool
	cookieExpired bool // the deleting cookie was written

	createdAt time.Time
	data      *Data
	// snapshot is the payload as last loaded or saved (nil when not
	// known), shared with the store's cache and never changed: Save finds
	// an unchanged payload by comparing data with it, without encoding.
	snapshot *Data
	loaded   []byte // the plaintext as last loaded or saved: Save writes only changes
	stale    bool   // sealed under an old key: re-seal on the next Save
	// cookieStale marks a cookie signed by an old key: Save re-signs it,
	// so active users survive the old key's removal.
	cookieStale bool
	pending     map[string]StoredToken
	// readTokens are the tokens read together with the session (nil for
	// a session that was not loaded from the store).
	readTokens *readTokens
}

// ID returns the session id. After Renew it is the id that the next Save
// stores. Treat it as a secret: it is what the cookie authenticates.
func (s *Session) ID() string { return s.id }

// IsNew reports whether the request carried no valid session and nothing has
// been saved yet.
func (s *Session) IsNew() bool { return s.isNew }

// Data returns the payload for reading and changing; Save persists changes.
func (s *Session) Data() *Data { return s.data }

// LoggedIn reports whether the session holds credentials: a client id and a
// client secret. Wiping the secret logs the session out.
func (s *Session) LoggedIn() bool {
	return !s.destroyed && s.data.ClientID != "" && s.data.ClientSecret != ""
}

// Renew gives the session a new id on the next Save and deletes the old
// record then, so an id known before login is worthless after it (session
// fixation). Tokens are not carried over: renewal marks a new login, whose
// tokens belong to the new credentials. The absolute lifetime restarts.
func (s *Session) Renew() {
	if s.destroyed {
		return
	}
	if s.persisted && !s.renew {
		s.oldID = s.id
		s.renew = true
	}
	s.id = newID()
	s.readTokens = nil
}

// Destroy deletes the session record on the next Save and expires the
// cookie, as at logout. The Session is empty afterwards.
func (s *Session) Destroy() {
	s.destroyed = true
	s.data = &Data{}
	s.pending = nil
	s.readTokens = nil
}

// AddFlash queues a one-shot message for the next page.
func (s *Session) AddFlash(kind flash.Kind, text string) {
	s.data.Flashes = append(s.data.Flashes, Flash{Kind: kind, Text: text})
}

// PopFlashes returns the queued messages and removes them from the session
// (persisted by the next Save).
func (s *Session) PopFlashes() []Flash {
	f := s.data.Flashes
	s.data.Flashes = nil
	return f
}

// SetReturnTo remembers target as the page to return to after logging in.
// Only local paths are accepted (see IsLocalPath); it reports whether target
// was kept.
func (s *Session) SetReturnTo(target string) bool {
	if !IsLocalPath(target) {
		return false
	}
	s.data.ReturnTo = target
	return true
}

// PopReturnTo returns the remembered page, or fallback when there is none,
// and forgets it.
func (s *Session) PopReturnTo(fallback string) string {
	t := s.data.ReturnTo
	s.data.ReturnTo = ""
	if !IsLocalPath(t) {
		return fallback
	}
	return t
}

// MaxDraftBytes bounds one form draft, so that a huge form cannot bloat
// every later request's session.
const MaxDraftBytes = 32 << 10

// SetDraft keeps the values of a form under its name, for the current
// account. A draft larger than
// MaxDraftBytes once encoded is not kept; SetDraft reports whether it was.
func (s *Session) SetDraft(form string, v url.Values) bool {
	if len(v.Encode()) > MaxDraftBytes {
		return false
	}
	if s.data.Drafts == nil {
		s.data.Drafts = make(map[string]url.Values)
	}
	s.data.Drafts[s.draftName(form)] = v
	return true
}

// draftName is the name a form's draft is kept under: the form's, of the
// current account, so that one account's unsent edits or outcomes never
// show on another's page.
func (s *Session) draftName(form string) string {
	if s.data.ClientID == "" {
		return form
	}
	return s.data.Current().ID() + "/" + form
}

// Draft returns the kept values of a form, or nil.
func (s *Session) Draft(form string) url.Values { return s.data.Drafts[s.draftName(form)] }

// PopDraft returns the kept values of a form, or nil, and forgets them.
func (s *Session) PopDraft(form string) url.Values {
	form = s.draftName(form)
	v := s.data.Drafts[form]
	delete(s.data.Drafts, form)
	if len(s.data.Drafts) == 0 {
		s.data.Drafts = nil
	}
	return v
}

// SetToken stages a token to be stored by the next Save, after the session
// record exists. Login uses it: a new or renewed session has no record until
// Save, so Store.SaveToken would return ErrNotFound before then.
func (s *Session) SetToken(name string, t StoredToken) {
	if s.pending == nil {
		s.pending = make(map[string]StoredToken)
	}
	s.pending[name] = t
}

// IsLocalPath reports whether target is a path on this site, safe to
// redirect to: it starts with a single "/", and has no scheme, host,
// backslash or control character (refusing "//evil.example", "/\evil" and
// percent-encoded tricks that browsers would normalise into those).
func IsLocalPath(target string) bool {
	if target == "" || target[0] != '/' || len(target) > 2048 {
		return false
	}
	if strings.HasPrefix(target, "//") || strings.ContainsAny(target, "\\") {
		return false
	}
	for _, c := range target {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return false
	}
	// Decoded, the path must still be local: "/%2F%2Fevil" and "/%5Cevil"
	// become "//evil" and "/\evil" in some redirect handling.
	p := u.Path
	if strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\") {
		return false
	}
	for _, c := range p {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// emptyPayload is the encoding of an empty Data.
var emptyPayload = []byte("{}")

// Save persists the session: it creates the record of a new session that
// holds something (an empty new session stores nothing and sets no cookie),
// performs a pending Renew or Destroy, writes the payload only if it changed
// (so a request that did not touch it never overwrites another's), and
// stores tokens staged with SetToken.
//
// A session whose record was deleted meanwhile (logout in another tab or on
// another instance) is not recreated: Save expires the cookie, empties the
// Session and returns nil, so the user is simply logged out.
func (s *Session) Save(r *http.Request, w http.ResponseWriter) error {
	st := s.store
	ctx := r.Context()
	now := st.now()

	if s.destroyed {
		for _, id := range []string{s.oldID, s.id} {
			if id == "" || !s.persisted {
				continue
			}
			if err := st.delete(ctx, id); err != nil {
				return err
			}
		}
		s.persisted, s.renew, s.oldID, s.isNew = false, false, "", true
		if !s.cookieExpired { // one Set-Cookie however often the session is saved
			st.expireCookie(w, r, s.cookieName)
			s.cookieExpired = true
		}
		return nil
	}

	// A payload equal field by field to the one loaded is unchanged: only
	// a new, renewed or resealed one, or one that differs, is encoded.
	unchanged := s.persisted && !s.renew && !s.stale && s.snapshot != nil && s.data.equal(s.snapshot)
	var plain []byte
	if !unchanged {
		st.encodes.Add(1)
		var err error
		if plain, err = json.Marshal(s.data); err != nil {
			return fmt.Errorf("sessions: encode payload: %w", err)
		}
	}

	switch {
	case unchanged:
	case !s.persisted || s.renew:
		if !s.persisted && bytes.Equal(plain, emptyPayload) && len(s.pending) == 0 {
			return nil // nothing worth a record: spare the database anonymous visitors
		}
		sealed := st.keys.seal(packPayload(plain), payloadAD(s.id))
		rec := Record{
			ID:        s.id,
			Payload:   sealed,
			CreatedAt: now,
			LastSeen:  now,
			ExpiresAt: st.expiresAt(now, now),
		}
		if err := st.create(ctx, rec); err != nil {
			return err
		}
		if s.renew {
			// Delete the old record only once the new one exists, so a
			// failure leaves the user logged in rather than logged out;
			// the error still reaches the caller, since the old id must
			// not stay valid silently.
			if err := st.delete(ctx, s.oldID); err != nil {
				// Drop the new record too (best effort) and pick another
				// id, so that a retried Save starts clean.
				_ = st.delete(ctx, s.id)
				s.id = newID()
				return err
			}
		}
		s.persisted, s.renew, s.oldID, s.isNew = true, false, "", false
		s.createdAt = now
		s.loaded, s.stale, s.cookieStale = plain, false, false
		s.written(sealed, plain)
		if err := st.setCookie(w, r, s.cookieName, s.id); err != nil {
			return err
		}
	case s.stale || !bytes.Equal(plain, s.loaded):
		sealed := st.keys.seal(packPayload(plain), payloadAD(s.id))
		err := st.updatePayload(ctx, s.id, sealed, now, st.expiresAt(s.createdAt, now))
		if errors.Is(err, ErrNotFound) {
			s.gone(w, r)
			return nil
		}
		if err != nil {
			return err
		}
		s.loaded, s.stale = plain, false
		s.written(sealed, plain)
	}
	if s.cookieStale {
		if err := st.setCookie(w, r, s.cookieName, s.id); err != nil {
			return err
		}
		s.cookieStale = false
	}

	for name, t := range s.pending {
		err := st.SaveToken(ctx, s.id, name, t)
		if errors.Is(err, ErrNotFound) {
			s.gone(w, r)
			return nil
		}
		if err != nil {
			return err
		}
		delete(s.pending, name)
	}
	return nil
}

// written records the payload just stored, sealed and in plain, as the
// session's snapshot and in the store's cache, decoded from plain (what
// every instance reads back, not the page's own structure). A payload
// that does not decode is not kept.
func (s *Session) written(sealed, plain []byte) {
	snap, err := s.store.decodePayload(plain)
	if err != nil {
		s.snapshot = nil
		s.store.decoded.drop(s.id)
		return
	}
	s.snapshot = snap
	s.store.decoded.put(s.id, &decodedEntry{sealed: sealed, plain: plain, data: snap, current: true})
}

// gone handles a record deleted by someone else: the session ends here too.
func (s *Session) gone(w http.ResponseWriter, r *http.Request) {
	s.store.log.DebugContext(r.Context(), "sessions: session deleted elsewhere; not recreating it", "session", idTag(s.id))
	s.persisted, s.renew, s.oldID = false, false, ""
	s.store.decoded.drop(s.id)
	s.Destroy()
	s.store.expireCookie(w, r, s.cookieName)
}
