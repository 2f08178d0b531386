package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/bulkjobs"
	"github.com/sellerdesk/sellerdesk/sandbox"
)

// jobData are the cells of a job page that hold marketplace data or the
// file's own: the item (SKU, product name), the file name in the title.
var jobData = []string{"#job-grid td:nth-child(2)", "main h1"}

func switchLang(t *testing.T, b *testapp.Browser, lang string) {
	t.Helper()
	if r := b.Post("/settings/language", url.Values{"lang": {lang}}); r.Status >= 400 {
		t.Fatalf("language switch to %s: %d", lang, r.Status)
	}
}

// TestImportAndJobInRussian: the import form, its refusals, the preview
// (counts, flags, reasons, the drop warning, confirmations), the job page
// with its progress and results, the downloads' headers and the flashes
// are Russian; a job previewed in English reads Russian once the user
// switches (its rows keep message keys, not sentences); marketplace data
// stays as sent.
func TestImportAndJobInRussian(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	skus, prices := catalogPrices(t, e, b)
	ok, guard, doomed := skus[0], skus[1], skus[2]
	raise := func(sku string, pct int64) string {
		m := int64(prices[sku]) * (100 + pct) / 100
		return fmt.Sprintf("%d.%02d", m/100, m%100)
	}
	csv := "sku,price\n" +
		ok + "," + raise(ok, 5) + "\n" +
		guard + "," + raise(guard, 80) + "\n" +
		doomed + "," + raise(doomed, -95) + "\n" +
		"NO-SUCH-SKU,100.00\n" +
		ok + ",1.00\n" +
		skus[3] + ",12.345\n"
	// Previewed in English: the rows are stored before the switch.
	id := jobIDOf(t, upload(t, e, b, "цены.csv", []byte(csv), ""))
	switchLang(t, b, "ru")

	// The page export's header is Russian, with the names the import reads
	// back: a Russian export, edited, is a Russian import.
	resp, data := download(t, e, b, "/prices/export.csv?limit=20")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("prices export: %d", resp.StatusCode)
	}
	header, _, _ := strings.Cut(string(data), "\n")
	if !strings.Contains(header, `"Артикул маркетплейса","Название","Бренд","Размер","Цена","Цена со скидкой","Начало скидки","Конец скидки"`) {
		t.Errorf("Russian export header %q", header)
	}
	again := jobIDOf(t, upload(t, e, b, "выгрузка.csv", data, ""))
	// Every column read: no row refused (a sale equal to the price, as the
	// marketplace reports some, reads as a change, in either language).
	if pg := b.Get("/bulk/jobs/" + again); pg.Text("[data-testid=count-invalid]") != "0 с ошибками" {
		t.Errorf("the Russian export imported back: %q", pg.Text("[data-testid=job-counts]"))
	}
	resp, data = download(t, e, b, "/nomenclature/export.csv?limit=20")
	if header, _, _ := strings.Cut(string(data), "\n"); resp.StatusCode != http.StatusOK || !strings.Contains(header, `"Склад","Штрихкод","Артикул маркетплейса"`) {
		t.Errorf("Russian nomenclature export header %d %q", resp.StatusCode, header)
	}

	f := b.Get("/bulk/import")
	if got := f.Text("main h1"); got != "Массовый импорт" {
		t.Errorf("import h1 %q", got)
	}
	if words := englishOutside(f.Doc.Find("main"), []string{"CSV", "XLSX", "UTF"}); len(words) > 0 {
		t.Errorf("English on the Russian import form: %q", words)
	}

	p := b.Get("/bulk/jobs/" + id)
	if p.Status != http.StatusOK {
		t.Fatalf("preview: %d", p.Status)
	}
	if got := p.Text("main h1"); !strings.HasPrefix(got, "Импорт цен: ") {
		t.Errorf("job h1 %q", got)
	}
	msg := func(line int) string { return p.Text(fmt.Sprintf("[data-testid=row-%d] [data-testid=message]", line)) }
	for line, want := range map[int]string{
		3: "Изменение больше ±",
		4: "Маркетплейс отклоняет цену ниже текущей",
		5: "Неизвестный артикул",
		6: "Этот артикул встречается повторно (впервые в строке 2)",
		7: "цена: Не больше двух знаков после запятой",
	} {
		if got := msg(line); !strings.Contains(got, want) {
			t.Errorf("row %d message %q, want %q", line, got, want)
		}
	}
	if got := msg(4); !strings.Contains(got, ",") || strings.Contains(got, "mass.") {
		t.Errorf("drop warning %q: amounts not written the Russian way", got)
	}
	for sel, want := range map[string]string{
		"[data-testid=count-send]":    "к отправке",
		"[data-testid=count-invalid]": "3 с ошибками",
		"#job-submit":                 "Отправить изменения",
		"[data-testid=doomed]":        "отклоняется правилом маркетплейса",
		"[data-testid=job-who]":       "тестовая",
	} {
		if got := p.Text(sel); !strings.Contains(got, want) {
			t.Errorf("%s %q, want %q", sel, got, want)
		}
	}
	if words := englishOutside(p.Doc.Find("main"), []string{"CSV", "demo-"}, jobData...); len(words) > 0 {
		t.Errorf("English on the Russian preview: %q", words)
	}

	// Errors CSV of the preview: the header and the dashboard's words in
	// Russian, the typed cells as typed.
	resp, data = download(t, e, b, "/bulk/jobs/"+id+"/errors.csv")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("errors.csv: %d", resp.StatusCode)
	}
	body := string(data)
	if !strings.Contains(body, "Артикул маркетплейса") || !strings.Contains(body, "Строка файла") || !strings.Contains(body, "Неизвестный артикул") ||
		!strings.Contains(body, `"NO-SUCH-SKU","100.00"`) || !strings.Contains(body, `"ошибка"`) || !strings.Contains(body, `"нужно подтверждение"`) {
		t.Errorf("errors.csv in Russian: %q", body)
	}
	if strings.Contains(body, `"k":`) || strings.Contains(body, "Marketplace SKU") {
		t.Errorf("errors.csv leaks a stored message or an English header: %q", body)
	}

	// Send with every guarded row confirmed; the doomed one stays back.
	form := url.Values{"confirm_all": {"1"}}
	if r := b.Post("/bulk/jobs/"+id+"/submit", form); r.Status >= 400 {
		t.Fatalf("submit: %d", r.Status)
	}
	waitJob(t, e, id, "finished", func(j bulkjobs.Job) bool { return !j.Active() })
	r := b.Get("/bulk/jobs/" + id)
	if got := r.Text("[data-testid=job-state]"); !strings.HasPrefix(got, "завершено") {
		t.Errorf("state %q", got)
	}
	if got := r.Text("[data-testid=progress-counts]"); !strings.Contains(got, "Отправлено") || !strings.Contains(got, "принято") {
		t.Errorf("progress counts %q", got)
	}
	if got := r.Text("[data-testid=row-4] [data-testid=message]"); !strings.Contains(got, "Не отправлено: маркетплейс отклоняет цену") {
		t.Errorf("doomed row after submit %q", got)
	}
	if got := r.Text("[data-testid=row-2] [data-testid=result]"); got != "принято" {
		t.Errorf("result %q", got)
	}
	// Rejected rows' messages are the marketplace's, as sent.
	if words := englishOutside(r.Doc.Find("main"), []string{"CSV", "demo-"}, append(jobData, "tr.rejected [data-testid=message]")...); len(words) > 0 {
		t.Errorf("English on the Russian job page: %q", words)
	}

	// The history's record of the run, kept as message keys, reads
	// Russian too.
	var h *testapp.Page
	waitUntil(t, "the job in the history", func() bool {
		h = b.Get("/history?kind=bulk")
		return strings.Contains(h.Text("#history-table"), "Импорт цен, файл цены.csv.")
	})
	if got := h.Text("#history-table"); strings.Contains(got, `"k":`) || strings.Contains(got, "jobs.") || strings.Contains(got, "Price import") {
		t.Errorf("history of the job %q", got)
	}

	// The same job in English reads as before.
	switchLang(t, b, "en")
	en := b.Get("/bulk/jobs/" + id)
	if got := en.Text("[data-testid=row-5] [data-testid=message]"); got != "Unknown SKU: it is not in this seller's catalogue." {
		t.Errorf("English message %q", got)
	}
	if got := en.Text("[data-testid=job-state]"); !strings.HasPrefix(got, "finished") {
		t.Errorf("English state %q", got)
	}
}

