package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sellerdesk/sellerdesk/apiclient"
	"github.com/sellerdesk/sellerdesk/app/testapp"
	"github.com/sellerdesk/sellerdesk/i18n"
	"github.com/sellerdesk/sellerdesk/views/format"
)

// chromiumPaths are where Debian's chromium package puts the browser. The
// real binary comes first: the /usr/bin launcher script sources
// /etc/chromium.d and adds flags (extensions, API keys) of its own, and the
// journeys want exactly the flags below.
var chromiumPaths = []string{
	"/usr/lib/chromium/chromium",
	"/usr/bin/chromium",
	"/usr/bin/chromium-browser",
}

// missingChromium says what is missing and how to get it.
const missingChromium = "no Chromium found (looked at /usr/lib/chromium/chromium, /usr/bin/chromium, /usr/bin/chromium-browser); install it with `apt-get install chromium`"

// Timeouts. Every wait is bounded so a broken page fails within a minute,
// not at the go test deadline; the bounds are deadlines for conditions, set
// far beyond what a page needs on an idle machine, because CI shares two
// cores with whatever else runs (go test builds other packages beside the
// journeys). No journey relies on being fast.
const (
	stepTimeout = 60 * time.Second
	waitTimeout = 45 * time.Second
	// probeTimeout bounds one evaluation while waiting for a condition.
	probeTimeout = 10 * time.Second
)

func findChromium() string {
	for _, p := range chromiumPaths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// artifactsDir is where the end-state screenshots go: SELLERDESK_E2E_ARTIFACTS
// or e2e/artifacts (go test runs in the package folder). Relative paths are
// taken from the package folder.
func artifactsDir(t testing.TB) string {
	dir := os.Getenv("SELLERDESK_E2E_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts folder: %v", err)
	}
	return dir
}

// e2eLang is the language the journeys' browser asks for:
// SELLERDESK_E2E_LANG=ru or en. Russian by default, the dashboard's own
// default and its users' language; English stays covered by the flow tests
// (handlers/russian_pages_test.go) and by the journeys that start in English
// on purpose (12 and 14, which press the language switch).
func e2eLang(t testing.TB) i18n.Lang {
	switch v := os.Getenv("SELLERDESK_E2E_LANG"); v {
	case "", "ru":
		return i18n.RU
	case "en":
		return i18n.EN
	default:
		t.Fatalf("SELLERDESK_E2E_LANG=%q: want ru or en", v)
		return ""
	}
}

// journey is one browser tab, in a browser context of its own, on a fresh
// dashboard and sandbox.
type journey struct {
	t    *testing.T
	app  *testapp.App
	ctx  context.Context // the tab; the browser runs already
	shot string          // screenshot file name
	lang i18n.Lang       // the language the browser asks for

	mu         sync.Mutex
	exceptions []string // uncaught JavaScript exceptions seen in the tab
	dialogs    []string // JavaScript dialogs the page opened (alert, confirm, beforeunload…)
}

// newJourney starts the dashboard and opens a tab for the test in the
// Chromium of the run's language (e2eLang). The cleanups run in reverse
// order: screenshot, tab, then the server.
func newJourney(t *testing.T, n int, name string, opts testapp.Options) *journey {
	t.Helper()
	return newJourneyIn(t, n, name, e2eLang(t), opts)
}

