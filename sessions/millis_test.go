package sessions

import (
	"context"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestTimesStoredAsMillis: on both databases a session's and a token's
// times are stored as Unix milliseconds (the columns read back as integers
// equal to sqldb.Millis) and load back as the same instants, to the
// millisecond, in UTC.
func TestTimesStoredAsMillis(t *testing.T) {
	sqldbtest.Each(t, func(t *testing.T, db *sqldb.DB) {
		ctx := context.Background()
		b := backendOn(t, db)
		msk := time.FixedZone("MSK", 3*3600)
		created := time.Date(2026, 3, 1, 12, 0, 0, 123_456_789, msk)
		rec := Record{ID: "millis", Payload: []byte{1}, CreatedAt: created,
			LastSeen: created.Add(time.Minute), ExpiresAt: created.Add(8 * time.Hour)}
		if err := b.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		tokenAt := created.Add(2 * time.Minute)
		if err := b.SaveToken(ctx, rec.ID, "seller", []byte{2}, tokenAt); err != nil {
			t.Fatal(err)
		}

		var c, s, e, u int64
		if err := db.Reader().QueryRowContext(ctx, db.Rebind(`SELECT s.created_at, s.last_seen, s.expires_at, t.updated_at
			FROM sessions s JOIN session_tokens t ON t.session_id = s.id WHERE s.id = ?`), rec.ID).Scan(&c, &s, &e, &u); err != nil {
			t.Fatalf("the time columns do not read as integers: %v", err)
		}
		if c != sqldb.Millis(rec.CreatedAt) || s != sqldb.Millis(rec.LastSeen) || e != sqldb.Millis(rec.ExpiresAt) || u != sqldb.Millis(tokenAt) {
			t.Errorf("stored %d %d %d %d; want Unix milliseconds %d %d %d %d", c, s, e, u,
				sqldb.Millis(rec.CreatedAt), sqldb.Millis(rec.LastSeen), sqldb.Millis(rec.ExpiresAt), sqldb.Millis(tokenAt))
		}

		got, err := b.Load(ctx, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		for name, pair := range map[string][2]time.Time{
			"created_at": {got.CreatedAt, rec.CreatedAt},
			"last_seen":  {got.LastSeen, rec.LastSeen},
			"expires_at": {got.ExpiresAt, rec.ExpiresAt},
		} {
			want := pair[1].Truncate(time.Millisecond).UTC()
			if !pair[0].Equal(want) || pair[0].Location() != time.UTC {
				t.Errorf("%s loads as %v; want %v", name, pair[0], want)
			}
		}

		// Purge compares in milliseconds too: not expired a millisecond
		// before, expired at the stored instant.
		if n, err := b.Purge(ctx, rec.ExpiresAt.Truncate(time.Millisecond).Add(-time.Millisecond), 10); err != nil || n != 0 {
			t.Fatalf("purge before expiry: %d, %v", n, err)
		}
		if n, err := b.Purge(ctx, rec.ExpiresAt.Truncate(time.Millisecond), 10); err != nil || n != 1 {
			t.Fatalf("purge at expiry: %d, %v", n, err)
		}
	})
}
