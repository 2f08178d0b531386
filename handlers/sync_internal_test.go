package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// A pass stopped by a refusal shows its reason, in the reader's language,
// not a refresh that seems to go on; the other lists' full copies still
// date the line.
func TestSyncViewStopped(t *testing.T) {
	t.Parallel()
	done := time.Date(2026, 11, 2, 14, 2, 0, 0, time.UTC)
	a := &App{deps: Deps{Now: func() time.Time { return done.Add(time.Hour) }}}
	for _, tc := range []struct {
		reason string
		lang   i18n.Lang
		want   string
	}{
		{copystore.StopUnauthorized, i18n.EN, "rejected this account's credentials"},
		{copystore.StopUnauthorized, i18n.RU, "отклонил учётные данные"},
		{copystore.StopForbidden, i18n.EN, "refused this account access"},
		{copystore.StopForbidden, i18n.RU, "закрыл этому аккаунту доступ"},
	} {
		states := map[string]copystore.SyncState{
			copystore.KindNomenclature: {Kind: copystore.KindNomenclature, Gen: 2, NextPage: 1, Pages: 600, CompletedAt: done, LastError: tc.reason},
			copystore.KindOrders:       {Kind: copystore.KindOrders, Gen: 1, CompletedAt: done},
			copystore.KindBoxes:        {Kind: copystore.KindBoxes, Gen: 1, CompletedAt: done},
		}
		v := a.syncView(i18n.WithLang(context.Background(), tc.lang), states, false)
		if v.Running || !strings.Contains(v.Error, tc.want) || v.AsOf == "" {
			t.Errorf("%s, %v: running %v, error %q, as of %q; want stopped with %q", tc.reason, tc.lang, v.Running, v.Error, v.AsOf, tc.want)
		}
	}
}
