package main

import (
	"context"
	"fmt"
	"log/slog"

	copystore "github.com/sellerdesk/sellerdesk/catalog"
	"github.com/sellerdesk/sellerdesk/sessions"
)

// openCatalog opens the local copy of the sellers' catalogues in the
// session database (its own pools and tables, issue 16) and the manager
// that syncs it in the background under the sessions' per-seller lock. The
// returned close function stops the syncs (they resume from the database
// at the next start) and closes the store.
func openCatalog(ctx context.Context, cfg Config, locks *sessions.Store, log *slog.Logger) (*copystore.Manager, func(), error) {
	store, err := copystore.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("catalogue copy: %w", err)
	}
	m := copystore.NewManager(&copystore.Syncer{Store: store, Lock: locks}, cfg.SyncInterval, cfg.IdleTimeout, log.With("component", "catalog"))
	return m, func() {
		m.Close()
		store.Close()
	}, nil
}
