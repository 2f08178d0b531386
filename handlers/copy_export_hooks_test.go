package handlers

// ExportsRunning is how many whole-catalogue exports hold a place in the
// export gate.
func ExportsRunning(a *App) int {
	a.exports.mu.Lock()
	defer a.exports.mu.Unlock()
	return len(a.exports.running)
}
