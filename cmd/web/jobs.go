package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
)

// openJobs opens the bulk job store in the process's database (its own
// tables) and the runner that sends submitted jobs. The
// returned close function lets every running job finish its chunk in
// flight (bounded by 30 s) so the next start resumes after it.
func openJobs(ctx context.Context, db *sqldb.DB, cfg Config, log *slog.Logger) (*bulkjobs.Runner, func(), error) {
	opts := bulkjobs.RunnerOptions{GuardPercent: cfg.BulkGuardPercent, ReadBackDelay: cfg.BulkReadBackDelay, Logger: log.With("component", "bulkjobs"),
		Owner: instanceName(cfg)}
	store, err := bulkjobs.NewStore(ctx, db)
	if err != nil {
		return nil, nil, fmt.Errorf("bulk job store: %w", err)
	}
	runner := bulkjobs.NewRunner(store, opts)
	return runner, func() {
		cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := runner.Close(cctx); err != nil {
			log.Warn("bulk jobs: stopped without waiting for the chunk in flight", "err", err)
		}
	}, nil
}

// instanceName names this dashboard in job leases: the host and the listen
// address, the same after a restart (so the instance takes its own jobs
// back at once) and different for every instance that can listen beside
// it on one host.
func instanceName(cfg Config) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return host + "/" + cfg.Addr
}
