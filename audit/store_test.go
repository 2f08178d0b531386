package audit_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// stores runs f on a new SQLite database and, when
// SELLERDESK_TEST_POSTGRES_URL is set, on a new PostgreSQL schema
// (sessions/testdata/start-postgres.sh starts a server).
func stores(t *testing.T, f func(t *testing.T, s *audit.Store)) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		s, err := audit.NewStore(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		f(t, s)
	})
}

func sqliteStore(t testing.TB) *audit.Store {
	s, err := audit.NewStore(context.Background(), sqldbtest.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func entry(at time.Time, seller int64, env, kind, user string, items ...audit.Item) audit.Entry {
	return audit.Entry{At: at, ClientID: "client-" + user, UserName: user, SellerID: seller, Environment: env, Kind: kind, Items: items}
}

// TestRecordListSearch: entries come back newest first, for their seller
// and environment only, and the filter's kind, dates and text select them.
func TestRecordListSearch(t *testing.T) {
	stores(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		rec := func(e audit.Entry) {
			t.Helper()
			if err := s.Record(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		rec(entry(t0, 1, "production", audit.KindPrice, "Anna",
			audit.Item{Key: "SKU-1", Name: "Red Dress", Old: i18n.Msgs{{Text: "100.00"}}, New: i18n.Msgs{{Text: "90.00"}}, Outcome: audit.Accepted},
			audit.Item{Key: "SKU-2", Old: i18n.Msgs{{Text: "50.00"}}, New: i18n.Msgs{{Text: "1.00"}}, Outcome: audit.Refused, Message: i18n.Msgs{{Text: "Price drop over 90% (100%_off)"}}}))
		rec(entry(t0.Add(time.Hour), 1, "production", audit.KindResend, "Boris",
			audit.Item{Key: "RU123", Outcome: audit.Queued, Message: i18n.Msgs{{Text: "3 notifications queued"}}}))
		rec(entry(t0.Add(2*time.Hour), 1, "test", audit.KindPrice, "Anna", audit.Item{Key: "SKU-1", Outcome: audit.Accepted}))
		rec(entry(t0.Add(3*time.Hour), 2, "production", audit.KindPrice, "Anna", audit.Item{Key: "SKU-1", Outcome: audit.Accepted}))

		list, total, err := s.List(ctx, audit.Filter{SellerID: 1, Environment: "production"}, 10, 0, 5)
		if err != nil {
			t.Fatal(err)
		}
		if total != 2 || len(list) != 2 || list[0].Kind != audit.KindResend || list[1].Kind != audit.KindPrice {
			t.Fatalf("seller 1 production: total %d, %+v", total, list)
		}
		if got := list[1]; got.Outcome != audit.Partial || got.ItemCount != 2 || len(got.Items) != 2 || got.Items[1].Message.String() != "Price drop over 90% (100%_off)" ||
			got.UserName != "Anna" || got.ClientID != "client-Anna" || !got.At.Equal(t0) {
			t.Fatalf("price entry: %+v", got)
		}
		cases := []struct {
			f    audit.Filter
			want int
		}{
			{audit.Filter{Text: "sku-2"}, 1},
			{audit.Filter{Text: "red dress"}, 1},
			{audit.Filter{Text: "boris"}, 1},
			{audit.Filter{Text: "RU123"}, 1},
			{audit.Filter{Text: "%_off"}, 1},
			{audit.Filter{Text: "%"}, 1},
			{audit.Filter{Text: "_"}, 1},
			{audit.Filter{Text: "nothing-like-this"}, 0},
			{audit.Filter{Kind: audit.KindResend}, 1},
			{audit.Filter{Kind: audit.KindBulk}, 0},
			{audit.Filter{From: t0.Add(30 * time.Minute)}, 1},
			{audit.Filter{To: t0.Add(30 * time.Minute)}, 1},
			{audit.Filter{From: t0, To: t0.Add(2 * time.Hour)}, 2},
		}
		for _, c := range cases {
			c.f.SellerID, c.f.Environment = 1, "production"
			_, n, err := s.List(ctx, c.f, 10, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if n != c.want {
				t.Errorf("%+v: %d entries, want %d", c.f, n, c.want)
			}
		}
		// Pages: one entry per page.
		p2, total, err := s.List(ctx, audit.Filter{SellerID: 1, Environment: "production"}, 1, 1, 0)
		if err != nil || total != 2 || len(p2) != 1 || p2[0].Kind != audit.KindPrice {
			t.Fatalf("page 2: %v %d %+v", err, total, p2)
		}
	})
}

// TestRecordBounds: untrusted text is cut, cleaned of control characters,
// and an entry holds at most MaxItems items.
func TestRecordBounds(t *testing.T) {
	stores(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		long := strings.Repeat("я", 5000)
		items := make([]audit.Item, audit.MaxItems+3)
		for i := range items {
			items[i] = audit.Item{Key: fmt.Sprint("k", i), Outcome: audit.Accepted}
		}
		items[0] = audit.Item{Key: long, Name: long, Old: i18n.Msgs{{Text: long}}, New: i18n.Msgs{{Text: long}}, Message: i18n.Msgs{{Text: "bad\x00\u202ewords\nhere " + long}}, Outcome: audit.Refused}
		if err := s.Record(ctx, audit.Entry{SellerID: 1, Environment: "production", Kind: audit.KindBulk, UserName: long, Message: i18n.Msgs{{Text: long}}, Items: items}); err != nil {
			t.Fatal(err)
		}
		list, _, err := s.List(ctx, audit.Filter{SellerID: 1, Environment: "production"}, 1, 0, 1)
		if err != nil || len(list) != 1 {
			t.Fatal(err, list)
		}
		e := list[0]
		if e.ItemCount != audit.MaxItems || e.Dropped != 3 {
			t.Errorf("items %d dropped %d", e.ItemCount, e.Dropped)
		}
		it := e.Items[0]
		for field, v := range map[string]string{"user": e.UserName, "message": e.Message.String(), "key": it.Key, "name": it.Name, "old": it.Old.String(), "item message": it.Message.String()} {
			if n := len([]rune(v)); n > audit.MaxMessage {
				t.Errorf("%s: %d characters", field, n)
			}
		}
		if !strings.HasPrefix(it.Message.String(), "badwords here я") {
			t.Errorf("item message not cleaned: %q", it.Message.String()[:40])
		}
		if e.At.IsZero() {
			t.Error("no time recorded")
		}
	})
}

// TestPrune: the retention sweep removes old entries with their items in
// batches and keeps the rest.
func TestPrune(t *testing.T) {
	stores(t, func(t *testing.T, s *audit.Store) {
		ctx := context.Background()
		for i := range 250 {
			if err := s.Record(ctx, entry(t0.Add(time.Duration(i)*time.Minute), 1, "production", audit.KindPrice, "A",
				audit.Item{Key: "x", Outcome: audit.Accepted})); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Record(ctx, entry(t0.AddDate(1, 0, 0), 1, "production", audit.KindPrice, "A", audit.Item{Key: "new", Outcome: audit.Accepted})); err != nil {
			t.Fatal(err)
		}
		n, err := s.PruneBefore(ctx, t0.AddDate(0, 6, 0), 100)
		if err != nil || n != 100 {
			t.Fatalf("one batch: %d %v", n, err)
		}
		n, err = s.Prune(ctx, t0.AddDate(1, 0, 0), 30*24*time.Hour)
		if err != nil || n != 150 {
			t.Fatalf("prune: %d %v", n, err)
		}
		list, total, err := s.List(ctx, audit.Filter{SellerID: 1, Environment: "production"}, 10, 0, 5)
		if err != nil || total != 1 || list[0].Items[0].Key != "new" {
			t.Fatalf("left: %v %d %+v", err, total, list)
		}
	})
}

// TestStartPruner: the background sweep prunes at start.
func TestStartPruner(t *testing.T) {
	s := sqliteStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	old := entry(time.Now().Add(-48*time.Hour), 1, "production", audit.KindPrice, "A")
	if err := s.Record(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(ctx, entry(time.Now(), 1, "production", audit.KindStock, "A")); err != nil {
		t.Fatal(err)
	}
	done := s.StartPruner(ctx, 24*time.Hour, time.Hour, nil)
	deadline := time.Now().Add(30 * time.Second) // a backstop only
	for {
		_, total, err := s.List(ctx, audit.Filter{SellerID: 1, Environment: "production"}, 10, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if total == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the pruner did not remove the old entry")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
}

// TestExportEach: the export lists every item of every entry, one line
// each, newest entry first, with formulas defused.
func TestExportEach(t *testing.T) {
	s := sqliteStore(t)
	ctx := context.Background()
	for i := range 450 {
		if err := s.Record(ctx, entry(t0.Add(time.Duration(i)*time.Second), 1, "production", audit.KindPrice, "A",
			audit.Item{Key: fmt.Sprint("a", i), Outcome: audit.Accepted}, audit.Item{Key: fmt.Sprint("b", i), Outcome: audit.Accepted})); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Record(ctx, entry(t0.Add(time.Hour), 1, "production", audit.KindResend, "=HYPERLINK(1)", audit.Item{Key: "RU1", Message: i18n.Msgs{{Text: "=cmd|'/c calc'!A1"}}})); err != nil {
		t.Fatal(err)
	}
	if err := s.Record(ctx, entry(t0.Add(time.Hour), 2, "production", audit.KindResend, "other")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := audit.NewCSVWriter(&buf)
	if err := s.Each(ctx, audit.Filter{SellerID: 1, Environment: "production"}, w.Write); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\r\n"), "\r\n")
	if len(lines) != 1+1+900 {
		t.Fatalf("%d lines", len(lines))
	}
	if !strings.Contains(lines[1], `"'=HYPERLINK(1)"`) || !strings.Contains(lines[1], `"'=cmd|'/c calc'!A1"`) {
		t.Errorf("not defused: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"a449"`) || !strings.Contains(lines[3], `"b449"`) || !strings.Contains(lines[len(lines)-1], `"b0"`) {
		t.Errorf("order: %s / %s / %s", lines[2], lines[3], lines[len(lines)-1])
	}
	if strings.Contains(buf.String(), "other") {
		t.Error("another seller's entry exported")
	}
	if strings.Contains(buf.String(), "incomplete") {
		t.Error("a whole export says it is incomplete")
	}
	var cut bytes.Buffer
	w = audit.NewCSVWriter(&cut)
	if err := w.Incomplete(); err != nil || !strings.Contains(cut.String(), "Export incomplete") {
		t.Errorf("a cut export: %v %q", err, cut.String())
	}
}

func TestParseRetention(t *testing.T) {
	for in, want := range map[string]time.Duration{"400": 400 * 24 * time.Hour, "30d": 30 * 24 * time.Hour, "9600h": 9600 * time.Hour, "48h": 48 * time.Hour} {
		if got, err := audit.ParseRetention(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, in := range []string{"", "0", "-3", "1h", "soon", "99999999"} {
		if _, err := audit.ParseRetention(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestCSVWriterInTheReadersLanguage: the header, the kind labels and the
// last line of a cut export come from the words given; a header of the
// wrong length falls back to English.
func TestCSVWriterInTheReadersLanguage(t *testing.T) {
	header := make([]string, len(audit.CSVHeader))
	for i := range header {
		header[i] = fmt.Sprint("кол", i)
	}
	var buf bytes.Buffer
	w := audit.NewCSVWriterIn(&buf, audit.CSVText{Header: header, Kind: func(k string) string { return "вид " + k }, Incomplete: "неполная"})
	if err := w.Write(audit.Entry{ID: 7, Kind: audit.KindPrice, Message: i18n.Msgs{{Text: "as sent"}}}, audit.Item{Key: "SKU-1"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Incomplete(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\r\n"), "\r\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "\ufeff\"кол0\",\"кол1\"") || !strings.Contains(lines[1], `"вид price"`) ||
		!strings.Contains(lines[1], `"as sent"`) || !strings.Contains(lines[2], `"неполная"`) {
		t.Errorf("export in Russian: %q", lines)
	}
	// Recorded texts go through Text, when given: the message, the old
	// and new values, the item's message and read-back; not the keys.
	buf.Reset()
	w = audit.NewCSVWriterIn(&buf, audit.CSVText{Text: func(ms i18n.Msgs) string { return "«" + ms.String() + "»" }})
	if err := w.Write(audit.Entry{Kind: audit.KindBulk, Message: i18n.Msgs{{Text: "m"}}}, audit.Item{Key: "k", Old: i18n.Msgs{{Text: "o"}}, New: i18n.Msgs{{Text: "n"}}, Message: i18n.Msgs{{Text: "im"}}, ReadBack: i18n.Msgs{{Text: "rb"}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	line := strings.Split(buf.String(), "\r\n")[1]
	for _, want := range []string{`"«m»"`, `"k"`, `"«o»"`, `"«n»"`, `"«im»"`, `"«rb»"`} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %s", line, want)
		}
	}
	buf.Reset()
	w = audit.NewCSVWriterIn(&buf, audit.CSVText{Header: []string{"один"}})
	if err := w.Write(audit.Entry{Kind: audit.KindStock}, audit.Item{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "\ufeff\"Entry\",\"When (UTC)\"") || !strings.Contains(buf.String(), `"Stock or status edit"`) {
		t.Errorf("fallback to English: %q", buf.String())
	}
}

// TestTimesInMillis: an entry's time is stored as Unix milliseconds on both
// databases (sqldb.Millis) and read back as the same instant, to the
// millisecond, in UTC; the date filter compares in milliseconds too.
func TestTimesInMillis(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		s, err := audit.NewStore(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 3, 1, 12, 0, 0, 987_654_321, time.FixedZone("MSK", 3*3600))
		if err := s.Record(ctx, entry(at, 1, "test", audit.KindPrice, "Anna")); err != nil {
			t.Fatal(err)
		}
		var stored int64
		if err := db.Reader().QueryRowContext(ctx, `SELECT at FROM audit_entries`).Scan(&stored); err != nil || stored != sqldb.Millis(at) {
			t.Fatalf("stored %d (%v); want Unix milliseconds %d", stored, err, sqldb.Millis(at))
		}
		ms := at.Truncate(time.Millisecond)
		f := audit.Filter{SellerID: 1, Environment: "test", From: ms, To: ms.Add(time.Millisecond)}
		list, _, err := s.List(ctx, f, 10, 0, 0)
		if err != nil || len(list) != 1 {
			t.Fatalf("the entry's own millisecond finds %d entries (%v)", len(list), err)
		}
		if got := list[0].At; !got.Equal(ms) || got.Location() != time.UTC {
			t.Errorf("read back %v; want %v in UTC", got, ms.UTC())
		}
	})
}
