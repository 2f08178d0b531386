package sqldb_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sellerdesk/sellerdesk/internal/sqldb"
	"github.com/sellerdesk/sellerdesk/internal/sqldb/sqldbtest"
)

// TestBackupThreadNiced: BackupTo copies on an OS thread of nice 19, and
// that thread ends with the copy (no thread of the process is left niced).
func TestBackupThreadNiced(t *testing.T) {
	if n, err := threadNice(); err != nil {
		t.Skip("no /proc/thread-self:", err)
	} else if n == "19" {
		t.Skip("the process already runs at nice 19")
	}
	db := sqldbtest.SQLite(t)
	fillPages(t, db, 500)
	var nices []string
	var readErr error
	restore := sqldb.SetBackupPace(16, 0, true, func() {
		n, err := threadNice()
		if err != nil && readErr == nil {
			readErr = err
		}
		nices = append(nices, n)
	})
	defer restore()
	if err := db.BackupTo(context.Background(), filepath.Join(t.TempDir(), "backup.db")); err != nil {
		t.Fatal(err)
	}
	if readErr != nil {
		t.Fatal(readErr)
	}
	if len(nices) == 0 {
		t.Fatal("the copy took one step: nothing read its thread")
	}
	for i, n := range nices {
		if n != "19" {
			t.Fatalf("step %d ran at nice %s, want 19", i+1, n)
		}
	}
	// The locked thread exits after its goroutine; wait for it.
	deadline := time.Now().Add(30 * time.Second)
	for {
		niced := nicedThreads(t)
		if niced == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d threads of the process still at nice 19 after the backup", niced)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func nicedThreads(t *testing.T) int {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", task.Name(), "stat"))
		if err != nil {
			continue // the thread ended meanwhile
		}
		if statNice(string(b)) == "19" {
			n++
		}
	}
	return n
}

// threadNice reads the nice value of the OS thread it runs on.
func threadNice() (string, error) {
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		return "", err
	}
	n := statNice(string(b))
	if n == "" {
		return "", errors.New("no nice in " + string(b))
	}
	return n, nil
}

// statNice is the nice value (field 19) of a /proc stat line: the fields
// after the command's closing parenthesis start at field 3.
func statNice(stat string) string {
	f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:])
	if len(f) < 17 {
		return ""
	}
	return f[16]
}
