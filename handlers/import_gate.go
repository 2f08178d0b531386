package handlers

import "time"

// maxImportBytes bounds an uploaded file (the body limit of the group is
// larger, for the multipart envelope).
const maxImportBytes = 6 << 20

// importParseBudget bounds reading one uploaded file; the size limits of
// bulkjobs stop a bomb long before it.
const importParseBudget = 15 * time.Second

// maxConcurrentImports is how many files the whole dashboard parses at
// once (one per core of a small machine).
const maxConcurrentImports = 2

// importRetryAfter is the Retry-After, in seconds, of an upload refused
// for want of a place.
const importRetryAfter = 5
