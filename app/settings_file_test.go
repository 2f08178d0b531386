package app

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSecretsFromFiles: SELLERDESK_SESSION_KEY_FILE and
// SELLERDESK_DATABASE_URL_FILE name files holding the secrets (a trailing
// newline is trimmed); setting a secret both ways, or naming a file that
// cannot be read, is refused without echoing the secret.
func TestSecretsFromFiles(t *testing.T) {
	dir := t.TempDir()
	key := strings.Repeat("ab", 32)
	url := "postgres://u:hunter2@db.example/sellerdesk"
	keyFile, urlFile := filepath.Join(dir, "key"), filepath.Join(dir, "url")
	if err := os.WriteFile(keyFile, []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(urlFile, []byte(url+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadSettings(env(map[string]string{"SELLERDESK_SESSION_KEY_FILE": keyFile, "SELLERDESK_DATABASE_URL_FILE": urlFile}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.SessionKeys) != 1 || c.DatabaseURL != url || !c.Postgres() {
		t.Errorf("from files: %d keys, database %q", len(c.SessionKeys), c.DatabaseURL)
	}

	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]map[string]string{
		"both ways":    {"SELLERDESK_SESSION_KEY": key, "SELLERDESK_SESSION_KEY_FILE": keyFile},
		"missing file": {"SELLERDESK_SESSION_KEY_FILE": filepath.Join(dir, "nope")},
		"empty file":   {"SELLERDESK_DATABASE_URL_FILE": empty},
	} {
		_, err := LoadSettings(env(e))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error echoes a secret: %v", name, err)
		}
	}
}

// TestUnknownVariables: a SELLERDESK_* name the dashboard does not read is
// named (once, values never looked at); every name it reads, their _FILE
// variants and the test tooling's are not; other variables are no concern.
func TestUnknownVariables(t *testing.T) {
	got := UnknownVariables([]string{
		"SELLERDESK_ADDR=:8080", "SELLERDESK_SESION_KEY=secret", "SELLERDESK_SESSION_KEY_FILE=/run/secrets/k",
		"SELLERDESK_DATABASE_URL_FILE=/run/secrets/db", "SELLERDESK_E2E=1", "HOME=/root", "SELLERDESK_SESION_KEY=again",
		"SELLERDESK_LOG_FORMAT", "SELLERDESK_TIMEZONE=Europe/Moscow",
	})
	if !slices.Equal(got, []string{"SELLERDESK_SESION_KEY"}) {
		t.Errorf("UnknownVariables = %q, want the misspelt name alone", got)
	}
}

// TestSettingNamesCoverLoadSettings: every SELLERDESK_* name this
// package's source reads is in settingNames (or the tooling's), so a new
// setting is never warned about as unknown.
func TestSettingNamesCoverLoadSettings(t *testing.T) {
	names := regexp.MustCompile(`"(SELLERDESK_[A-Z0-9_]+)"`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range names.FindAllStringSubmatch(string(src), -1) {
			if !slices.Contains(settingNames, m[1]) && !slices.Contains(toolingNames, m[1]) {
				t.Errorf("%s reads %s, missing from settingNames", f, m[1])
			}
		}
	}
}

// TestServeWarnsUnknownVariables: the start log names a misspelt variable
// (serve ends at once: its context is already done).
func TestServeWarnsUnknownVariables(t *testing.T) {
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = serve(ctx, env(map[string]string{"SELLERDESK_ADDR": "127.0.0.1:0", "SELLERDESK_DATABASE_URL": filepath.Join(t.TempDir(), "s.db")}),
		[]string{"SELLERDESK_ADDR=127.0.0.1:0", "SELLERDESK_LOGFORMAT=json"}, out, nil)
	if !strings.Contains(out.String(), "SELLERDESK_LOGFORMAT") || strings.Contains(out.String(), "name=SELLERDESK_ADDR") {
		t.Errorf("log does not name the unknown variable alone: %q", out.String())
	}
}
