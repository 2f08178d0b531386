// Package docs holds the project's documents and the tests that keep
// ARCHITECTURE.md true: every package of the module has a row in its
// package table, each row names exactly the module packages that package
// imports, no import runs up a floor of the package graph, and every
// path the document names exists.
package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The package table is the first table under "## Packages". Its first
// column is one package, as its path in the module in backticks
// (`internal/sqldb`; `.` for the module's root); its last column lists the
// module packages it imports, each in backticks, or "—" for none. Words
// outside backticks (external modules, the standard library) are read by
// people and ignored here.
const (
	page    = "ARCHITECTURE.md"
	section = "## Packages"
)

var backticked = regexp.MustCompile("`([^`]+)`")

// docRow is one row of the package table.
type docRow struct {
	line    int
	imports []string
}

// readTable reads the package table of the markdown in src: each
// package's row by its path.
func readTable(src []byte) (map[string]docRow, error) {
	rows := map[string]docRow{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	in, seen, n := false, false, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == section:
			in = true
			continue
		case !in:
			continue
		case !strings.HasPrefix(line, "|"):
			if seen {
				return rows, nil // the table ended
			}
			continue
		}
		seen = true
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			return nil, fmt.Errorf("%s:%d: a row needs a package and its imports", page, n)
		}
		first := strings.TrimSpace(cells[0])
		if first == "package" || strings.HasPrefix(first, "---") {
			continue // the head
		}
		names := backticked.FindAllStringSubmatch(first, -1)
		if len(names) != 1 || "`"+names[0][1]+"`" != first {
			return nil, fmt.Errorf("%s:%d: the first cell must be one package in backticks, got %q", page, n, first)
		}
		pkg := names[0][1]
		if _, dup := rows[pkg]; dup {
			return nil, fmt.Errorf("%s:%d: a second row for %s", page, n, pkg)
		}
		r := docRow{line: n, imports: []string{}}
		for _, m := range backticked.FindAllStringSubmatch(cells[len(cells)-1], -1) {
			r.imports = append(r.imports, m[1])
		}
		slices.Sort(r.imports)
		rows[pkg] = r
	}
	if !seen {
		return nil, fmt.Errorf("%s: no table under %q", page, section)
	}
	return rows, sc.Err()
}

// modulePackages lists every package of the module (go list ./..., run at
// the module's root) with the module packages it imports, as paths in the
// module.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on the PATH to list the packages: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-f", "{{.Module.Path}}\t{{.ImportPath}}\t{{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.SplitN(strings.TrimRight(line, "\n"), "\t", 3)
		if len(f) != 3 {
			t.Fatalf("go list: unreadable line %q", line)
		}
		rel := func(p string) (string, bool) {
			if p == f[0] {
				return ".", true
			}
			r, ok := strings.CutPrefix(p, f[0]+"/")
			return r, ok
		}
		name, _ := rel(f[1])
		imports := []string{}
		for _, imp := range strings.Fields(f[2]) {
			if r, ok := rel(imp); ok {
				imports = append(imports, r)
			}
		}
		slices.Sort(imports)
		pkgs[name] = imports
	}
	return pkgs
}

// compare lists every difference between the module's packages and the
// page's table.
func compare(pkgs map[string][]string, rows map[string]docRow) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		r, ok := rows[p]
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no row (imports: %s)", p, list(pkgs[p])))
			continue
		}
		if !slices.Equal(r.imports, pkgs[p]) {
			out = append(out, fmt.Sprintf("%s:%d: %s imports %s; the row says %s", page, r.line, p, list(pkgs[p]), list(r.imports)))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rows)) {
		if _, ok := pkgs[p]; !ok {
			out = append(out, fmt.Sprintf("%s:%d: a row for %s, which is no package of the module", page, rows[p].line, p))
		}
	}
	return out
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "—"
	}
	return "`" + strings.Join(xs, "`, `") + "`"
}

