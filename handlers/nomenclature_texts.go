package handlers

import (
	"strconv"
	"strings"

	"github.com/sellerdesk/sellerdesk/browse"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/massupdate"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// writeRowKey writes rowKey(warehouse + "|" + barcode) to b: never more
// bytes than the two and the separator (a character of several bytes
// becomes one "_").
func writeRowKey(b *strings.Builder, warehouse, barcode string) {
	for i, s := range [2]string{warehouse, barcode} {
		if i > 0 {
			b.WriteByte('_') // rowKey's mapping of "|"
		}
		for _, r := range s {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
				b.WriteByte(byte(r))
			} else {
				b.WriteByte('_')
			}
		}
	}
}

// pageTexts writes the texts the handler makes for a page's rows (row
// key, price, sale price, quantity) into one buffer for the whole page,
// sized once: one allocation a page where one a value made about 150 for
// 50 rows. Each text is a piece of the buffer's string; a strings.Builder
// only appends, so a piece taken stays what it was.
type pageTexts struct {
	b strings.Builder
}

// rowTexts are one row's texts, as rowKey(warehouse + "|" + barcode), format.MoneyIn, saleTextIn
// and strconv.Itoa make them (TestPageTextsMatch).
type rowTexts struct{ key, price, sale, qty string }

// Room for one row's amounts and quantity: two amounts of at most 48
// bytes (format.AppendMoneyIn) and an int of at most 20.
const rowTextsRoom = 48 + 48 + 20

func newPageTexts(recs []browse.Record) *pageTexts {
	p := &pageTexts{}
	n := 0
	for _, r := range recs {
		n += len(r.WarehouseCode) + 1 + len(r.Barcode) + rowTextsRoom
	}
	p.b.Grow(n)
	return p
}

// row writes the texts of n.
func (p *pageTexts) row(l i18n.Lang, n browse.Record) rowTexts {
	var t rowTexts
	var num [48]byte
	start := p.b.Len()
	writeRowKey(&p.b, n.WarehouseCode, n.Barcode)
	t.key = p.piece(start)
	start = p.b.Len()
	p.b.Write(format.AppendMoneyIn(num[:0], l, int64(n.Price)))
	t.price = p.piece(start)
	if n.OnSale() {
		start = p.b.Len()
		p.b.Write(format.AppendMoneyIn(num[:0], l, int64(n.SalePrice)))
		t.sale = p.piece(start)
	} else {
		t.sale = noSale
	}
	start = p.b.Len()
	p.b.Write(strconv.AppendInt(num[:0], int64(n.Quantity), 10))
	t.qty = p.piece(start)
	return t
}

// piece is what was written since start.
func (p *pageTexts) piece(start int) string { return p.b.String()[start:] }

// noSale is the sale column of a record without a sale.
const noSale = "—"

// saleTextIn is the sale column in the number format of l: the sale
// price, or "—" without a sale (massupdate.OnSale: the marketplace lists
// a product without a sale with its sale price equal to the price).
func saleTextIn(l i18n.Lang, price, sale int64) string {
	if !massupdate.OnSale(price, sale) {
		return noSale
	}
	return format.MoneyIn(l, sale)
}
