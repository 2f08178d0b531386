package sqldb

import (
	"testing"
	"time"
)

func TestMillisRoundTrip(t *testing.T) {
	if Millis(time.Time{}) != 0 || !FromMillis(0).IsZero() {
		t.Fatal("the zero time must be stored as 0 and read back as zero")
	}
	at := time.Date(2026, 11, 24, 12, 0, 0, 123e6, time.FixedZone("MSK", 3*3600))
	got := FromMillis(Millis(at))
	if !got.Equal(at) || got.Location() != time.UTC {
		t.Fatalf("round trip: %v (%v), want %v in UTC", got, got.Location(), at)
	}
}