// TestArchitectureTable: every package go list reports has a row, every
// row is a package, and each row's imports are the package's own.
func TestArchitectureTable(t *testing.T) {
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readTable(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range compare(modulePackages(t), rows) {
		t.Error(d)
	}
}

// TestArchitectureSelfContained: the page points at nothing outside the
// repository (a clone has nothing beside it).
func TestArchitectureSelfContained(t *testing.T) {
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "../") {
			t.Errorf("%s:%d: points outside the repository: %s", page, i+1, strings.TrimSpace(line))
		}
	}
}

// TestReadTable: the reader finds rows and their backticked imports, and
// refuses a row that names two packages.
func TestReadTable(t *testing.T) {
	src := "# x\n\n## Packages\n\n| package | what | imports |\n|---|---|---|\n| `a` | A | `b`, `c/d`; excelize |\n| `b` | B | — |\n\nafter\n| `z` | not | in the table |\n"
	rows, err := readTable([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || !slices.Equal(rows["a"].imports, []string{"b", "c/d"}) || len(rows["b"].imports) != 0 {
		t.Errorf("rows %+v", rows)
	}
	diffs := compare(map[string][]string{"a": {"b"}, "b": {}, "new": {"a"}}, rows)
	want := []string{"ARCHITECTURE.md:7: a imports `b`; the row says `b`, `c/d`", "package new has no row (imports: `a`)"}
	if !slices.Equal(diffs, want) {
		t.Errorf("differences:\n%q\nwant\n%q", diffs, want)
	}
	if _, err := readTable([]byte("## Packages\n\n| `a`, `b` | two | — |\n")); err == nil {
		t.Error("a row of two packages was read")
	}
}

// The floors of the package graph, bottom first. A package's floor is the
// first whose folder prefix it matches; every other package is domain. An
// import may stay on its floor or go down, never up.
var floors = []struct {
	name     string
	prefixes []string
}{
	{"infrastructure", []string{"internal/"}},
	{"domain", nil},
	{"views", []string{"views/"}},
	{"http", []string{"handlers"}},
	{"composition", []string{"app", "cmd/", "bench", "e2e", "docs"}},
}

// floorOf returns the index of p's floor in floors.
func floorOf(p string) int {
	domain := 0
	for i, f := range floors {
		if f.prefixes == nil {
			domain = i
			continue
		}
		for _, pre := range f.prefixes {
			if p == strings.TrimSuffix(pre, "/") || strings.HasPrefix(p, strings.TrimSuffix(pre, "/")+"/") {
				return i
			}
		}
	}
	return domain
}

// edgeRule names who may import a package; everyone else is refused.
type edgeRule struct {
	pkg     string
	allowed []string // importers by exact path or folder prefix ending in "/"
	why     string
}

var edgeRules = []edgeRule{
	{"handlers", []string{"app", "app/testapp", "bench"}, "the HTTP layer is built by the composition root (and the test and bench harnesses) only"},
	{"app", []string{"cmd/web", "app/", "bench"}, "the composition root is run by the command and the harnesses only"},
}

// noImports names packages that import nothing of the module.
var noImports = map[string]string{
	"internal/sqldb": "the database layer is the bottom of the graph",
}

func allowed(importer string, rule edgeRule) bool {
	for _, a := range rule.allowed {
		if importer == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(importer, a)) {
			return true
		}
	}
	return false
}

// forbiddenEdges lists every import that runs up a floor or breaks an
// edge rule.
func forbiddenEdges(pkgs map[string][]string) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(pkgs)) {
		if why, ok := noImports[p]; ok && len(pkgs[p]) > 0 {
			out = append(out, fmt.Sprintf("%s imports %s: %s", p, list(pkgs[p]), why))
		}
		for _, imp := range pkgs[p] {
			if from, to := floorOf(p), floorOf(imp); to > from {
				out = append(out, fmt.Sprintf("%s (%s) imports %s (%s): an import runs up a floor", p, floors[from].name, imp, floors[to].name))
			}
			for _, r := range edgeRules {
				if imp == r.pkg && !allowed(p, r) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", p, imp, r.why))
				}
			}
		}
	}
	return out
}

// TestPackageFloors: no import runs up a floor, and the named edges hold.
func TestPackageFloors(t *testing.T) {
	for _, d := range forbiddenEdges(modulePackages(t)) {
		t.Error(d)
	}
}

