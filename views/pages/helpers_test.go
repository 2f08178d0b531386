package pages

import "testing"

func TestSummaryText(t *testing.T) {
	tests := []struct {
		in   Summary
		want string
	}{
		{Summary{Updated: 17, Rejected: 3}, "17 updated, 3 rejected."},
		{Summary{Invalid: 4, Note: "Nothing was sent: fix the marked fields first"}, "0 updated, 0 rejected, 4 to fix. Nothing was sent: fix the marked fields first."},
		{Summary{Updated: 2, Note: "Sending stopped early."}, "2 updated, 0 rejected. Sending stopped early."},
	}
	for _, tt := range tests {
		if got := summaryText(&tt.in); got != tt.want {
			t.Errorf("summaryText(%+v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
