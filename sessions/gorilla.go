package sessions

import (
	"fmt"
	"net/http"

	gsessions "github.com/gorilla/sessions"
)

// Store implements gorilla's sessions.Store, for code (such as Echo's
// session middleware) written against that interface.
var _ gsessions.Store = (*Store)(nil)

// typedKey is the gorilla Values key under which the typed *Session
// travels; being an unexported type it cannot collide with user keys.
type typedKey struct{}

// gorillaFlashesKey is where gorilla's AddFlash/Flashes keep flashes.
const gorillaFlashesKey = "_flash"

// CookieName is the name of the session cookie: the session name to give
// Get and New.
func (st *Store) CookieName() string { return st.opts.CookieName }

// Get returns the named session of the request, cached in gorilla's
// per-request registry. The name is the cookie name.
func (st *Store) Get(r *http.Request, name string) (*gsessions.Session, error) {
	return gsessions.GetRegistry(r).Get(st, name)
}

// New loads the named session (the name is the cookie name) as a gorilla
// session. Its Values hold the string values of Data.Values and gorilla
// flashes; like Load, a bad cookie yields a new session. On a database
// failure it returns a new session and an error wrapping ErrUnavailable.
func (st *Store) New(r *http.Request, name string) (*gsessions.Session, error) {
	s, err := st.load(r, name)
	if err != nil {
		s = st.newSession(name)
	}
	gs := gsessions.NewSession(st, name)
	gs.ID = s.id
	gs.IsNew = s.isNew
	gs.Options = &gsessions.Options{
		Path:     "/",
		MaxAge:   int(st.opts.AbsoluteTimeout.Seconds()),
		HttpOnly: true,
		Secure:   st.isSecure(r),
		SameSite: http.SameSiteLaxMode,
	}
	for k, v := range s.data.Values {
		gs.Values[k] = v
	}
	var flashes []any
	for _, f := range s.data.Flashes {
		if f.Kind == "" {
			flashes = append(flashes, f.Text)
		}
	}
	if len(flashes) > 0 {
		gs.Values[gorillaFlashesKey] = flashes
	}
	gs.Values[typedKey{}] = s
	return gs, err
}

// Save persists a gorilla session through its typed Session. Values must
// have string keys and string values (gorilla flashes: strings); a negative
// Options.MaxAge destroys the session, as gorilla's own stores do.
func (st *Store) Save(r *http.Request, w http.ResponseWriter, gs *gsessions.Session) error {
	s, _ := gs.Values[typedKey{}].(*Session)
	if s == nil {
		s = st.newSession(gs.Name())
		gs.Values[typedKey{}] = s
	}
	if gs.Options != nil && gs.Options.MaxAge < 0 {
		s.Destroy()
	} else {
		var values map[string]string // made at the first value: most sessions have none
		var flashes []Flash
		for _, f := range s.data.Flashes {
			if f.Kind != "" {
				flashes = append(flashes, f) // typed flashes are not visible to gorilla
			}
		}
		for k, v := range gs.Values {
			if _, ok := k.(typedKey); ok {
				continue
			}
			ks, ok := k.(string)
			if !ok {
				return fmt.Errorf("sessions: session value key of type %T; only strings are stored", k)
			}
			if ks == gorillaFlashesKey {
				list, _ := v.([]any)
				for _, f := range list {
					text, ok := f.(string)
					if !ok {
						return fmt.Errorf("sessions: flash of type %T; only strings are stored", f)
					}
					flashes = append(flashes, Flash{Text: text})
				}
				continue
			}
			vs, ok := v.(string)
			if !ok {
				return fmt.Errorf("sessions: session value %q of type %T; only strings are stored", ks, v)
			}
			if values == nil {
				values = make(map[string]string)
			}
			values[ks] = vs
		}
		s.data.Values = values
		s.data.Flashes = flashes
	}
	if err := s.Save(r, w); err != nil {
		return err
	}
	gs.ID = s.id
	gs.IsNew = s.isNew
	return nil
}

// FromGorilla returns the typed Session behind a gorilla session obtained
// from Store.Get or Store.New.
func FromGorilla(gs *gsessions.Session) (*Session, bool) {
	s, ok := gs.Values[typedKey{}].(*Session)
	return s, ok
}
