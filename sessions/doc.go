// Package sessions is Seller Desk's server-side session store.
//
// The browser cookie carries only a random 256-bit session id, signed with an
// HMAC key derived (HKDF-SHA256) from the session key. Everything else
// (credentials, tokens, flash messages, form drafts) lives in a database,
// sealed with XChaCha20-Poly1305 under another key derived from the same
// session key, with the session id as additional data so that rows cannot be
// swapped between sessions. Each sealed value starts with a 4-byte key id, so
// that after a key rotation the right key opens it at once.
//
// Tokens are stored apart from the payload, one row per (session, name), so
// that a token refresh by one request is never undone by another request that
// saves the payload later; and Session.Save writes the payload only when the
// request changed it. Only Backend.Create inserts a session row: a logout
// (Destroy) is never undone by a slow request that saves afterwards.
//
// Two backends implement [Backend], on the database the process opened once
// with internal/sqldb: SQLite (the embedded default, pure Go) and PostgreSQL
// (several dashboard instances sharing sessions); [NewBackend] picks the one
// for the database and migrates the schema (component "sessions" of sqldb's
// migrations table):
//
//	sessions(id text primary key, payload blob, created_at, last_seen, expires_at)
//	session_tokens(session_id references sessions on delete cascade, name, sealed blob, updated_at,
//	               primary key (session_id, name))
//
// expires_at is the earlier of the absolute deadline (created_at + 7 days)
// and the idle deadline (last_seen + 8 h); reads slide last_seen at most once
// a minute, and [Store.StartPurger] deletes expired rows in bounded batches.
//
// [Store] implements gorilla's sessions.Store interface and offers the typed
// API that the dashboard uses: [Store.Load], [Session.Data], [Session.Save].
// A new or renewed session has no row until Save, so at login either Save
// before calling [Store.SaveToken] or stage the tokens with
// [Session.SetToken]. This package is the only importer of gorilla/sessions
// in the module.
package sessions
