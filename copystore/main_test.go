package copystore

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"testing"
)

// testsAtOnce is how many tests run at the same time unless -parallel says
// otherwise. Each test owns its stores (a SQLite file, a PostgreSQL schema)
// and its sandbox, and spends most of its time waiting on the database and
// the sandbox, so more of them at once than the two cores finish the
// package sooner on a busy machine.
const testsAtOnce = 4

// TestMain raises the tests' parallelism to testsAtOnce when -parallel is
// not given.
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", strconv.Itoa(testsAtOnce)); err != nil {
			fmt.Fprintln(os.Stderr, "copystore: -test.parallel:", err)
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}
