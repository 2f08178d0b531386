// Command web serves the Seller Desk dashboard. With no configuration it
// runs in demo mode against the built-in marketplace sandbox. Its settings
// are the SELLERDESK_* environment variables (app.LoadSettings);
// -version, -healthcheck and `backup PATH` are described by app.Main.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/sellerdesk/sellerdesk/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	app.TuneGC()
	code := app.Main(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
