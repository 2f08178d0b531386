package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/labstack/echo/v4"

	copystore "github.com/sellerdesk/sellerdesk/catalog"
)

// TestCopyStatesReadOncePerRequest: the dispatch and the toolbar of a page
// share the sync states read for the request (the App below has no copy
// at all: a second read would fail).
func TestCopyStatesReadOncePerRequest(t *testing.T) {
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
	ctx := context.Background()
	m := statusOptionsMemo{ctx: ctx}
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
