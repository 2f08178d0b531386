// Package sqldb holds what every store of the dashboard's database shares.
// For now: making a SQLite database file private before SQLite opens it.
package sqldb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// PrivateMode is the permission of the database files: sessions, sealed
// tokens and job payloads are for the dashboard's own user alone.
const PrivateMode fs.FileMode = 0o600

// PrepareSQLiteFile makes sure the SQLite database at path exists with
// PrivateMode before SQLite opens it: SQLite creates its -wal and -shm
// files with the permissions of the database file, so they follow. Files
// left readable by others by an earlier version are tightened.
func PrepareSQLiteFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, PrivateMode)
	if err != nil {
		return fmt.Errorf("sqldb: create %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("sqldb: create %s: %w", path, err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sqldb: %w", err)
		}
		if st.Mode().Perm()&^PrivateMode != 0 {
			if err := os.Chmod(p, PrivateMode); err != nil {
				return fmt.Errorf("sqldb: make %s private: %w", p, err)
			}
		}
	}
	return nil
}
