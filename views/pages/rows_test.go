package pages

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/sellerdesk/sellerdesk/views/i18n"
)

func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOrderRowsMatchTempl keeps the Go rows of the orders table byte for
// byte what the templ original renders.
func TestOrderRowsMatchTempl(t *testing.T) {
	v := orderRowsFixture()
	got, want := renderString(t, orderRows(v)), renderString(t, orderRowsTempl(v))
	if got != want {
		t.Fatalf("orderRows differs from the templ original:\n got %s\nwant %s", got, want)
	}
}

// TestOrderRowsMatchTemplInRussian renders both in Russian: the status
// badges speak the page's language, the checkbox labels come from the view.
func TestOrderRowsMatchTemplInRussian(t *testing.T) {
	v := orderRowsFixture()
	v.SelectLabel = "Выбрать заказ "
	ctx := i18n.WithLang(context.Background(), i18n.RU)
	var got, want bytes.Buffer
	if err := orderRows(v).Render(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if err := orderRowsTempl(v).Render(ctx, &want); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("orderRows differs from the templ original in Russian:\n got %s\nwant %s", got.String(), want.String())
	}
	for _, w := range []string{"Передан в доставку", "Доставлен", `aria-label="Выбрать заказ RU1-2"`} {
		if !strings.Contains(got.String(), w) {
			t.Errorf("Russian rows lack %q", w)
		}
	}
}

func orderRowsFixture() OrdersView {
	return OrdersView{SelectLabel: "Select ", Bulk: Resend{FormID: "resend-bulk"}, Rows: []OrderRow{
		{OrderNr: "RU1-2", Href: "/orders/RU1-2", Status: "to_delivery", Created: "2026-11-01 09:38", Sum: "44 603,10", Payment: "COD", Items: 2,
			Resend: Resend{FormID: "resend-RU1-2", OrderNrs: []string{"RU1-2"}, Label: "Resend", Return: "/orders?limit=50&status=new"}},
		{OrderNr: "RU3", Href: "/orders/RU3", Status: "weird<&>\"", Created: "", Sum: "0,00", Payment: "<b>card</b>", Items: 0,
			Resend: Resend{FormID: "resend-RU3", OrderNrs: []string{"RU3"}, Label: "Resend", State: "busy", Message: "Already being processed by the marketplace.", RetryIn: 4, RetryAt: "10:00:04 UTC", Return: "/orders"}},
		{OrderNr: "RU 4/5", Href: "/orders/RU%204%2F5", Status: "", Sum: "1,00", Items: 1,
			Resend: Resend{FormID: "resend-x", Label: "Resend", RetryIn: 3, Return: "/orders"}},
		{OrderNr: "RU6", Href: "javascript:alert(1)", Status: "delivered", Items: 1, Resend: Resend{FormID: "resend-RU6", OrderNrs: []string{"RU6"}, Label: "Resend", Return: "/orders"}},
	}}
}

// TestPriceRowsMatchTempl keeps the Go rows of the prices table byte for
// byte what the templ original renders, in every state a row can be in.
func TestPriceRowsMatchTempl(t *testing.T) {
	long := strings.Repeat("Очень длинное название товара ", 5)
	v := PricesView{Rows: []PriceRow{
		{SKU: "MP1", Name: "Шарф", Brand: "Brand", Size: "44", Warehouses: "W1", Current: "1 299,00", CurrentSale: "—", UpdateStatus: "OK",
			OrigPrice: "1299.00", Price: "1299.00"},
		{SKU: "MP2", Name: long, Brand: long, Current: "10,00", CurrentSale: "9,00", UpdateStatus: "PROCESSING",
			OrigPrice: "10.00", OrigSale: "9.00", Price: "11.00", Sale: "9.00", Start: "2026-12-01", End: "2026-12-31", OrigStart: "2026-11-01", OrigEnd: "2026-11-30",
			Result: RowResult{State: "accepted", Before: "10,00", After: "11,00"}},
		{SKU: "MP<3>", Name: "a\u202eb\x01c & \"d\"", Current: "1,00", CurrentSale: "—", UpdateStatus: "ERROR", Price: "0.05", OrigPrice: "1.00",
			Result: RowResult{State: "rejected", Messages: []string{"price below the allowed minimum", long + long}}},
		{SKU: "MP4", Name: "x", Current: "1,00", CurrentSale: "—", UpdateStatus: "unknown_status", Price: "abc", Sale: "-1", Start: "x", End: "y",
			Errors: map[string]string{"price": "must be a number", "sale": "must not be negative", "start": "not a date", "end": "<b>bad</b>"},
			Result: RowResult{State: "invalid"}},
		{SKU: "MP5", Name: "(no longer on this page)", Result: RowResult{State: "unsent"}},
		{SKU: "MP6", Name: "", Result: RowResult{State: "other"}},
	}}
	for i := range 12 { // index numbers of several digits
		v.Rows = append(v.Rows, PriceRow{SKU: "N" + string(rune('a'+i)), Name: "n", Current: "1,00", CurrentSale: "—", Price: "1.00", OrigPrice: "1.00"})
	}
	got, want := renderString(t, priceRows(v)), renderString(t, priceRowsTempl(v))
	if got != want {
		t.Fatalf("priceRows differs from the templ original:\n got %s\nwant %s", got, want)
	}
	ru := i18n.WithLang(context.Background(), i18n.RU)
	var g, w bytes.Buffer
	if err := priceRows(v).Render(ru, &g); err != nil {
		t.Fatal(err)
	}
	if err := priceRowsTempl(v).Render(ru, &w); err != nil {
		t.Fatal(err)
	}
	if g.String() != w.String() {
		t.Fatalf("priceRows differs from the templ original in Russian:\n got %s\nwant %s", g.String(), w.String())
	}
	for _, word := range []string{"размер 44", "со скидкой 9,00", `aria-label="Новая цена MP1"`, "Конец скидки ", "Обрабатывается"} {
		if !strings.Contains(g.String(), word) {
			t.Errorf("Russian rows lack %q", word)
		}
	}
}

