package handlers

import (
	"sync"
	"time"
)

// maxImportBytes bounds an uploaded file (the body limit of the group is
// larger, for the multipart envelope).
const maxImportBytes = 6 << 20

// importParseBudget bounds reading one uploaded file; the size limits of
// bulkjobs stop a bomb long before it.
const importParseBudget = 15 * time.Second

// maxConcurrentImports is how many files the whole dashboard parses at
// once (one per core of a small machine).
const maxConcurrentImports = 2

// importGate lets one file per seller, and a few in all, be parsed at a
// time: parsing is the costly part of an import, and a seller's second
// upload while the first is read is a double click, not more work.
type importGate struct {
	mu      sync.Mutex
	sellers map[int64]bool
	running int
	max     int
	// held, when set, runs while an import holds its place (tests hold
	// one there to see what a second upload gets).
	held func()
}

func newImportGate(max int) *importGate {
	return &importGate{sellers: map[int64]bool{}, max: max}
}

// enter takes a place for seller's import. When none is free it returns
// how many seconds to wait before trying again, and a no-op release.
func (g *importGate) enter(seller int64) (release func(), wait int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sellers[seller] || g.running >= g.max {
		return func() {}, 5
	}
	g.sellers[seller] = true
	g.running++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			delete(g.sellers, seller)
			g.running--
			g.mu.Unlock()
		})
	}, 0
}
