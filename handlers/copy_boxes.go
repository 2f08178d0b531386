package handlers

import (
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// boxSorts are the sort choices of the return boxes toolbar.
var boxSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")},
	{Value: "code", Label: i18n.K("copy.sort_box_code")}, {Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}
