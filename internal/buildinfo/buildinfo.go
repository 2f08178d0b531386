// Package buildinfo says which build of Seller Desk is running: its version,
// commit and build time, stamped at build time with -ldflags -X (the
// Dockerfile and `make build` do), else read from the module and VCS
// information the Go toolchain embeds.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Stamped at build time, for example:
//
//	go build -ldflags "-X github.com/sellerdesk/sellerdesk/internal/buildinfo.version=v1.4.0 \
//	  -X github.com/sellerdesk/sellerdesk/internal/buildinfo.commit=$(git rev-parse HEAD) \
//	  -X github.com/sellerdesk/sellerdesk/internal/buildinfo.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
var version, commit, date string

// Info is one build's identity.
type Info struct {
	// Version is the release (v1.4.0), the module's version when built
	// with `go install`, or "dev".
	Version string
	// Commit is the VCS revision, shortened to 12 characters; "" unknown.
	Commit string
	// Date is when the build was made (or the commit's time), RFC 3339;
	// "" unknown.
	Date string
	// Modified is true when the tree had uncommitted changes.
	Modified bool
	// Go is the toolchain that built it.
	Go string
}

var (
	once sync.Once
	info Info
)

// Get is this binary's build information.
func Get() Info {
	once.Do(func() {
		bi, _ := debug.ReadBuildInfo()
		info = resolve(version, commit, date, bi)
	})
	return info
}

// resolve prefers the stamped values and fills what is missing from the
// toolchain's build information.
func resolve(version, commit, date string, bi *debug.BuildInfo) Info {
	in := Info{Version: version, Commit: commit, Date: date, Go: runtime.Version()}
	if bi != nil {
		if in.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			in.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if in.Commit == "" {
					in.Commit = s.Value
				}
			case "vcs.time":
				if in.Date == "" {
					in.Date = s.Value
				}
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
		if bi.GoVersion != "" {
			in.Go = bi.GoVersion
		}
	}
	if in.Version == "" {
		in.Version = "dev"
	}
	if len(in.Commit) > 12 {
		in.Commit = in.Commit[:12]
	}
	return in
}

// String is the one-line form `sellerdesk -version` prints:
// "v1.4.0 (commit 0123456789ab, built 2026-11-26T10:00:00Z, go1.26.0)".
func (in Info) String() string {
	var parts []string
	if in.Commit != "" {
		c := "commit " + in.Commit
		if in.Modified {
			c += "+dirty"
		}
		parts = append(parts, c)
	}
	if in.Date != "" {
		parts = append(parts, "built "+in.Date)
	}
	parts = append(parts, in.Go)
	return in.Version + " (" + strings.Join(parts, ", ") + ")"
}

// UserAgent is the User-Agent the marketplace client sends:
// "SellerDesk/v1.4.0".
func (in Info) UserAgent() string { return "SellerDesk/" + in.Version }
