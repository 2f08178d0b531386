package pages

import "testing"

// FuzzCopySearchMatchesTempl holds the Go toolbar byte for byte to its
// templ original for any toolbar.
func FuzzCopySearchMatchesTempl(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], s[2], 3, true)
	}
	f.Fuzz(func(t *testing.T, a, b, c string, n int, flag bool) {
		n = int(uint(n) % 1000)
		ss := fuzzStrings(a, b, c)
		opts := func(k int) []Option {
			var out []Option
			for i := range k {
				out = append(out, Option{Value: pick(ss, i+n), Label: pick(ss, i+1)})
			}
			return out
		}
		tb := CopyToolbar{Action: pick(ss, n), Sync: SyncView{AsOf: pick(ss, n+1), Running: flag, Kind: pick(ss, n+2), Page: n % 7, Pages: n % 5,
			Waiting: pick(ss, n+3), Error: pick(ss, n+4), Poll: pick(ss, n+5)},
			Live: n%3 == 0, Q: pick(ss, n+1), Sort: pick(ss, n+2), Status: pick(ss, n+3), Warehouse: pick(ss, n+4), Stock: pick(ss, n+5),
			PriceMin: pick(ss, n+6), PriceMax: pick(ss, n+7), Limit: pick(ss, n+8), Sorts: opts(n % 4), Statuses: opts(n % 3),
			Placeholder: pick(ss, n+9), Records: flag, Dates: n%2 == 0, From: pick(ss, n+10), To: pick(ss, n+11), KeepStatus: pick(ss, n+12),
			ExportCSV: pick(ss, n+13), ExportXLSX: pick(ss, n+14)}
		renderBoth(t, "CopySearch", CopySearch(tb), copySearchTempl(tb))
	})
}