// TestImportRefusalsInRussian: a file the import cannot use is refused
// in Russian: no file, an empty file, a header without the needed column.
func TestImportRefusalsInRussian(t *testing.T) {
	t.Parallel()
	e := newBulkEnv(t, sandbox.Options{}, 25, bulkjobs.RunnerOptions{})
	b := e.browser()
	switchLang(t, b, "ru")
	for name, c := range map[string]struct {
		data, want string
	}{
		"empty.csv":  {"", "Файл не удалось прочитать: файл пуст."},
		"header.csv": {"foo,price\n1,2\n", "Строка заголовков не подходит: строка 1: нет столбца \"артикул маркетплейса\": он нужен в строке заголовков"},
	} {
		page := uploadPage(t, e, b, name, []byte(c.data))
		if got := strings.TrimSpace(page.Find("#import-error").Text()); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
}

// uploadPage posts a file to the import form and returns the page the
// dashboard answers with (a refusal renders the form again, 422).
func uploadPage(t *testing.T, e *bulkEnv, b *testapp.Browser, name string, data []byte) *goquery.Document {
	t.Helper()
	resp := postUpload(t, e, b, name, data, "")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("%s: status %d, want 422", name, resp.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestFormProblemsInRussian: the field problems massupdate finds on the
// nomenclature form (kept as message keys) read Russian on a Russian page.
func TestFormProblemsInRussian(t *testing.T) {
	t.Parallel()
	app := russianApp(t, testapp.Options{})
	b := app.Browser(t)
	b.LoginDemo()
	form := b.Get("/nomenclature?limit=20").FormValues("#nomenclature-form")
	form["qty"][0], form["qty"][1], form["status"][2] = "-1", "2.5", "sold_out"
	res := b.Post("/nomenclature?limit=20", form)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.Status)
	}
	for id, want := range map[string]string{
		"#qty-0-error":    "Количество не может быть отрицательным.",
		"#qty-1-error":    "Введите целое число штук.",
		"#status-2-error": "Выберите один из статусов списка.",
	} {
		if got := res.Text(id); got != want {
			t.Errorf("%s says %q, want %q", id, got, want)
		}
	}
	// A form refused whole (its columns do not line up) says why in
	// Russian on the error page.
	form["qty"] = form["qty"][:1]
	bad := b.Post("/nomenclature?limit=20", form)
	if bad.Status != http.StatusBadRequest || !strings.Contains(bad.Text("main"), "столбцы формы не совпадают") || strings.Contains(bad.Body, "mass.form_shape") {
		t.Errorf("malformed form: %d %q", bad.Status, bad.Text("main"))
	}
}
