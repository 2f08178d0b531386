package i18n

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// keyUse finds catalogue keys in Go and templ sources: the first argument
// after the context of i18n.T / TD / N, or the first argument of i18n.K (a
// key kept in data), i18n.M (a message kept as data) or i18n.Err (an error
// carrying one), e.g. i18n.T(ctx, "nav.orders"), i18n.K("nav.orders"),
// i18n.M("mass.no_sku", nil).
var keyUse = regexp.MustCompile(`\bi18n\.(?:(?:T|TD|N|ND)\(\s*[A-Za-z_][A-Za-z0-9_.()]*\s*,\s*|(?:K|M|Err)\(\s*)"([^"\\]+)"`)

// dynamicUse finds calls whose key is not a literal: the scan could not
// check them, so they are refused (use a literal, or i18n.K in a table).
var dynamicUse = regexp.MustCompile(`\bi18n\.(?:(?:T|TD|N|ND)\(\s*[A-Za-z_][A-Za-z0-9_.()]*\s*,\s*|(?:K|M|Err)\(\s*)([^"\s][^),]*)`)

// dataKeys are the non-literal key arguments allowed, each naming a table
// whose keys are written with i18n.K (and so are checked).
var dataKeys = map[string]bool{
	"item.Label": true, // layouts.Nav
	"d.Note":     true, // app/demo.Credentials (a note that is no key shows as itself)
	// handlers.massKind: a form's messages
	"k.unreadable": true, "k.fixFirst": true, "k.nothingChanged": true, "k.updated": true,
}

// usedKeys scans every .go and .templ file under dirs (generated _templ.go
// files are skipped: their .templ source is read) and returns each key with
// the files using it, and the calls whose key is not a literal.
func usedKeys(t *testing.T, dirs ...string) (map[string][]string, []string) {
	t.Helper()
	keys := map[string][]string{}
	var dynamic []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() || strings.HasSuffix(name, "_templ.go") || strings.HasSuffix(name, "_test.go") ||
				!(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".templ")) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range keyUse.FindAllStringSubmatch(string(src), -1) {
				keys[m[1]] = append(keys[m[1]], path)
			}
			for _, m := range dynamicUse.FindAllStringSubmatch(string(src), -1) {
				if !dataKeys[strings.TrimSpace(m[1])] {
					dynamic = append(dynamic, path+": "+m[0])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return keys, dynamic
}

// catalogueKeys reads the message ids of a catalogue file and, for plural
// messages, the forms it gives.
func catalogueKeys(t *testing.T, lang Lang) map[string][]string {
	t.Helper()
	raw, err := files.ReadFile("locales/" + string(lang) + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for k, v := range m {
		var forms map[string]string
		if json.Unmarshal(v, &forms) == nil {
			for f := range forms {
				out[k] = append(out[k], f)
			}
			sort.Strings(out[k])
		} else {
			out[k] = nil
		}
	}
	return out
}

// missing lists the used keys absent from a catalogue.
func missing(used map[string][]string, langs ...Lang) []string {
	var out []string
	for key, where := range used {
		for _, l := range langs {
			if !Has(l, key) {
				out = append(out, string(l)+": "+key+" (used in "+where[0]+")")
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestEveryUsedKeyIsInBothCatalogues(t *testing.T) {
	root := moduleRoot(t)
	var dirs []string
	for _, d := range []string{"views", "handlers", "app/demo", "app", "massupdate", "bulkjobs", "resend", "accounts", "failure", "httpx", "browse", "audit"} {
		dirs = append(dirs, filepath.Join(root, d))
	}
	used, dynamic := usedKeys(t, dirs...)
	if len(used) < 20 {
		t.Fatalf("found only %d keys in views/ and handlers/: is the scan broken?", len(used))
	}
	for _, d := range dynamic {
		t.Errorf("key is not a literal, the scan cannot check it: %s", d)
	}
	for _, m := range missing(used, Langs...) {
		t.Errorf("missing from the catalogue: %s", m)
	}
	// Status labels are looked up by the marketplace's value.
	for _, s := range StatusValues {
		for _, l := range Langs {
			if !Has(l, "status."+s) {
				t.Errorf("%s: no label for status %q", l, s)
			}
		}
	}
}

// moduleRoot is the directory of the module's go.mod, above the test's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

func TestScanFindsAMissingKey(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nfunc f() { _ = i18n.T(ctx, \"nav.orders\"); _ = i18n.N(r.Context(), \"no.such.plural\", 3); _ = i18n.K(\"no.such.key\"); _ = i18n.M(\"no.such.msg\", nil); _ = i18n.Err(\"no.such.err\", nil) }\n"
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	tpl := "templ X() {\n\t<p>{ i18n.T(ctx, \"no.such.templ\") }</p>\n\t{ i18n.T(ctx, key) }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x.templ"), []byte(tpl), 0o600); err != nil {
		t.Fatal(err)
	}
	used, dynamic := usedKeys(t, dir)
	got := missing(used, Langs...)
	want := []string{
		"en: no.such.err (used in " + filepath.Join(dir, "x.go") + ")",
		"en: no.such.key (used in " + filepath.Join(dir, "x.go") + ")",
		"en: no.such.msg (used in " + filepath.Join(dir, "x.go") + ")",
		"en: no.such.plural (used in " + filepath.Join(dir, "x.go") + ")",
		"en: no.such.templ (used in " + filepath.Join(dir, "x.templ") + ")",
		"ru: no.such.err (used in " + filepath.Join(dir, "x.go") + ")",
		"ru: no.such.key (used in " + filepath.Join(dir, "x.go") + ")",
		"ru: no.such.msg (used in " + filepath.Join(dir, "x.go") + ")",
		"ru: no.such.plural (used in " + filepath.Join(dir, "x.go") + ")",
		"ru: no.such.templ (used in " + filepath.Join(dir, "x.templ") + ")",
	}
	if !slices.Equal(got, want) {
		t.Errorf("missing = %q\nwant %q", got, want)
	}
	if _, ok := used["nav.orders"]; !ok {
		t.Error("the scan missed a present key")
	}
	if len(dynamic) != 1 {
		t.Errorf("dynamic = %q, want the one non-literal key", dynamic)
	}
}

func TestCataloguesHaveTheSameKeysAndPluralForms(t *testing.T) {
	ru, en := catalogueKeys(t, RU), catalogueKeys(t, EN)
	for k := range ru {
		if _, ok := en[k]; !ok {
			t.Errorf("%q is in ru.json but not in en.json", k)
		}
	}
	for k, forms := range en {
		ruForms, ok := ru[k]
		if !ok {
			t.Errorf("%q is in en.json but not in ru.json", k)
			continue
		}
		if (forms == nil) != (ruForms == nil) {
			t.Errorf("%q is plural in one catalogue only", k)
			continue
		}
		if forms == nil {
			continue
		}
		if !slices.Equal(forms, []string{"one", "other"}) {
			t.Errorf("en %q has forms %v, want one and other", k, forms)
		}
		if !slices.Equal(ruForms, []string{"few", "many", "one", "other"}) {
			t.Errorf("ru %q has forms %v, want one, few, many and other", k, ruForms)
		}
	}
}