// TestNomenclatureRowsMatchTempl keeps the Go rows of the nomenclature
// table byte for byte what the templ original renders, in every state a row
// can be in.
func TestNomenclatureRowsMatchTempl(t *testing.T) {
	long := strings.Repeat("Очень длинное название товара ", 5)
	opts := []Option{{Value: "online", Label: "online"}, {Value: "disabled", Label: "disabled"}}
	v := NomenclatureView{Rows: []NomenclatureRow{
		{Key: "MSK-1_460", Warehouse: "MSK-1", Barcode: "460", SKU: "MP1", Name: "Шарф", Brand: "Brand", Size: "44", Price: "1 299,00", SalePrice: "—",
			Quantity: "5", OrigQuantity: "5", Status: "online", OrigStatus: "online", StatusOptions: opts},
		{Key: "W<2>_\"b\"", Warehouse: "W<2>", Barcode: "\"b\"&", SKU: "<i>sku</i>", Name: long, Brand: long, Price: "1,00", SalePrice: "0,50",
			Quantity: "-1", OrigQuantity: "3", Status: "in_moderation", OrigStatus: "in_moderation",
			StatusOptions: []Option{{Value: "in_moderation", Label: "in_moderation"}, {Value: "a\"b", Label: "<b>x</b>"}},
			Errors:        map[string]string{"quantity": "must be a whole number", "status": "<b>not allowed</b>"}, Result: RowResult{State: "invalid"}},
		{Key: "k3", Warehouse: "W", Barcode: "1", Name: "a\u202eb\x01c", Quantity: "7", OrigQuantity: "6", Status: "disabled", OrigStatus: "online", StatusOptions: opts,
			Result: RowResult{State: "accepted", Before: "6 · online", After: "7 · disabled"}},
		{Key: "k4", Warehouse: "W", Barcode: "2", Quantity: "1", OrigQuantity: "0", StatusOptions: nil,
			Result: RowResult{State: "rejected", Messages: []string{"stock cannot be negative", long + long}}},
		{Key: "k5", Warehouse: "W", Barcode: "3", Result: RowResult{State: "unsent"}},
		{Key: "k6", Warehouse: "W", Barcode: "4", Result: RowResult{State: "unknown"}},
		{Key: "k7", Warehouse: "W", Barcode: "5", Result: RowResult{State: "other"}},
	}}
	for i := range 12 { // index numbers of several digits
		v.Rows = append(v.Rows, NomenclatureRow{Key: "n" + string(rune('a'+i)), Warehouse: "W", Barcode: "b", Quantity: "1", OrigQuantity: "1", Status: "online", StatusOptions: opts})
	}
	got, want := renderString(t, nomenclatureRows(v)), renderString(t, nomenclatureRowsTempl(v))
	if got != want {
		t.Fatalf("nomenclatureRows differs from the templ original:\n got %s\nwant %s", got, want)
	}
	// In Russian: the words come from the catalogue, once per render.
	ru := i18n.WithLang(context.Background(), i18n.RU)
	var g, w bytes.Buffer
	if err := nomenclatureRows(v).Render(ru, &g); err != nil {
		t.Fatal(err)
	}
	if err := nomenclatureRowsTempl(v).Render(ru, &w); err != nil {
		t.Fatal(err)
	}
	if g.String() != w.String() {
		t.Fatalf("nomenclatureRows differs from the templ original in Russian:\n got %s\nwant %s", g.String(), w.String())
	}
	for _, word := range []string{"размер", "со скидкой", " на складе ", "Количество "} {
		if !strings.Contains(g.String(), word) {
			t.Errorf("Russian rows lack %q", word)
		}
	}
}
