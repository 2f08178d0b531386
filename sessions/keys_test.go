package sessions

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestParseKeys(t *testing.T) {
	k1 := strings.Repeat("ab", 32)
	k2 := strings.Repeat("0F", 32)
	keys, err := ParseKeys(k1 + ", " + k2)
	if err != nil || len(keys) != 2 || keys[0][0] != 0xab || keys[1][0] != 0x0f {
		t.Fatalf("ParseKeys = %x, %v", keys, err)
	}
	secretish := strings.Repeat("zz", 32)
	for _, bad := range []string{"", " ", k1 + ",", "abcd", k1 + "00", secretish, k1 + "," + secretish} {
		_, err := ParseKeys(bad)
		if err == nil {
			t.Errorf("ParseKeys(%q) succeeded", bad)
			continue
		}
		if strings.Contains(err.Error(), "zzzz") || strings.Contains(err.Error(), "abab") {
			t.Errorf("error quotes the key: %v", err)
		}
	}
}

func TestLoadOrCreateKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.key")
	key, created, err := LoadOrCreateKeyFile(path)
	if err != nil || !created || len(key) != KeySize {
		t.Fatalf("first call: len %d, created %v, %v", len(key), created, err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v; want 0600", st.Mode().Perm(), err)
	}
	again, created, err := LoadOrCreateKeyFile(path)
	if err != nil || created || !bytes.Equal(again, key) {
		t.Fatalf("second call: created %v, same %v, %v", created, bytes.Equal(again, key), err)
	}
	b, _ := os.ReadFile(path)
	if strings.TrimSpace(string(b)) != hex.EncodeToString(key) {
		t.Fatal("key file does not hold the key in hex")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".sessionkey-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}

	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadOrCreateKeyFile(path); err == nil {
		t.Fatal("a world-readable key file was accepted")
	}
}

func TestLoadOrCreateKeyFileRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.key")
	var wg sync.WaitGroup
	keys := make([][]byte, 8)
	for i := range keys {
		wg.Go(func() {
			k, _, err := LoadOrCreateKeyFile(path)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !bytes.Equal(k, keys[0]) {
			t.Fatal("concurrent creators got different keys")
		}
	}
}

func TestNewStoreRejectsBadKeys(t *testing.T) {
	b := testSQLiteBackend(t)
	defer b.Close()
	for name, keys := range map[string][][]byte{
		"none":  nil,
		"short": {make([]byte, 16)},
		"mixed": {testKey(1), make([]byte, 31)},
	} {
		if _, err := NewStore(b, Options{Keys: keys}); err == nil {
			t.Errorf("%s: NewStore accepted the keys", name)
		}
	}
}

func TestIsLocalPath(t *testing.T) {
	for target, want := range map[string]bool{
		"/":                     true,
		"/orders?page=2&s=new":  true,
		"/prices#row-3":         true,
		"":                      false,
		"orders":                false,
		"//evil.example":        false,
		"/\\evil.example":       false,
		"\\\\evil.example":      false,
		"/%2F%2Fevil.example":   false,
		"/%5Cevil.example":      false,
		"/%09/evil.example":     false,
		"/\t/evil.example":      false,
		"https://evil.example/": false,
		"javascript:alert(1)":   false,
		"/\x00":                 false,
	} {
		if got := IsLocalPath(target); got != want {
			t.Errorf("IsLocalPath(%q) = %v, want %v", target, got, want)
		}
	}
}

func TestSealOpen(t *testing.T) {
	kr, err := newKeyring([][]byte{testKey(1), testKey(2)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sealed := kr.seal([]byte("hello"), []byte("ad"))
	if len(sealed) != len("hello")+sealOverhead {
		t.Fatalf("sealed length %d", len(sealed))
	}
	if pt, current, err := kr.open(sealed, []byte("ad")); err != nil || !current || string(pt) != "hello" {
		t.Fatalf("open = %q, %v, %v", pt, current, err)
	}
	if _, _, err := kr.open(sealed, []byte("other")); err == nil {
		t.Fatal("opened with other additional data")
	}
	old, _ := newKeyring([][]byte{testKey(2)}, 0)
	if _, current, err := kr.open(old.seal([]byte("x"), nil), nil); err != nil || current {
		t.Fatalf("value sealed under the second key: current=%v, %v", current, err)
	}
	for i := range sealed {
		b := bytes.Clone(sealed)
		b[i] ^= 0x80
		if _, _, err := kr.open(b, []byte("ad")); err == nil {
			t.Fatalf("opened with byte %d flipped", i)
		}
	}
}
