package bench

import (
	"net/http"
	"testing"

	"github.com/sellerdesk/sellerdesk/sessions"
)

// BenchmarkTwentyAccounts is one /orders page from the copy in a session
// holding one account and in one holding sessions.MaxAccounts (P14), side
// by side (benchstat -col /side). Profile it with -cpuprofile.
func BenchmarkTwentyAccounts(b *testing.B) {
	ce, err := startCopy(334, "")
	if err != nil {
		b.Fatal(err)
	}
	defer ce.Close()
	many, err := ce.Login()
	if err != nil {
		b.Fatal(err)
	}
	if err := addAccounts(ce.Env, many, sessions.MaxAccounts-1); err != nil {
		b.Fatal(err)
	}
	for _, side := range []struct {
		name string
		u    *User
	}{{"one", ce.user}, {"twenty", many}} {
		b.Run("side="+side.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if st, _, err := side.u.Get("/orders"); err != nil || st != http.StatusOK {
					b.Fatal(st, err)
				}
			}
		})
	}
}
