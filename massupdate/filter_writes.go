package massupdate

// Stock and status where the marketplace writes them by a filter (the
// lamoda wire profile, apiclient.Client.FilterWrites):
// v1.nomenclatures.update-stock sets one quantity for every record its
// filter selects, v1.nomenclatures.update-activation one status. Changes
// are grouped by target value (one write per distinct quantity, one per
// direction), each group bounded to MaxFilterSKUs seller SKUs, and every
// write is preceded by a dry run: v1.nomenclatures.list with exactly the
// same filter must return exactly the SKUs the write is meant for. A
// marketplace that ignored the filter's key would return more records (and
// the write would have reached every product): nothing of that group is
// written. The dry run and its write run under the seller's mass-update
// lock, one unit.

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/i18n"
)

// DefaultFilterKey is the FilterItem key the filtered writes select records
// by: the seller's SKU. The Swagger (scripts/lamoda_swagger.json in the
// public lamoda-mcp-ru repository) leaves FilterItem.key a free string and
// describes sellerSku as "Supplier sku"; public integration code
// (order_collector, lamoda/dto/nomenclature_dto.py) lists nomenclatures on
// the production host with {key: "supplierSku", operator: "IN"}. Medium
// confidence: the dry run guards a wrong key. Engine.FilterKey overrides it
// (SELLERDESK_LAMODA_FILTER_KEY).
const DefaultFilterKey = "supplierSku"

// MaxFilterSKUs bounds the seller SKUs of one filtered write and its dry
// run (one list page).
const MaxFilterSKUs = 100

// SKUStock is one record's stock or status change where the marketplace
// selects records by the seller's SKU: the change (keyed as Stock keys it,
// warehouse|barcode) and the record's seller SKU. It is also the stored
// payload of such a stock job's row.
type SKUStock struct {
	apiclient.StoreItem
	SellerSKU string `json:"sellerSku"`
}

// Key identifies the row: warehouse|barcode, as Stock.Key.
func (s SKUStock) Key() string { return Stock.Key(s.StoreItem) }

// PairSellerSKUs pairs each stock change with its record's seller SKU:
// taken from page (the records the form was rendered for), and, for the
// records no longer on it, read by key through current (as a preview
// reads them), only those. A record not found keeps an empty seller SKU:
// the engine refuses that row with a reason, nothing sent for it.
func PairSellerSKUs(items []apiclient.StoreItem, page []apiclient.Nomenclature, current Current) ([]SKUStock, error) {
	skus := make(map[string]string, len(items))
	for _, n := range page {
		skus[n.WarehouseCode+"|"+n.Barcode] = n.SellerSKU
	}
	missing := Want{Keys: map[string]bool{}}
	for _, it := range items {
		if k := Stock.Key(it); skus[k] == "" {
			missing.Keys[k] = true
		}
	}
	if !missing.Empty() {
		cat, err := current(missing)
		if err != nil {
			return nil, err
		}
		for k := range missing.Keys {
			if n, ok := cat.ByKey[k]; ok {
				skus[k] = n.SellerSKU
			}
		}
	}
	out := make([]SKUStock, len(items))
	for i, it := range items {
		out[i] = SKUStock{StoreItem: it, SellerSKU: skus[Stock.Key(it)]}
	}
	return out, nil
}

// filterKey is the key in use.
func (e *Engine) filterKey() string {
	if e.FilterKey == "" {
		return DefaultFilterKey
	}
	return e.FilterKey
}

// filterWrite is one filtered write: a stock (update-stock) or a
// direction (update-activation) for the rows' seller SKUs.
type filterWrite struct {
	stock  *int
	active *bool
	rows   []SKUStock
}

// part is the part of its rows the write sets.
func (w filterWrite) part() string {
	if w.stock != nil {
		return PartQuantity
	}
	return PartStatus
}

