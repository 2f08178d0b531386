// Package docs holds the project's documents and the test that keeps
// ARCHITECTURE.md true: every package of the module has a row in its
// package table, and each row names exactly the module packages that
// package imports.
package docs

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
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
