package sandbox

// Stock returns the quantity and status the sandbox holds for a seller's
// record (warehouse and barcode), for tests that check what a write left
// at the marketplace; ok is false when there is no such record.
func (s *Sandbox) Stock(sellerID int64, warehouse, barcode string) (quantity int, status string, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sd := s.sellers[sellerID]
	if sd == nil {
		return 0, "", false
	}
	rec := sd.recordByKey[recordKey(warehouse, barcode)]
	if rec == nil {
		return 0, "", false
	}
	return rec.quantity, rec.status, true
}