// newJourneyIn is newJourney with a browser asking for lang whatever the
// run's language (the journeys that start in English and switch).
//
// The journey runs in parallel with the others (TestMain sets how many at
// once): it owns its dashboard, its sandbox and its browser context, so
// nothing but the Chromium process is shared. A browser context is what an
// incognito window is: cookies, storage, cache and download settings of its
// own, gone when the tab closes.
func newJourneyIn(t *testing.T, n int, name string, lang i18n.Lang, opts testapp.Options) *journey {
	t.Helper()
	path := findChromium()
	if path == "" {
		if mandatory() {
			t.Fatal("E2E FAILED (SELLERDESK_E2E=1): " + missingChromium)
		}
		t.Skip("E2E SKIPPED: " + missingChromium)
	}
	t.Parallel()
	if opts.AcceptLanguage == "" {
		opts.AcceptLanguage = string(lang)
	}
	app := testapp.New(t, opts)

	browserCtx := sharedBrowser(t, path, lang)
	ctx, cancelTab := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	j := &journey{t: t, app: app, ctx: ctx, shot: fmt.Sprintf("journey-%d-%s.png", n, name), lang: lang}
	t.Cleanup(func() {
		defer j.slow("close the tab", time.Now())
		cancelTab() // waits for the tab and its browser context to go
	})

	// The first Run creates the tab (and its browser context); its
	// context has no timeout, as it binds the tab's life.
	opened := time.Now()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab in chromium (%s): %v", path, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() {
				j.mu.Lock()
				j.exceptions = append(j.exceptions, m.String())
				j.mu.Unlock()
			}
		}
	}()
	// A dialog blocks the page, and every evaluation and screenshot waits
	// for it: the journey fails at once, naming it, instead of after its
	// waits' deadlines. No journey expects one.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for d, err := range dialogs {
			if err != nil {
				return
			}
			j.mu.Lock()
			j.dialogs = append(j.dialogs, fmt.Sprintf("%s %q on %s", d.Type, d.Message, d.URL))
			j.mu.Unlock()
		}
	}()
	j.slow("open a tab", opened)
	j.do("viewport", chromedp.EmulateViewport(1280, 900))
	if got := j.browserLanguage(); got != string(lang) {
		t.Fatalf("the browser asks for %q, want %q", got, lang)
	}
	t.Cleanup(j.finish)
	return j
}

// browsers are the journeys' Chromium processes, one per language (the
// language is a command-line flag of the process), each started by the
// first journey that asks for it and stopped by TestMain after the last.
var browsers struct {
	mu sync.Mutex
	by map[i18n.Lang]*browserProcess
}

type browserProcess struct {
	ctx     context.Context // the browser's first tab; journeys open theirs beside it
	stop    func()          // ends the process and waits for it
	profile string          // its --user-data-dir, removed once it has stopped
}

// sharedBrowser returns the running Chromium asking for lang, starting it
// (again, if it died) when there is none.
func sharedBrowser(t *testing.T, path string, lang i18n.Lang) context.Context {
	t.Helper()
	browsers.mu.Lock()
	defer browsers.mu.Unlock()
	if b := browsers.by[lang]; b != nil {
		if b.ctx.Err() == nil {
			return b.ctx
		}
		b.halt()
		delete(browsers.by, lang)
	}
	profile, err := os.MkdirTemp("", "sellerdesk-e2e-chromium-")
	if err != nil {
		t.Fatalf("chromium profile: %v", err)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		// The browser's language: its Accept-Language and navigator.language.
		chromedp.Flag("lang", string(lang)),
		chromedp.Flag("accept-lang", string(lang)),
		chromedp.UserDataDir(profile),
	)
	ctx, cancelFirst := chromedp.NewContext(allocCtx)
	b := &browserProcess{ctx: ctx, profile: profile, stop: func() {
		cancelFirst()
		cancelAlloc() // waits for the browser process to end
	}}
	// The first Run starts the process; its context has no timeout, as it
	// binds the browser's life.
	started := time.Now()
	if err := chromedp.Do(ctx); err != nil {
		b.halt()
		t.Fatalf("start chromium (%s): %v", path, err)
	}
	if d := time.Since(started); d > time.Second {
		t.Logf("slow step (%s): start chromium (%s)", d.Round(time.Millisecond), lang)
	}
	if browsers.by == nil {
		browsers.by = map[i18n.Lang]*browserProcess{}
	}
	browsers.by[lang] = b
	return ctx
}

func (b *browserProcess) halt() {
	b.stop()
	_ = os.RemoveAll(b.profile)
}

// stopBrowsers ends every Chromium the journeys started.
func stopBrowsers() {
	browsers.mu.Lock()
	defer browsers.mu.Unlock()
	for lang, b := range browsers.by {
		b.halt()
		delete(browsers.by, lang)
	}
}

// dialog is the first JavaScript dialog the page opened, or "".
func (j *journey) dialog() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.dialogs) == 0 {
		return ""
	}
	return j.dialogs[0]
}

