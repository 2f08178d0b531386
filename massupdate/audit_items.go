package massupdate

import (
	"maps"
	"slices"

	"github.com/sellerdesk/sellerdesk/audit"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// AuditItems are the report's outcomes as the history's items, in the
// order of keys, kept as messages the history reads in its reader's
// language; texts gives each key's old and new value. Item errors the
// page could not match to a row go into the entry's message, returned
// beside them.
func (r *Report) AuditItems(keys []string, texts func(key string) (oldText, newText i18n.Msgs)) ([]audit.Item, i18n.Msgs) {
	items := make([]audit.Item, 0, len(keys))
	for _, k := range keys {
		items = append(items, auditItem(k, r.Outcomes[k], texts))
	}
	msg := r.Note()
	for _, k := range slices.Sorted(maps.Keys(r.Unmatched)) {
		msg = i18n.Join(msg, i18n.Plain(k+":"), r.Unmatched[k])
	}
	return items, msg
}

// ChunkAuditItems are a chunk's rows as the history's items, as
// AuditItems makes them: keys and their outcomes as a ChunkLog is told
// them.
func ChunkAuditItems(keys []string, outcomes []Outcome, texts func(key string) (oldText, newText i18n.Msgs)) []audit.Item {
	items := make([]audit.Item, len(keys))
	for i, k := range keys {
		items[i] = auditItem(k, outcomes[i], texts)
	}
	return items
}

// auditItem is the row k, whose outcome is o, as the history's item.
func auditItem(k string, o Outcome, texts func(key string) (oldText, newText i18n.Msgs)) audit.Item {
	it := audit.Item{Key: k, Message: o.Messages}
	it.Old, it.New = texts(k)
	switch o.State {
	case Accepted:
		it.Outcome = audit.Accepted
	case Rejected:
		it.Outcome = audit.Refused
	case Unknown:
		it.Outcome, it.Message = audit.Unknown, i18n.Of(i18n.M("history.item_unknown", nil))
	default:
		it.Outcome, it.Message = audit.Unsent, i18n.Of(i18n.M("history.item_unsent", nil))
	}
	return it
}
