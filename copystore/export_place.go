package copystore

import (
	"context"
	"strconv"
)

// ExportPlace takes the copy's one place for a whole-catalogue export, on
// every instance sharing the database (sqldb.DB.TryLock: in-process on
// SQLite, an advisory lock on PostgreSQL). ok is false when another export
// of the copy holds it; release gives it back (idempotent).
func (s *Store) ExportPlace(ctx context.Context, k Key) (release func(), ok bool, err error) {
	return s.db.TryLock(ctx, exportPlaceKey(k))
}

// exportPlaceKey is the lock key of a copy's export place.
func exportPlaceKey(k Key) string {
	return "copy-export\x00" + strconv.FormatInt(k.SellerID, 10) + "/" + k.Env
}
