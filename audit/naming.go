package audit

import (
	"context"
	"fmt"
	"strings"
)

// MaxNamingKeys bounds the item keys Naming looks for (a product's SKU,
// card, barcodes and stock keys).
const MaxNamingKeys = 200

// Naming returns the newest entries of the seller and environment f names
// (its other fields are ignored) that hold an item whose key is one of
// keys, newest first, at most limit, each with at most itemsEach of those
// items (ItemCount stays the entry's own count). A product's page shows
// its changes with it.
func (s *Store) Naming(ctx context.Context, f Filter, keys []string, limit, itemsEach int) ([]Entry, error) {
	if len(keys) == 0 || limit <= 0 {
		return nil, nil
	}
	keys = keys[:min(len(keys), MaxNamingKeys)]
	in := `i.item_key IN (?` + strings.Repeat(`, ?`, len(keys)-1) + `)`
	keyArgs := make([]any, len(keys))
	for i, k := range keys {
		keyArgs[i] = k
	}
	args := append([]any{f.SellerID, f.Environment, s.shownSince()}, keyArgs...)
	rows, err := s.r.QueryContext(ctx, s.q(`SELECT `+entryColumns+` FROM audit_entries e WHERE e.seller_id = ? AND e.environment = ? AND `+shown+`
		AND EXISTS (SELECT 1 FROM audit_items i WHERE i.entry_id = e.id AND `+in+`) ORDER BY e.at DESC, e.id DESC LIMIT ?`), append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("audit: naming: %w", err)
	}
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("audit: naming: %w", err)
		}
		out = append(out, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("audit: naming: %w", err)
	}
	if itemsEach > 0 && len(out) > 0 {
		if err := s.itemsOf(ctx, out, itemsEach, `item_key IN (?`+strings.Repeat(`, ?`, len(keys)-1)+`)`, keyArgs...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// query reads items.
func (s *Store) query(ctx context.Context, query string, args ...any) ([]Item, error) {
	rows, err := s.r.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("audit: items: %w", err)
	}
	defer rows.Close()
	var out []Item
	for rows.Next() {
		var it Item
		if err := rows.Scan(&it.Key, &it.Name, &it.Old, &it.New, &it.Outcome, &it.Message, &it.ReadBack); err != nil {
			return nil, fmt.Errorf("audit: items: %w", err)
		}
		out = append(out, it)
	}
	return out, rows.Err()
}
