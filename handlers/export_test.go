package handlers

// SetImportHeld makes every import run held while it holds its place in
// the import gate (set before the first request).
func SetImportHeld(a *App, held func()) { a.imports.held = held }