// finish saves the end state as a full-page PNG (also when the journey
// failed, which is when it is most useful) and reports JavaScript errors.
func (j *journey) finish() {
	if d := j.dialog(); d != "" {
		j.t.Errorf("no screenshot %s: the page is held by a JavaScript dialog: %s", j.shot, d)
		return
	}
	defer j.slow("screenshot", time.Now())
	ctx, cancel := context.WithTimeout(j.ctx, stepTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		// The end state's picture is for a person to look at, not one of
		// the journey's checks: on a busy machine capturing a long page
		// can outlast the step's minute, and the journey's own checks
		// have passed or failed by then.
		j.t.Logf("no screenshot %s: %v", j.shot, err)
	} else {
		file := filepath.Join(artifactsDir(j.t), j.shot)
		if err := os.WriteFile(file, png, 0o644); err != nil {
			j.t.Errorf("write screenshot: %v", err)
		} else {
			j.t.Logf("screenshot: %s", file)
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.exceptions {
		j.t.Errorf("uncaught JavaScript exception: %s", e)
	}
	for _, d := range j.dialogs {
		j.t.Errorf("JavaScript dialog: %s", d)
	}
}

// snapshot saves a full-page PNG of the current state beside the end-state
// one, as journey-N-<name>-<suffix>.png. Wide tables scroll sideways inside
// the page; scrollRight shows their right end (the result column) instead.
func (j *journey) snapshot(suffix string, scrollRight bool) {
	j.t.Helper()
	if scrollRight {
		eval[chromedp.Void](j, `document.querySelectorAll(".table-wrap").forEach(w => { w.scrollLeft = w.scrollWidth })`)
	}
	png := run(j, "screenshot", chromedp.FullScreenshot(100))
	name := strings.TrimSuffix(j.shot, ".png") + "-" + suffix + ".png"
	if err := os.WriteFile(filepath.Join(artifactsDir(j.t), name), png, 0o644); err != nil {
		j.t.Errorf("write screenshot: %v", err)
	}
	if scrollRight {
		eval[chromedp.Void](j, `document.querySelectorAll(".table-wrap").forEach(w => { w.scrollLeft = 0 })`)
	}
}

// do runs steps with a timeout and fails the journey at the first error.
func (j *journey) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	j.t.Helper()
	defer j.slow(what, time.Now())
	ctx, cancel := context.WithTimeout(j.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		j.t.Fatalf("%s: %v (page %s)", what, err, j.location())
	}
}

// slow logs a step that took long, to find what makes a journey slow.
func (j *journey) slow(what string, start time.Time) {
	if d := time.Since(start); d > time.Second {
		j.t.Logf("slow step (%s): %s", d.Round(time.Millisecond), what)
	}
}

// run runs one action with a timeout and returns its value.
func run[T any](j *journey, what string, a chromedp.Action[T]) T {
	j.t.Helper()
	defer j.slow(what, time.Now())
	ctx, cancel := context.WithTimeout(j.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		j.t.Fatalf("%s: %v (page %s)", what, err, j.location())
	}
	return v
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](j *journey, expr string) T {
	j.t.Helper()
	return run(j, "evaluate "+expr, chromedp.Evaluate[T](expr))
}

// markPage tags the loaded document; samePage then tells whether an answer
// was swapped into it (htmx) rather than loaded as a new page.
func (j *journey) markPage() {
	j.t.Helper()
	eval[chromedp.Void](j, `window.__e2eMark = true`)
}

func (j *journey) samePage() bool {
	j.t.Helper()
	return eval[bool](j, `window.__e2eMark === true`)
}

// swappedInPlace checks an htmx answer replaced its target and nothing else:
// the same document, one page header, one copy of the target.
func (j *journey) swappedInPlace(target string) {
	j.t.Helper()
	if !j.samePage() {
		j.t.Errorf("the answer loaded a new page instead of being swapped into %s", target)
	}
	if n := j.count("header.top"); n != 1 {
		j.t.Errorf("%d page headers after the swap: a whole page landed inside %s", n, target)
	}
	if n := j.count(target); n != 1 {
		j.t.Errorf("%d copies of %s after the swap, want 1", n, target)
	}
}

// location is the tab's current path and query, for failure messages.
func (j *journey) location() string {
	ctx, cancel := context.WithTimeout(j.ctx, 2*time.Second)
	defer cancel()
	u, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		return "?"
	}
	return strings.TrimPrefix(u, j.app.URL)
}

// open navigates to a path of the dashboard and waits for the load.
func (j *journey) open(path string) {
	j.t.Helper()
	j.do("open "+path, chromedp.Navigate(j.app.URL+path))
}

// ready is true once the page has loaded and htmx has settled: htmx wires up
// swapped-in content only when it settles (20 ms after the swap), and a key
// pressed before that sends a plain form post instead.
const ready = `(document.readyState === "complete" && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"))`

