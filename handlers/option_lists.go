package handlers

import (
	"sync"

	"github.com/sellerdesk/sellerdesk/views/pages"
)

// optionLists holds option lists as each language labels them: fixed
// texts of the catalogues, the same for every request in a language,
// built once per dashboard and shared read-only by its pages. The keys
// are bounded by whoever builds the lists (languages times fixed lists).
type optionLists struct {
	m sync.Map // comparable key -> []pages.Option
}

// get returns the list kept under key, building it once.
func (o *optionLists) get(key any, build func() []pages.Option) []pages.Option {
	if v, ok := o.m.Load(key); ok {
		return v.([]pages.Option)
	}
	v, _ := o.m.LoadOrStore(key, build())
	return v.([]pages.Option)
}

// has reports whether a list is kept under key (for tests).
func (o *optionLists) has(key any) bool {
	_, ok := o.m.Load(key)
	return ok
}
