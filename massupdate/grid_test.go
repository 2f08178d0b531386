package massupdate

import (
	"testing"

	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// TestJobGrid: the filters, the tones, what a finished job offers, the
// promotion marks apart, and a guarded row's label once submitted.
func TestJobGrid(t *testing.T) {
	items := []bulkjobs.Item{
		{Seq: 1, Key: "A", Flag: bulkjobs.FlagOK, State: bulkjobs.ItemAccepted},
		{Seq: 2, Key: "B", Flag: bulkjobs.FlagOK, State: bulkjobs.ItemRejected,
			Message: i18n.Of(i18n.M("mass.promo_below", nil), i18n.Msg{Text: "refused", Verbatim: true})},
		{Seq: 3, Key: "|4601", Flag: bulkjobs.FlagUnchanged},
		{Seq: 4, Key: "D", Flag: bulkjobs.FlagGuard, State: bulkjobs.ItemSkipped, HasNum: true, OldNum: 100, NewNum: 150},
	}
	j := bulkjobs.Job{Kind: "prices", State: bulkjobs.StateDone, Counts: bulkjobs.Counts{Accepted: 1, Rejected: 1}}
	g := JobGrid(j, items, GridAll)
	if g.Total != 4 || len(g.Rows) != 4 || !g.CanRetry || !g.CanReadBack || !g.CanDelete || g.Editable {
		t.Fatalf("grid %+v", g)
	}
	if r := g.Rows[1]; r.Tone != ToneRejected || len(r.PromoBelow) != 1 || len(r.Message) != 1 || r.Message[0].Text != "refused" {
		t.Fatalf("row B %+v", r)
	}
	if r := g.Rows[2]; r.Key != "4601" || r.Tone != "" {
		t.Fatalf("row C %+v", r)
	}
	if r := g.Rows[3]; r.FlagLabel.Key != "jobs.flag_not_confirmed" || r.Change.Permille() != 500 || r.Confirmable {
		t.Fatalf("row D %+v", r)
	}
	if g := JobGrid(j, items, GridProblems); len(g.Rows) != 2 || g.Rows[0].Item.Seq != 2 {
		t.Fatalf("problems %+v", g.Rows)
	}
	if g := JobGrid(j, items, GridSend); len(g.Rows) != 3 {
		t.Fatalf("to send %+v", g.Rows)
	}
	retry := bulkjobs.Job{Kind: "stock", State: bulkjobs.StatePreview, ParentID: "p"}
	g = JobGrid(retry, []bulkjobs.Item{{Seq: 1, Typed: `{"quantity":"5","status":"active"}`, Flag: bulkjobs.FlagGuard}}, GridAll)
	if !g.Editable || g.Rows[0].Edit["quantity"] != "5" || !g.Rows[0].Confirmable || g.Rows[0].Tone != ToneGuard {
		t.Fatalf("retry preview %+v", g)
	}
}

// TestJobRows: the errors download keeps the rows not applied, with the
// typed values verbatim and the labels as keys.
func TestJobRows(t *testing.T) {
	items := []bulkjobs.Item{
		{Line: 2, Typed: `{"sku":"A","price":"10"}`, Flag: bulkjobs.FlagOK, State: bulkjobs.ItemAccepted},
		{Line: 3, Typed: `{"sku":"B","price":"1 0"}`, Flag: bulkjobs.FlagOK, State: bulkjobs.ItemRejected, ReadBack: "odd"},
	}
	j := bulkjobs.Job{Kind: "prices", State: bulkjobs.StateDone}
	tb := JobRows(j, items, true)
	if len(tb.Rows) != 1 || len(tb.Columns) != 13 || len(tb.Rows[0]) != 13 {
		t.Fatalf("table %+v", tb)
	}
	row := tb.Rows[0]
	if row[0][0].Text != "B" || !row[1][0].Verbatim || row[5][0].Text != "3" || row[9][0].Key != "jobs.item_rejected" || row[11][0].Text != "odd" {
		t.Fatalf("row %+v", row)
	}
	if len(JobRows(j, items, false).Rows) != 2 {
		t.Fatal("every row")
	}
}
