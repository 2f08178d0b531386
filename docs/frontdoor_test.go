package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The front door stays a front door: the README names the two commands
// first, stays short, and every page it or the other documents link to is
// in the repository; BENCHMARKS.md holds the targets and figures only.
var (
	mdLink   = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	maxLines = map[string]int{"../README.md": 200, "../BENCHMARKS.md": 300}
)

func TestDocumentLengths(t *testing.T) {
	for path, most := range maxLines {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "\n"); n > most {
			t.Errorf("%s has %d lines; at most %d", filepath.Base(path), n, most)
		}
	}
}

func TestReadmeStartsWithTheTwoCommands(t *testing.T) {
	src, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	run, test := strings.Index(s, "go run ./cmd/web"), strings.Index(s, "go test ./...")
	if run < 0 || test < 0 || run > test || strings.Count(s[:run], "\n") > 15 {
		t.Errorf("the README must start with `go run ./cmd/web` and then `go test ./...` (at %d and %d)", run, test)
	}
}

// TestLinksStayInside: every relative link of the repository's documents
// leads to a file or folder of the repository, none outside it.
func TestLinksStayInside(t *testing.T) {
	docs := []string{"../README.md", "../SECURITY.md", "../BENCHMARKS.md", "../BENCHMARKS-large.md", "../CHANGELOG.md", "../e2e/README.md"}
	more, _ := filepath.Glob("*.md")
	docs = append(docs, more...)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				abs, err := filepath.Abs(filepath.Join(filepath.Dir(doc), target))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(abs, root+string(filepath.Separator)) && abs != root {
					t.Errorf("%s:%d: %s points outside the repository", doc, i+1, target)
					continue
				}
				if _, err := os.Stat(abs); err != nil {
					t.Errorf("%s:%d: %s does not exist", doc, i+1, target)
				}
			}
		}
	}
}
