package handlers

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/views/paths"
)

// TestListQueryLink keeps link the same as paths.WithQuery(path, values()).
func TestListQueryLink(t *testing.T) {
	t.Parallel()
	for _, q := range []listQuery{
		{Page: 1, Limit: 20, def: 20},
		{Page: 2, Limit: 20, def: 20},
		{Page: 1, Limit: 50, def: 20},
		{Page: 7, Limit: 100, def: 20, Status: "to_delivery"},
		{Page: 1, Limit: 20, def: 20, Status: "a b&c=d/é"},
		{Page: 1_000_000, Limit: 1000, def: 100, Status: "new"},
		{Page: 3, Limit: 50, def: 20, cursor: "YTAuMTIucHJpY2UuMTAw", copy: browse.Filter{Sort: "price", From: "2026-01-02"}},
	} {
		if got, want := q.link("/orders"), paths.WithQuery("/orders", q.values()); got != want {
			t.Errorf("%+v: link %q, want %q", q, got, want)
		}
	}
}
