package massupdate

import "github.com/sellerdesk/sellerdesk/apiclient"

// StockItem is one checked stock or status change as the engine sends
// it (the Stock kind's item): its callers name it without the wire
// package.
type StockItem = apiclient.StoreItem
