package copystore

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCardPlans: the statements that find records by their card (a file's
// card-named rows, a product page of a card, the accepted price changes of
// a batch of SKUs that may be cards) read the copy through indexes, on
// SQLite: a scan would read every record of the seller for each of them,
// a minute of a 10,000-row price form on a copy of a million.
func TestCardPlans(t *testing.T) {
	t.Parallel()
	s := newBackend(t, filepath.Join(t.TempDir(), "catalog.db")).open()
	k := Key{SellerID: 1001, Env: "test"}
	fillPlanCopy(t, s, k, 300)

	lookup := `SELECT ` + packedRecord + ` FROM catalog_nomenclature WHERE id IN (SELECT id FROM catalog_nomenclature WHERE seller_id = ? AND env = ? AND parent_sku IN (?, ?)) ORDER BY id`
	type statement struct {
		query string
		args  []any
	}
	statements := map[string]statement{"lookup by card": {lookup, []any{k.SellerID, k.Env, "CARD1", "CARD2"}}}
	// A batch of two changes in the smallest table, the rest of it NULL,
	// bound as acceptPrices binds them.
	size := acceptSizes[0]
	p := int64(100)
	args := acceptArgs(k, 1_700_000_000_000, size, []Change{{SKU: "MP000001", Price: &p}, {SKU: "CARD1", Price: &p}})
	for name, query := range map[string]string{
		"accepted baseline": acceptedBaseline,
		"prices by SKU":     acceptPricesBySKU,
		"prices by card":    acceptPricesByCard,
		"observed accepted": observeAccepted,
	} {
		statements[name] = statement{acceptedPrices(size) + query, args}
	}
	statements["lookup by SKU"] = statement{strings.Replace(lookup, "parent_sku", "marketplace_sku", 1), []any{k.SellerID, k.Env, "MP000001", "MP000002"}}
	statements["lookup by barcode"] = statement{strings.Replace(lookup, "parent_sku", "warehouse = ? AND barcode", 1), []any{k.SellerID, k.Env, "W1", "4600000000001", "4600000000002"}}
	replaced := []any{k.SellerID, k.Env, "W1"}
	for i := range lookupBatch {
		replaced = append(replaced, fmt.Sprintf("460%010d", i))
	}
	statements["replaced by barcode"] = statement{replacedQuery(lookupBatch), replaced}
	// Every read of the records must be by a SKU, a card or an id: a scan,
	// or a search by the seller alone (the list index, the updated index's
	// range), reads all of the seller's records. The batch's VALUES table,
	// v, is scanned by design.
	records := regexp.MustCompile(`(?m)^(SCAN|SEARCH) (n|catalog_nomenclature)\b.*$`)
	named := regexp.MustCompile(`marketplace_sku=\?|parent_sku=\?|barcode=\?|rowid=\?`)
	for name, st := range statements {
		p := queryPlan(t, s, s.q(st.query), st.args)
		for _, line := range records.FindAllString(p, -1) {
			if !named.MatchString(line) {
				t.Errorf("%s reads every record of the seller (%s):\n%s", name, line, p)
			}
		}
	}
}
