package browse

import (
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
)

func TestFreshnessOf(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	done := func(at time.Time) copystore.SyncState { return copystore.SyncState{CompletedAt: at} }
	all := func(st map[string]copystore.SyncState) map[string]copystore.SyncState {
		for _, k := range copystore.Kinds {
			if _, ok := st[k]; !ok {
				st[k] = done(now.Add(-time.Hour))
			}
		}
		return st
	}
	for _, tc := range []struct {
		name    string
		states  map[string]copystore.SyncState
		running bool
		want    Freshness
	}{
		{"no copy", nil, false, Freshness{}},
		{"complete, as of the oldest list", all(map[string]copystore.SyncState{copystore.KindOrders: done(now.Add(-3 * time.Hour))}), false,
			Freshness{Complete: true, AsOf: now.Add(-3 * time.Hour)}},
		{"stopped", all(map[string]copystore.SyncState{copystore.KindBoxes: {CompletedAt: now.Add(-time.Hour), LastError: copystore.StopForbidden}}), false,
			Freshness{Complete: true, AsOf: now.Add(-time.Hour), Stop: copystore.StopForbidden}},
		{"running and waiting, the stop forgotten", map[string]copystore.SyncState{
			copystore.KindNomenclature: {Running: true, NextPage: 3, Pages: 9, WaitUntil: now.Add(time.Minute), LastError: "boom"}}, false,
			Freshness{Running: true, Kind: copystore.KindNomenclature, Page: 3, Pages: 9, WaitUntil: now.Add(time.Minute)}},
		{"a wait past", map[string]copystore.SyncState{copystore.KindOrders: {Running: true, WaitUntil: now.Add(-time.Minute)}}, false,
			Freshness{Running: true, Kind: copystore.KindOrders}},
		{"started here, no list begun", map[string]copystore.SyncState{copystore.KindOrders: {LastError: "boom"}}, true, Freshness{Running: true}},
	} {
		if got := FreshnessOf(tc.states, tc.running, now); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
