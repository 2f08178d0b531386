package handlers

// ExportsRunning is how many whole-catalogue exports hold a place in the
// export gate.
func ExportsRunning(a *App) int {
	return a.exports.taken()
}