// planWrites groups the rows by target value, in a stable order (stock
// ascending, then deactivation, then activation), each group cut to at
// most size SKUs. A row changing stock and status is in two writes. Rows
// that cannot be selected (no seller SKU, or the SKU of an earlier row)
// are refused with why, by row key.
func planWrites(items []SKUStock, size int) ([]filterWrite, map[string]i18n.Msgs) {
	refused := map[string]i18n.Msgs{}
	seen := map[string]bool{}
	stocks := map[int][]SKUStock{}
	active := map[bool][]SKUStock{}
	for _, it := range items {
		switch {
		case it.SellerSKU == "":
			refused[it.Key()] = i18n.Of(i18n.M("mass.filter_no_sku", nil))
			continue
		case seen[it.SellerSKU]:
			refused[it.Key()] = i18n.Of(i18n.M("mass.filter_dup_sku", map[string]any{"SKU": it.SellerSKU}))
			continue
		}
		seen[it.SellerSKU] = true
		if it.Quantity != nil {
			stocks[*it.Quantity] = append(stocks[*it.Quantity], it)
		}
		if it.Status != "" {
			on := it.Status == "online"
			active[on] = append(active[on], it)
		}
	}
	var out []filterWrite
	qs := make([]int, 0, len(stocks))
	for q := range stocks {
		qs = append(qs, q)
	}
	slices.Sort(qs)
	for _, q := range qs {
		for c := range slices.Chunk(stocks[q], size) {
			out = append(out, filterWrite{stock: &q, rows: c})
		}
	}
	for _, on := range []bool{false, true} {
		for c := range slices.Chunk(active[on], size) {
			out = append(out, filterWrite{active: &on, rows: c})
		}
	}
	return out, refused
}

// filterSize is the SKUs one write carries: the engine's chunk size, at
// most MaxFilterSKUs.
func (e *Engine) filterSize() int { return min(e.Size(), MaxFilterSKUs) }

// writeOutcome is what became of one write's rows.
type writeOutcome struct {
	rejected map[string]i18n.Msgs // by row key: the dry run's or the marketplace's reasons
	// unmatched are item errors naming a SKU the dry run did not return,
	// by SizeKey(lamodaSku).
	unmatched map[string]i18n.Msgs
}

// dryRun lists the records the filter selects and compares them with want
// (seller SKUs). It returns the marketplace SKU of each record returned, by
// seller SKU, and how many records the filter selected; broad is true when
// any record is not one of want (nothing may be written).
func dryRun(ctx context.Context, acct *apiclient.Account, seller int64, filter []apiclient.FilterItem, want map[string]bool) (found map[string]string, selected int, broad bool, err error) {
	found = map[string]string{}
	req := &apiclient.ListNomenclaturesRequest{SellerID: seller, Limit: MaxFilterSKUs, Filter: filter, Page: 1}
	for {
		list, err := acct.Seller.ListNomenclatures(ctx, req)
		if err != nil {
			return nil, 0, false, err
		}
		selected = list.Total
		if list.Total > len(want) || list.Skipped > 0 {
			// More than meant (or records that cannot be read): no need to
			// read further pages.
			return found, max(selected, len(found)+list.Skipped), true, nil
		}
		for _, n := range list.Nomenclatures {
			if !want[n.SellerSKU] {
				return found, selected, true, nil
			}
			found[n.SellerSKU] = n.MarketplaceSKU
		}
		if req.Page >= list.Pages || len(list.Nomenclatures) == 0 || req.Page > len(want)/MaxFilterSKUs+1 {
			return found, selected, false, nil
		}
		req.Page++
	}
}

