package sandbox

import (
	"bytes"
	"encoding/json"
	"time"
)

// moscow is the marketplace's zone, in which it writes timestamps without
// one. Moscow keeps UTC+3 all year.
var moscow = time.FixedZone("MSK", 3*60*60)

// listKeys name the record arrays of the list answers: B2B orders, the
// nomenclature list, return boxes.
var listKeys = map[string]bool{"orders": true, "nomenclatures": true, "data": true}

// wildRecord is a record no reader can make sense of: every identifier,
// timestamp and amount the lists carry is of the wrong kind or form.
const wildRecord = `{"id":{"wild":true},"orderNr":"RU-WILD","code":"B-WILD","marketplaceSku":"WILD",` +
	`"createdAt":"yesterday","updatedAt":"soon","created_at":"yesterday","updated_at":"soon",` +
	`"price":"n/a","fullSum":"n/a","quantity":"many","item_quantity":"many","seller_id":"nobody"}`

// optionalFields are set to null in the rewritten record when present.
var optionalFields = []string{"paymentMethod", "deliveryPrice", "brand", "salePrice", "shipped_at"}

// wildRecords rewrites a list answer the way the real marketplace writes
// it: in every record array, the first record's numeric id becomes a
// string, its RFC 3339 timestamps become Moscow-time "YYYY-MM-DD hh:mm:ss",
// its optional fields become null, and an unreadable record follows it.
// An answer without a record array is returned unchanged.
func wildRecords(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return body
	}
	if !wildWalk(v, 0) {
		return body
	}
	out, err := marshalJSON(v)
	if err != nil {
		return body
	}
	return out
}

// wildWalk rewrites the record arrays below v and reports whether it found one.
func wildWalk(v any, depth int) bool {
	obj, ok := v.(map[string]any)
	if !ok || depth > 4 {
		return false
	}
	found := false
	for k, child := range obj {
		list, isList := child.([]any)
		if isList && listKeys[k] {
			found = true
			if len(list) > 0 {
				if rec, ok := list[0].(map[string]any); ok {
					wildRecord1(rec)
					if inner, ok := rec["nomenclature"].(map[string]any); ok {
						wildRecord1(inner) // the marketplace's nested record
					}
				}
			}
			var garbage any
			_ = json.Unmarshal([]byte(wildRecord), &garbage)
			if len(list) > 0 {
				if rec, ok := list[0].(map[string]any); ok && rec["nomenclature"] != nil {
					garbage = map[string]any{"nomenclature": garbage} // the marketplace's nested record
				}
			}
			out := make([]any, 0, len(list)+1)
			out = append(out, list[:min(1, len(list))]...)
			out = append(out, garbage)
			out = append(out, list[min(1, len(list)):]...)
			obj[k] = out
			continue
		}
		if wildWalk(child, depth+1) {
			found = true
		}
	}
	return found
}

func wildRecord1(rec map[string]any) {
	if n, ok := rec["id"].(json.Number); ok {
		rec["id"] = n.String()
	}
	for k, f := range rec {
		if s, ok := f.(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				rec[k] = t.In(moscow).Format(time.DateTime)
			}
		}
	}
	for _, k := range optionalFields {
		if _, ok := rec[k]; ok {
			rec[k] = nil
		}
	}
	if items, ok := rec["items"].([]any); ok {
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if n, ok := m["id"].(json.Number); ok {
					m["id"] = n.String()
				}
			}
		}
	}
}
