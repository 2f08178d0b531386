package sessions

import (
	"context"
	"encoding/json"
	"errors"
)

// LoadData returns a copy of a live session's payload by its id, for work
// that runs on a user's behalf outside their requests (a background bulk
// job): it reads their credentials when it needs them, so a logout stops
// it. It returns ErrNotFound when the session does not exist, has expired
// or cannot be opened. It never refreshes the session's activity.
func (st *Store) LoadData(ctx context.Context, sessionID string) (*Data, error) {
	if sessionID == "" {
		return nil, ErrNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, st.opts.OperationTimeout)
	defer cancel()
	rec, err := st.loadRecord(ctx, sessionID)
	if errors.Is(err, ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	now := st.now()
	if !now.Before(rec.CreatedAt.Add(st.opts.AbsoluteTimeout)) || !now.Before(rec.LastSeen.Add(st.opts.IdleTimeout)) || !now.Before(rec.ExpiresAt) {
		return nil, ErrNotFound
	}
	plain, _, err := st.keys.open(rec.Payload, payloadAD(sessionID))
	if err == nil {
		plain, err = unpackPayload(plain)
	}
	if err != nil {
		return nil, ErrNotFound
	}
	data := &Data{}
	if err := json.Unmarshal(plain, data); err != nil {
		return nil, ErrNotFound
	}
	return data, nil
}