// runWrite runs one write: the dry run, then the write for exactly the
// SKUs it confirmed. SKUs the dry run did not find are refused (and the
// dry run is repeated for the rest, so the write's filter is always one a
// dry run returned exactly); a dry run that returns anything else refuses
// the whole group. wrote reports whether the write was sent (an error
// after it leaves the rows' outcome unknown).
func (e *Engine) runWrite(ctx context.Context, acct *apiclient.Account, seller int64, w filterWrite) (out writeOutcome, wrote bool, err error) {
	out = writeOutcome{rejected: map[string]i18n.Msgs{}}
	key := e.filterKey()
	rows := w.rows
	var found map[string]string
	for attempt := 0; ; attempt++ {
		want := make(map[string]bool, len(rows))
		skus := make([]string, len(rows))
		for i, r := range rows {
			want[r.SellerSKU], skus[i] = true, r.SellerSKU
		}
		filter := []apiclient.FilterItem{{Key: key, Operator: apiclient.FilterIn, Value: skus}}
		var selected int
		var broad bool
		found, selected, broad, err = dryRun(ctx, acct, seller, filter, want)
		if err != nil {
			return out, false, err
		}
		if broad || (attempt > 0 && len(found) != len(rows)) {
			msg := i18n.Of(i18n.M("mass.dry_run_broad", map[string]any{"Key": key, "Selected": strconv.Itoa(selected), "Meant": strconv.Itoa(len(rows))}))
			for _, r := range rows {
				out.rejected[r.Key()] = msg
			}
			return out, false, nil
		}
		if len(found) == len(rows) {
			break
		}
		kept := rows[:0:0]
		for _, r := range rows {
			if _, ok := found[r.SellerSKU]; ok {
				kept = append(kept, r)
				continue
			}
			out.rejected[r.Key()] = i18n.Of(i18n.M("mass.dry_run_unknown", map[string]any{"Key": key, "SKU": r.SellerSKU}))
		}
		if len(kept) == 0 {
			return out, false, nil
		}
		rows = kept
	}
	skus := make([]string, len(rows))
	byMarketplace := make(map[string]string, len(rows))
	for i, r := range rows {
		skus[i] = r.SellerSKU
		byMarketplace[found[r.SellerSKU]] = r.Key()
	}
	filter := []apiclient.FilterItem{{Key: key, Operator: apiclient.FilterIn, Value: skus}}
	var res *apiclient.UpdateResult
	if w.stock != nil {
		res, err = acct.Seller.UpdateStock(ctx, &apiclient.UpdateStockRequest{Filter: filter, Stock: *w.stock})
	} else {
		res, err = acct.Seller.UpdateActivation(ctx, &apiclient.UpdateActivationRequest{Filter: filter, Active: *w.active})
	}
	if err != nil {
		return out, true, err
	}
	for _, ie := range res.Errors {
		msgs := marketMessages(ie.Code, ie.Messages)
		if k, ok := byMarketplace[ie.MarketplaceSKU]; ok {
			out.rejected[k] = append(out.rejected[k], msgs...)
			continue
		}
		if out.unmatched == nil {
			out.unmatched = map[string]i18n.Msgs{}
		}
		out.unmatched[SizeKey(ie.MarketplaceSKU)] = append(out.unmatched[SizeKey(ie.MarketplaceSKU)], msgs...)
	}
	return out, true, nil
}

// partStates folds the outcomes of a row's writes (stock, status) into one:
// refused if either was, unknown if either may or may not have been
// applied (or one was applied and the other not sent), not sent if
// neither was, accepted if both were. A row not accepted whole keeps the
// parts that were applied (Outcome.Applied), and a row refused with a
// part applied says what became of each part.
type partStates map[string][]partOutcome

// partOutcome is what became of one part of a row (PartQuantity,
// PartStatus; "" for the whole row, refused before any write), and the
// row.
type partOutcome struct {
	part string
	row  SKUStock
	o    Outcome
}

func (p partStates) add(key, part string, row SKUStock, o Outcome) {
	p[key] = append(p[key], partOutcome{part: part, row: row, o: o})
}

func (p partStates) fold(rep *Report) {
	for k, parts := range p {
		var o Outcome
		has := map[State]bool{}
		for _, part := range parts {
			has[part.o.State] = true
			o.Messages = append(o.Messages, part.o.Messages...)
			if part.o.State == Accepted && part.part != "" {
				o.Applied = append(o.Applied, part.part)
			}
		}
		switch {
		case has[Rejected]:
			o.State = Rejected
			if has[Accepted] {
				o.Messages = partMessages(parts)
			}
			rep.Rejected++
		case has[Unknown], has[Unsent] && has[Accepted]:
			o.State, o.Messages = Unknown, nil
			rep.Unknown++
		case has[Unsent]:
			o.State, o.Messages, o.Applied = Unsent, nil, nil
			rep.Unsent++
		default:
			o.State, o.Messages, o.Applied = Accepted, nil, nil
			rep.Accepted++
		}
		rep.Outcomes[k] = o
	}
}

