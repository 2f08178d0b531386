package logctx

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestHandlerAddsRequestID: a line logged with a request's context carries
// its id once, whether or not the logger was made With it; a line without
// one carries none.
func TestHandlerAddsRequestID(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	ctx := WithRequestID(context.Background(), "req-12345678")

	log.With("component", "apiclient").InfoContext(ctx, "upstream", "upstream_request_id", "up-1")
	log.With(Key, "req-12345678").InfoContext(ctx, "access")
	log.Info("no context")
	log.WithGroup("g").InfoContext(ctx, "grouped")
	log.InfoContext(ctx, "named", Key, "req-12345678")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("lines: %q", lines)
	}
	for i, want := range []int{1, 1, 0, 1, 1} {
		if got := strings.Count(lines[i], "request_id=req-12345678"); got != want {
			t.Errorf("line %d %q: request id %d times, want %d", i, lines[i], got, want)
		}
	}
	if !strings.Contains(lines[0], "upstream_request_id=up-1") {
		t.Errorf("the upstream id is lost: %q", lines[0])
	}
}
