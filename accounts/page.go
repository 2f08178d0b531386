package accounts

import (
	"context"
	"time"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// Account is a marketplace account bound to its credentials and tokens,
// as Current, Detached and Job hand it out.
type Account = apiclient.Account

// Page is the marketplace side of one page: the bounds its reads keep and
// the tally of the records their answers left out because they could not
// be read (the page's frame says how many). The zero Page is ready; it is
// safe for concurrent use.
type Page struct {
	skips apiclient.Skips
}

// Context is ctx for the page's marketplace reads: bounded by timeout
// (unless ctx already ends as soon; 0 sets no bound), waiting out the
// marketplace's 429 and 503 answers for at most retry before giving up,
// and tallying in p the records the answers leave out. cancel releases
// the bound; call it when the page is done.
func (p *Page) Context(ctx context.Context, timeout, retry time.Duration) (context.Context, context.CancelFunc) {
	cancel := context.CancelFunc(func() {})
	if dl, ok := ctx.Deadline(); timeout > 0 && (!ok || time.Until(dl) > timeout) {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	return apiclient.WithRetryBudget(apiclient.WithSkips(ctx, &p.skips), retry), cancel
}

// Skipped is how many records the page's reads left out, why the first
// could not be read (bounded, never quoting the data) and the request id
// of the marketplace answer that held it.
func (p *Page) Skipped() (n int, reason, upstreamID string) {
	reason, upstreamID = p.skips.First()
	return p.skips.Count(), reason, upstreamID
}