// partMessages says what became of each part of a row partly applied:
// "Quantity 383 applied. Status refused: …".
func partMessages(parts []partOutcome) i18n.Msgs {
	var out i18n.Msgs
	for _, p := range parts {
		switch {
		case p.part == PartQuantity && p.o.State == Accepted && p.row.Quantity != nil:
			out = append(out, i18n.M("mass.part_quantity_applied", map[string]any{"Qty": strconv.Itoa(*p.row.Quantity)}))
		case p.part == PartStatus && p.o.State == Accepted:
			out = append(out, i18n.M("mass.part_status_applied", map[string]any{"Status": i18n.Msg{Status: p.row.Status}}))
		case p.part == PartQuantity && p.o.State == Rejected:
			out = append(out, i18n.M("mass.part_quantity_refused", map[string]any{"Reason": p.o.Messages}))
		case p.part == PartStatus && p.o.State == Rejected:
			out = append(out, i18n.M("mass.part_status_refused", map[string]any{"Reason": p.o.Messages}))
		default:
			out = append(out, p.o.Messages...)
		}
	}
	return out
}

// runWrites runs the planned writes in order, each bounded on its own. A
// request-level failure stops the run: the failing write's rows are
// unknown when it was sent, not sent otherwise, and every later write's
// rows are not sent. It returns the index of the failing write (len(writes)
// when none failed) and its error.
func (e *Engine) runWrites(ctx context.Context, acct *apiclient.Account, seller int64, writes []filterWrite, parts partStates, unmatched map[string]i18n.Msgs) (int, error) {
	for n, w := range writes {
		cctx, cancel := context.WithTimeout(ctx, e.chunkTimeout())
		out, wrote, err := e.runWrite(cctx, acct, seller, w)
		cancel()
		if err != nil {
			state := Unsent
			if wrote && errors.Is(err, apiclient.ErrOutcomeUnknown) {
				state = Unknown
			}
			for _, r := range w.rows {
				parts.add(r.Key(), w.part(), r, Outcome{State: state})
			}
			for _, later := range writes[n+1:] {
				for _, r := range later.rows {
					parts.add(r.Key(), later.part(), r, Outcome{State: Unsent})
				}
			}
			return n, err
		}
		for _, r := range w.rows {
			if msgs, ok := out.rejected[r.Key()]; ok {
				parts.add(r.Key(), w.part(), r, Outcome{State: Rejected, Messages: msgs})
			} else {
				parts.add(r.Key(), w.part(), r, Outcome{State: Accepted})
			}
		}
		for k, msgs := range out.unmatched {
			unmatched[k] = append(unmatched[k], msgs...)
		}
	}
	return len(writes), nil
}

// SendFiltered sends stock and status changes through the filtered writes,
// under the seller's mass-update lock, and accounts for every row as Send
// does (outcomes keyed by warehouse|barcode). Credentials rejected (or an
// error Engine.StoreFailed names) before anything was written is returned
// as the error; so is a *LockError.
func SendFiltered(ctx context.Context, e *Engine, acct *apiclient.Account, seller int64, items []SKUStock) (*Report, error) {
	rep := &Report{Outcomes: make(map[string]Outcome, len(items))}
	unlock, err := e.lock(ctx, seller)
	if err != nil {
		return nil, err
	}
	defer unlock()
	ctx = apiclient.WithRetryBudget(ctx, e.retryBudget())
	writes, refused := planWrites(items, e.filterSize())
	parts := partStates{}
	for k, msgs := range refused {
		parts.add(k, "", SKUStock{}, Outcome{State: Rejected, Messages: msgs})
	}
	unmatched := map[string]i18n.Msgs{}
	n, err := e.runWrites(ctx, acct, seller, writes, parts, unmatched)
	if err != nil {
		if n == 0 && (errors.Is(err, apiclient.ErrUnauthorized) || (e.StoreFailed != nil && e.StoreFailed(err))) {
			return nil, err
		}
		rep.Stopped = err
	}
	parts.fold(rep)
	if len(unmatched) > 0 {
		rep.Unmatched = unmatched
	}
	return rep, nil
}