// until waits for a JavaScript condition that survives navigations (the
// page may be loading or being swapped when it is checked), on a ready page
// (see ready). It fails the journey with what was expected and what the
// page shows instead.
func (j *journey) until(what, cond string) {
	j.t.Helper()
	defer j.slow("wait for "+what, time.Now())
	deadline := time.Now().Add(waitTimeout)
	var last error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(j.ctx, probeTimeout)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](ready+` && !!(`+cond+`)`))
		cancel()
		if err == nil && ok {
			return
		}
		if d := j.dialog(); d != "" {
			j.t.Fatalf("waiting for %s: the page opened a JavaScript dialog: %s", what, d)
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	j.t.Fatalf("waited %s for %s; page %s shows: %q (last error %v)", waitTimeout, what, j.location(), j.visibleText(), last)
}

// untilNewPage is until for an action that loads another page: the page
// marked by markPage before the action must be gone, so a condition the old
// page happens to meet as well cannot pass too early.
func (j *journey) untilNewPage(what, cond string) {
	j.t.Helper()
	j.until(what, `window.__e2eMark !== true && (`+cond+`)`)
}

// visibleText is the main content's text, shortened, for failure messages.
func (j *journey) visibleText() string {
	ctx, cancel := context.WithTimeout(j.ctx, 2*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("main")||document.body||{innerText:""}).innerText`))
	if err != nil {
		return "?"
	}
	s = squash(s)
	if r := []rune(s); len(r) > 600 { // whole letters: the page is mostly Cyrillic
		s = string(r[:600]) + "…"
	}
	return s
}

// text is the whitespace-squashed text of the first element matching css,
// or "" when there is none.
func (j *journey) text(css string) string {
	j.t.Helper()
	return squash(eval[string](j, fmt.Sprintf(`(document.querySelector(%q)||{textContent:""}).textContent`, css)))
}

// value is the current value of the form field with the given id.
func (j *journey) value(id string) string {
	j.t.Helper()
	return eval[string](j, fmt.Sprintf(`(document.getElementById(%q)||{value:"<missing>"}).value`, id))
}

// count is the number of elements matching css.
func (j *journey) count(css string) int {
	j.t.Helper()
	return eval[int](j, fmt.Sprintf(`document.querySelectorAll(%q).length`, css))
}

// typeInto replaces the content of a text field by typing, as a person
// tabbing into the field would (tabbing selects the text, typing replaces
// it). A trailing "\n" presses Enter.
func (j *journey) typeInto(id, s string) {
	j.t.Helper()
	j.do("type into #"+id,
		chromedp.Focus(chromedp.ID(id)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).select()`, id)),
		chromedp.SendKeys(chromedp.ID(id), s),
	)
}

// choose picks the option of a select whose value is want with the
// keyboard: type-ahead on the option's label as the page shows it, in
// whatever language; it checks the select took the wanted value.
func (j *journey) choose(id, want string) {
	j.t.Helper()
	pos := eval[[]int](j, fmt.Sprintf(`(() => { const s = document.getElementById(%q); if (!s) return [-1, -1]; return [s.selectedIndex, Array.from(s.options).findIndex(o => o.value === %q)] })()`, id, want))
	if len(pos) != 2 || pos[1] < 0 {
		j.t.Fatalf("the select #%s has no option %q", id, want)
	}
	// The arrow keys, as a keyboard user moves through a closed select:
	// typing the option's label instead depends on the keystrokes' timing
	// (a pause longer than the browser's type-ahead window starts a new
	// search), which a loaded machine does not keep.
	key := kb.ArrowDown
	n := pos[1] - pos[0]
	if n < 0 {
		key, n = kb.ArrowUp, -n
	}
	actions := []chromedp.Action[chromedp.Void]{chromedp.Focus(chromedp.ID(id))}
	for range n {
		actions = append(actions, chromedp.KeyEvent(key))
	}
	j.do("choose in #"+id, actions...)
	if got := j.value(id); got != want {
		j.t.Fatalf("moving %d options through the select #%s chose %q, want %q", pos[1]-pos[0], id, got, want)
	}
}

// press focuses an element (a button or a link) and presses Enter on it.
func (j *journey) press(css string) {
	j.t.Helper()
	j.do("press Enter on "+css, chromedp.Focus(chromedp.CSS(css)), chromedp.KeyEvent("\r"))
}

