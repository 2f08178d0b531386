package handlers

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
)

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
		for _, list := range [][]browse.Sort{nomenclatureSorts, orderSorts, boxSorts} {
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
