package copystore

// uniqueRecords returns recs with each record key (warehouse, barcode, as
// stored) once, the last occurrence kept. A marketplace list may repeat a
// record within a page and across pages; across pages the upsert keeps
// one row, but PostgreSQL refuses one statement that would update a row
// twice. recs is returned as it is when nothing repeats.
func uniqueRecords(recs []Record) []Record {
	type key struct{ warehouse, barcode string }
	seen := make(map[key]int, len(recs))
	dup := false
	for i := range recs {
		k := key{bound(recs[i].Warehouse, maxFieldBytes), bound(recs[i].Barcode, maxFieldBytes)}
		if _, ok := seen[k]; ok {
			dup = true
		}
		seen[k] = i
	}
	if !dup {
		return recs
	}
	out := make([]Record, 0, len(seen))
	for i := range recs {
		k := key{bound(recs[i].Warehouse, maxFieldBytes), bound(recs[i].Barcode, maxFieldBytes)}
		if seen[k] == i {
			out = append(out, recs[i])
		}
	}
	return out
}
