package main

import (
	"context"
	"fmt"
	"log/slog"

	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// openCatalog opens the local copy of the sellers' catalogues on the one
// database (its own tables, issue 16) and the manager
// that syncs it in the background under the sessions' per-seller lock. The
// returned close function stops the syncs (they resume from the database
// at the next start).
func openCatalog(ctx context.Context, db *sqldb.DB, cfg Config, locks *sessions.Store, log *slog.Logger) (*copystore.Manager, func(), error) {
	store, err := copystore.New(ctx, db)
	if err != nil {
		return nil, nil, fmt.Errorf("catalogue copy: %w", err)
	}
	m := copystore.NewManager(&copystore.Syncer{Store: store, Lock: locks}, cfg.SyncInterval, cfg.IdleTimeout, log.With("component", "catalog"))
	return m, m.Close, nil
}
