package app

import (
	"strings"
	"testing"
)

func TestLoadConfigTimezone(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := LoadSettings(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Timezone == nil || c.Timezone.String() != "Europe/Moscow" {
		t.Errorf("default zone %v, want Europe/Moscow", c.Timezone)
	}
	c, err = LoadSettings(env(map[string]string{"SELLERDESK_TIMEZONE": "Asia/Almaty"}))
	if err != nil || c.Timezone.String() != "Asia/Almaty" {
		t.Errorf("Asia/Almaty: %v, %v", c.Timezone, err)
	}
	_, err = LoadSettings(env(map[string]string{"SELLERDESK_TIMEZONE": "Mars/Olympus"}))
	if err == nil || !strings.Contains(err.Error(), "SELLERDESK_TIMEZONE") {
		t.Errorf("an unknown zone: %v, want it refused, naming the variable", err)
	}
}
