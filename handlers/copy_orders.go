package handlers

import (
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/pages"
)

// orderSorts are the sort choices of the orders toolbar.
var orderSorts = []pages.Option{
	{Value: "", Label: i18n.K("copy.sort_newest")}, {Value: "created", Label: i18n.K("copy.sort_oldest")}, {Value: "-sum", Label: i18n.K("copy.sort_sum_desc")},
	{Value: "sum", Label: i18n.K("copy.sort_sum_asc")}, {Value: "-items", Label: i18n.K("copy.sort_most_items")}, {Value: "order", Label: i18n.K("copy.sort_order_number")},
	{Value: "status", Label: i18n.K("copy.sort_status")}, {Value: "-updated", Label: i18n.K("copy.sort_recently_updated")},
}
