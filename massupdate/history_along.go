package massupdate

import (
	"context"
	"time"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// History is the history as a send writes its entry along the way
// (audit.Store).
type History interface {
	Begin(ctx context.Context, e audit.Entry) (*audit.Open, error)
	Record(ctx context.Context, e audit.Entry) error
}

// HistoryAlong writes a form's history entry along its send, so the
// history's writes overlap with the marketplace's round trips instead of
// following the last answer: as the ChunkLog of SendPatching it begins the
// entry at the first chunk's answer and appends each answered chunk's rows
// (as AuditItems makes them) on the goroutine that writes the copy;
// Finish, once the send has returned, writes the rows left unanswered,
// the outcome and the note. The finished entry is the one Record writes
// of the report's AuditItems for the same send.
type HistoryAlong struct {
	Ctx   context.Context
	Store History
	// Entry is who made the change, for which seller, of which kind; its
	// time is Now's at the first answer, then at Finish.
	Entry audit.Entry
	Texts func(key string) (oldText, newText i18n.Msgs)
	Now   func() time.Time
	// Stuck, when set, is told the history's error that stopped the
	// writes along the send; Finish then records the rest.
	Stuck func(error)

	open   *audit.Open
	stored int // rows stored, the first of the keys sent
	stuck  bool
}

// Chunk stores a chunk's answered rows (ChunkLog).
func (h *HistoryAlong) Chunk(keys []string, outcomes []Outcome) {
	if h.stuck {
		return
	}
	if h.open == nil {
		e := h.Entry
		e.At = h.Now()
		o, err := h.Store.Begin(h.Ctx, e)
		if err != nil {
			h.stop(err)
			return
		}
		h.open = o
	}
	if err := h.open.Append(h.Ctx, ChunkAuditItems(keys, outcomes, h.Texts)); err != nil {
		h.stop(err)
		return
	}
	h.stored += len(keys)
}

func (h *HistoryAlong) stop(err error) {
	h.stuck = true
	if h.Stuck != nil {
		h.Stuck(err)
	}
}

// Finish records what rep holds beyond the rows stored along the send,
// keys being the keys of the rows sent, in order (those SendPatching told
// Chunk first): the rows left, the entry's outcome and note. An entry
// never begun is recorded whole. Call it once the send has returned.
func (h *HistoryAlong) Finish(rep *Report, keys []string) error {
	rest, note := rep.AuditItems(keys[min(h.stored, len(keys)):], h.Texts)
	at := h.Now()
	if h.open == nil {
		e := h.Entry
		e.At, e.Items, e.Message = at, rest, note
		return h.Store.Record(h.Ctx, e)
	}
	return h.open.Finish(h.Ctx, at, rest, note)
}
