package pages

import "testing"

// TestSyncViewPolls: the freshness line reloads itself while a sync runs
// and while the first full copy is still to come, and stops once a copy
// exists or something went wrong.
func TestSyncViewPolls(t *testing.T) {
	for _, c := range []struct {
		name string
		v    SyncView
		want bool
	}{
		{"running", SyncView{Poll: "/sync/status", Running: true, AsOf: "14:02"}, true},
		{"no full copy yet, nothing running", SyncView{Poll: "/sync/status"}, true},
		{"a full copy, idle", SyncView{Poll: "/sync/status", AsOf: "14:02"}, false},
		{"no copy, stopped on an error", SyncView{Poll: "/sync/status", Error: "refused"}, false},
		{"no poll URL", SyncView{Running: true}, false},
	} {
		if got := c.v.Polls(); got != c.want {
			t.Errorf("%s: polls %v, want %v", c.name, got, c.want)
		}
	}
}
