package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolvePrefersStampedValues(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261126-abc"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "ffffffffffffffffffff"}, {Key: "vcs.time", Value: "2026-01-01T00:00:00Z"}}}
	got := resolve("v1.4.0", "0123456789abcdef0123", "2026-11-26T10:00:00Z", bi)
	if got.Version != "v1.4.0" || got.Commit != "0123456789ab" || got.Date != "2026-11-26T10:00:00Z" || got.Go != "go1.26.0" {
		t.Fatalf("resolve = %+v", got)
	}
	if s := got.String(); s != "v1.4.0 (commit 0123456789ab, built 2026-11-26T10:00:00Z, go1.26.0)" {
		t.Errorf("String = %q", s)
	}
	if ua := got.UserAgent(); ua != "SellerDesk/v1.4.0" {
		t.Errorf("UserAgent = %q", ua)
	}
}

func TestResolveFallsBackToVCSInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdefabcdefabcdef"}, {Key: "vcs.time", Value: "2026-11-20T08:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	got := resolve("", "", "", bi)
	if got.Version != "dev" || got.Commit != "abcdefabcdef" || got.Date != "2026-11-20T08:00:00Z" || !got.Modified {
		t.Fatalf("resolve = %+v", got)
	}
	if s := got.String(); !strings.Contains(s, "commit abcdefabcdef+dirty") {
		t.Errorf("String = %q, want the dirty commit", s)
	}
	if got := resolve("", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}); got.Version != "v1.2.3" {
		t.Errorf("module version: got %q", got.Version)
	}
	if got := resolve("", "", "", nil); got.Version != "dev" || got.Go == "" {
		t.Errorf("no build info: %+v", got)
	}
}
