package app

import (
	"context"
	"log/slog"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// jobRecorder is the job runner's audit observer: it records every
// finished run and read-back of a bulk job in rec, as the login that
// submitted it. A failure to record is logged: the change itself was made
// at the marketplace.
func jobRecorder(rec audit.Recorder, log *slog.Logger) func(ctx context.Context, event string, j bulkjobs.Job, rows []bulkjobs.Item) {
	return func(ctx context.Context, event string, j bulkjobs.Job, rows []bulkjobs.Item) {
		e := audit.Entry{At: j.FinishedAt, ClientID: j.ClientID, UserName: j.DisplayName, SellerID: j.SellerID, Environment: j.Environment,
			// A message kept as data: the history reads it in the
			// language of whoever opens it.
			Kind: audit.KindBulk, Ref: j.ID, Message: i18n.Join(i18n.Of(i18n.M("jobs.audit_run", map[string]any{"Title": bulkjobs.Title(j), "File": j.FileName})),
				j.StopReason)}
		if event == bulkjobs.EventReadBack {
			e.At, e.Kind, e.Message = j.ReadBackDoneAt, audit.KindReadBack, bulkjobs.ReadBackLine(j)
		}
		for _, it := range rows {
			ai := audit.Item{Key: it.Key, Old: it.OldText, New: it.NewText, Message: it.Message}
			switch it.State {
			case bulkjobs.ItemAccepted:
				ai.Outcome = audit.Accepted
			case bulkjobs.ItemRejected:
				ai.Outcome = audit.Refused
			case bulkjobs.ItemUnknown:
				ai.Outcome = audit.Unknown
			case bulkjobs.ItemUnsent, bulkjobs.ItemHeld, bulkjobs.ItemQueued:
				ai.Outcome = audit.Unsent
			default:
				continue // skipped: unchanged, invalid or unconfirmed, never meant to be sent
			}
			if event == bulkjobs.EventReadBack {
				if it.ReadBack == "" {
					continue
				}
				state := i18n.Msg{Key: bulkjobs.ReadLabel(it.ReadBack), Text: it.ReadBack} // a state of no label: its code
				ai.ReadBack = i18n.Of(state)
				if len(it.ReadBackText) > 0 {
					ai.ReadBack = i18n.Of(i18n.M("jobs.read_back_item", map[string]any{"State": ai.ReadBack, "Value": it.ReadBackText}))
				}
			}
			e.Items = append(e.Items, ai)
		}
		if event == bulkjobs.EventReadBack && len(e.Items) == 0 {
			return
		}
		if err := rec.Record(ctx, e); err != nil {
			log.Error("audit: change not recorded", "kind", e.Kind, "seller_id", e.SellerID, "err", err)
		}
	}
}