// TestForbiddenEdgesFail: the rules refuse an edge up a floor, a domain
// package importing handlers or views, a stranger importing the composition
// root, and a database layer that imports anything.
func TestForbiddenEdgesFail(t *testing.T) {
	pkgs := map[string][]string{
		"app":            {"handlers", "copystore"},
		"copystore":      {"internal/sqldb", "views/format"},
		"massupdate":     {"handlers"},
		"internal/sqldb": {"i18n"},
		"sandbox":        {"app"},
		"views/pages":    {"views/format"},
	}
	got := forbiddenEdges(pkgs)
	want := []string{
		"copystore (domain) imports views/format (views): an import runs up a floor",
		"internal/sqldb imports `i18n`: the database layer is the bottom of the graph",
		"internal/sqldb (infrastructure) imports i18n (domain): an import runs up a floor",
		"massupdate (domain) imports handlers (http): an import runs up a floor",
		"massupdate imports handlers: the HTTP layer is built by the composition root (and the test and bench harnesses) only",
		"sandbox (domain) imports app (composition): an import runs up a floor",
		"sandbox imports app: the composition root is run by the command and the harnesses only",
	}
	if !slices.Equal(got, want) {
		t.Errorf("forbidden edges:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A backticked name that reads as a path of the repository: a folder path
// with a file name or a known top folder, or a bare source file name.
var (
	pathLike  = regexp.MustCompile(`^[a-z0-9_.-]+(/[A-Za-z0-9_.-]+)+/?$`)
	fileLike  = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[a-z0-9]+)*\.(go|templ|md|json|yaml|yml|sh|css|js|mk|sql|key)$`)
	topFolder = regexp.MustCompile(`^[a-z0-9_]+`)
)

// missingPaths lists the backticked paths and file names of a document
// that do not exist: paths relative to the repository's root, bare file
// names anywhere in it.
func missingPaths(doc string, src []byte, exists func(string) bool, baseNames map[string]bool, tops map[string]bool) []string {
	var out []string
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range backticked.FindAllStringSubmatch(line, -1) {
			name := m[1]
			switch {
			case pathLike.MatchString(name) && tops[topFolder.FindString(name)]:
				if !exists(strings.TrimSuffix(name, "/")) {
					out = append(out, fmt.Sprintf("%s:%d: `%s` does not exist", doc, i+1, name))
				}
			case fileLike.MatchString(name):
				if !baseNames[name] {
					out = append(out, fmt.Sprintf("%s:%d: no file named `%s` in the repository", doc, i+1, name))
				}
			}
		}
	}
	return out
}

// repoFiles reads the repository's top folders and every file's base name.
func repoFiles(t *testing.T) (tops, baseNames map[string]bool) {
	t.Helper()
	tops, baseNames = map[string]bool{}, map[string]bool{}
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			tops[e.Name()] = true
		}
	}
	err = filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != ".." {
			return filepath.SkipDir
		}
		baseNames[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tops, baseNames
}

// TestArchitecturePathsExist: every path and file name ARCHITECTURE.md
// names is in the repository.
func TestArchitecturePathsExist(t *testing.T) {
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	tops, names := repoFiles(t)
	exists := func(p string) bool { _, err := os.Stat(filepath.Join("..", p)); return err == nil }
	for _, d := range missingPaths(page, src, exists, names, tops) {
		t.Error(d)
	}
}

// TestMissingPathsFail: a path or a file name that is not there is named.
func TestMissingPathsFail(t *testing.T) {
	src := "`handlers/router.go` and `handlers/gone.go`, `router.go`, `gone.templ`, `/a/{account}`, `echo`, `views/paths`, `spec/x.md`\n"
	have := map[string]bool{"handlers/router.go": true, "views/paths": true}
	got := missingPaths("X.md", []byte(src), func(p string) bool { return have[p] }, map[string]bool{"router.go": true}, map[string]bool{"handlers": true, "views": true})
	want := []string{"X.md:1: `handlers/gone.go` does not exist", "X.md:1: no file named `gone.templ` in the repository"}
	if !slices.Equal(got, want) {
		t.Errorf("missing:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
