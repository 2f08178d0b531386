// Command web serves the Seller Desk dashboard. With no configuration it
// runs in demo mode against the built-in marketplace sandbox. Its settings
// are the SELLERDESK_* environment variables (internal/app.LoadSettings).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/sellerdesk/sellerdesk/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	app.TuneGC()
	if err := app.Serve(ctx, os.Getenv, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "sellerdesk:", err)
		os.Exit(1)
	}
}