// login fills the login form with the keyboard and submits it with Enter.
func (j *journey) login(clientID, secret, seller, env string) {
	j.t.Helper()
	j.open("/login")
	j.typeInto("client_id", clientID)
	j.typeInto("seller_id", seller)
	j.choose("environment", env)
	j.markPage()
	j.typeInto("client_secret", secret+"\n")
}

// loginDemo logs in as the sandbox's seller 1001 and waits for the overview.
func (j *journey) loginDemo() {
	j.t.Helper()
	j.login("demo-1001", "sandbox-secret-1001", "1001", "test")
	j.untilNewPage("the logged-in header", `document.querySelector("#logout") && document.querySelector("[data-testid=who]")`)
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// shown is an amount as the pages write it in the journey's language
// ("21 300,00" in Russian, "21,300.00" in English), squashed as text() is.
func (j *journey) shown(m apiclient.Money) string { return squash(format.MoneyIn(j.lang, m.Kopecks())) }

// browserLanguage is the language the browser asks for (navigator.language).
func (j *journey) browserLanguage() string {
	j.t.Helper()
	return eval[string](j, `navigator.language`)
}

// tr is the interface text of a catalogue key in the journey's language.
func (j *journey) tr(key string) string { return squash(i18n.In(j.lang, key, nil, nil)) }

// trd is tr with the key's placeholders filled from data.
func (j *journey) trd(key string, data map[string]any) string {
	return squash(i18n.In(j.lang, key, data, nil))
}

// trn is the plural form of key for n, as i18n.N writes it.
func (j *journey) trn(key string, n int) string {
	return squash(i18n.N(i18n.WithLang(context.Background(), j.lang), key, n))
}

// says reports whether got holds the message key of the journey's
// language: every fixed part of it (the text around its placeholders), in
// order. count chooses a plural form; its {{.Count}} is a placeholder too.
func (j *journey) says(got, key string, count ...int) bool {
	var c any
	if len(count) > 0 {
		c = count[0]
	}
	const hole = "\x00"
	msg := i18n.In(j.lang, key, map[string]any{}, c)
	if msg == key {
		j.t.Errorf("no catalogue key %q", key)
		return false
	}
	got = squash(got)
	for _, part := range strings.Split(strings.ReplaceAll(msg, "<no value>", hole), hole) {
		part = squash(part)
		if part == "" {
			continue
		}
		i := strings.Index(got, part)
		if i < 0 {
			return false
		}
		got = got[i+len(part):]
	}
	return true
}

// lead is the fixed start of the message key, up to its first
// placeholder, for waits written in JavaScript.
func (j *journey) lead(key string) string {
	msg := i18n.In(j.lang, key, map[string]any{}, nil)
	if i := strings.Index(msg, "<no value>"); i >= 0 {
		msg = msg[:i]
	}
	if msg = squash(msg); msg == "" {
		j.t.Fatalf("the message %q starts with a placeholder", key)
	}
	return msg
}

// axString reads an accessibility value, a JSON value: a string with its
// escapes undone (a Russian description arrives as \u0412…), anything
// else as written.
func axString(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.Trim(string(raw), `"`)
}

// jsString quotes s for JavaScript.
func jsString(s string) string { return fmt.Sprintf("%q", s) }

// chromedpReload reloads the page and waits for the load.
func chromedpReload() chromedp.Action[chromedp.Void] { return chromedp.Reload() }

// axField is what assistive technology hears about a form field: Chromium's
// own accessibility tree, not the markup.
type axField struct {
	Invalid     string // the computed "invalid" state: "false", "true", …
	Description string // the accessible description (aria-describedby)
}

func (j *journey) ax(id string) axField {
	j.t.Helper()
	nodes := run(j, "find #"+id, chromedp.Nodes(chromedp.ID(id)))
	ctx, cancel := context.WithTimeout(j.ctx, stepTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{
		NodeID: nodes[0].NodeID, FetchRelatives: new(false),
	})
	if err != nil || len(res.Nodes) == 0 {
		j.t.Fatalf("accessibility tree of #%s: %v", id, err)
	}
	n := res.Nodes[0]
	f := axField{Invalid: "false"}
	if n.Description != nil {
		f.Description = squash(axString(n.Description.Value))
	}
	for _, p := range n.Properties {
		if p.Name == accessibility.PropertyNameInvalid && p.Value != nil {
			f.Invalid = axString(p.Value.Value)
		}
	}
	return f
}
