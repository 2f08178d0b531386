package browse

import "github.com/sellerdesk/sellerdesk/i18n"

// Sort is one sort choice of a list from the copy: its value in the URL
// (a column of the copy, "-" before it for descending; "" the list's own
// order) and its label's catalogue key.
type Sort struct{ Value, Label string }

// NomenclatureSorts are the sort choices of the nomenclature.
var NomenclatureSorts = []Sort{
	{"", i18n.K("copy.sort_marketplace_order")}, {"name", i18n.K("copy.sort_name_az")}, {"-name", i18n.K("copy.sort_name_za")},
	{"price", i18n.K("copy.sort_price_asc")}, {"-price", i18n.K("copy.sort_price_desc")},
	{"quantity", i18n.K("copy.sort_stock_asc")}, {"-quantity", i18n.K("copy.sort_stock_desc")},
	{"-updated", i18n.K("copy.sort_recently_updated")}, {"sku", i18n.K("copy.sort_sku")}, {"barcode", i18n.K("copy.sort_barcode")},
	{"warehouse", i18n.K("copy.sort_warehouse")}, {"status", i18n.K("copy.sort_status")},
}

// PriceSorts are the sort choices of the prices: every column of the
// price table the copy holds (the SKU, the product's name, the current
// price and sale price and their update status), both ways, and the
// warehouse the records are listed under.
var PriceSorts = []Sort{
	{"", i18n.K("copy.sort_marketplace_order")}, {"sku", i18n.K("copy.sort_sku")}, {"-sku", i18n.K("copy.sort_sku_desc")},
	{"name", i18n.K("copy.sort_name_az")}, {"-name", i18n.K("copy.sort_name_za")},
	{"price", i18n.K("copy.sort_price_asc")}, {"-price", i18n.K("copy.sort_price_desc")},
	{"sale_price", i18n.K("copy.sort_sale_asc")}, {"-sale_price", i18n.K("copy.sort_sale_desc")},
	{"price_status", i18n.K("copy.sort_price_status")}, {"-price_status", i18n.K("copy.sort_price_status_desc")},
	{"warehouse", i18n.K("copy.sort_warehouse")}, {"-updated", i18n.K("copy.sort_recently_updated")},
}

// OrderSorts are the sort choices of the orders.
var OrderSorts = []Sort{
	{"", i18n.K("copy.sort_newest")}, {"created", i18n.K("copy.sort_oldest")}, {"-sum", i18n.K("copy.sort_sum_desc")},
	{"sum", i18n.K("copy.sort_sum_asc")}, {"-items", i18n.K("copy.sort_most_items")}, {"order", i18n.K("copy.sort_order_number")},
	{"status", i18n.K("copy.sort_status")}, {"-updated", i18n.K("copy.sort_recently_updated")},
}

// BoxSorts are the sort choices of the return boxes.
var BoxSorts = []Sort{
	{"", i18n.K("copy.sort_newest")}, {"created", i18n.K("copy.sort_oldest")}, {"-items", i18n.K("copy.sort_most_items")},
	{"code", i18n.K("copy.sort_box_code")}, {"status", i18n.K("copy.sort_status")}, {"-updated", i18n.K("copy.sort_recently_updated")},
}
