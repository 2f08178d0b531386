package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/sellerdesk/sellerdesk/copystore"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// TestCopyStatesReadOncePerRequest: the dispatch and the toolbar of a page
// share the sync states read for the request (the App below has no copy
// at all: a second read would fail).
func TestCopyStatesReadOncePerRequest(t *testing.T) {
	t.Parallel()
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/nomenclature", nil), httptest.NewRecorder())
	want := map[string]copystore.SyncState{copystore.KindNomenclature: {Gen: 7}}
	c.Set(copyStatesKey, want)
	got, err := (&App{}).copyStates(c)
	if err != nil || got[copystore.KindNomenclature].Gen != 7 {
		t.Fatalf("%v %v", got, err)
	}
}

// TestStatusOptionsMemo: the rows of a page get the options
// sellerStatusOptions gives each status, past the memo's few entries too.
func TestStatusOptionsMemo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := statusOptionsMemo{ctx: ctx, a: &App{}}
	statuses := []string{"online", "disabled", "rejected", "in_moderation", "unknown-x", "", "online", "unknown-y", "disabled", "unknown-x"}
	for _, s := range statuses {
		if got, want := m.get(s), sellerStatusOptions(ctx, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
	if m.n != len(m.seen) {
		t.Errorf("memo holds %d statuses", m.n)
	}
}

// TestToolbarOptionsPerLanguage: the toolbar's sort and status choices are
// labelled in the request's language, built once per language and list.
func TestToolbarOptionsPerLanguage(t *testing.T) {
	t.Parallel()
	a := &App{}
	for _, l := range []i18n.Lang{i18n.RU, i18n.EN} {
		ctx := i18n.WithLang(context.Background(), l)
		for _, list := range [][]pages.Option{nomenclatureSorts, orderSorts, boxSorts} {
			got := a.localSorts(l, list)
			for i, o := range list {
				if got[i].Value != o.Value || got[i].Label != i18n.In(l, o.Label, nil, nil) {
					t.Errorf("%s: option %d = %+v", l, i, got[i])
				}
			}
			if again := a.localSorts(l, list); &again[0] != &got[0] {
				t.Errorf("%s: the sort choices were built again", l)
			}
		}
		st := a.copyStatusOptions(ctx, l)
		if !reflect.DeepEqual(st, localStatusOptions(ctx, nomenclatureStatuses, i18n.T(ctx, "copy.any_status"))) {
			t.Errorf("%s: status choices %+v", l, st)
		}
		if again := a.copyStatusOptions(ctx, l); &again[0] != &st[0] {
			t.Errorf("%s: the status choices were built again", l)
		}
	}
	if a.localSorts(i18n.RU, nomenclatureSorts)[1].Label == a.localSorts(i18n.EN, nomenclatureSorts)[1].Label {
		t.Error("one label for both languages")
	}
}

func TestRowKeyOf(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{{"WH-1", "4600000000017"}, {"", ""}, {"Склад №1", "abc_DEF-9"}, {"a|b", "x y\x00"}, {"\xff", "é"}} {
		var b strings.Builder
		writeRowKey(&b, c[0], c[1])
		if got, want := b.String(), rowKey(c[0]+"|"+c[1]); got != want {
			t.Errorf("writeRowKey(%q, %q) = %q, want %q", c[0], c[1], got, want)
		}
	}
}
