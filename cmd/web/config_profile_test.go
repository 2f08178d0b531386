package main

import (
	"strings"
	"testing"

	"github.com/sellerdesk/sellerdesk/apiclient"
)

// TestLoadConfigProfile: SELLERDESK_API_PROFILE chooses the wire profile
// (contract by default), SELLERDESK_COUNTRY the lamoda profile's country
// (RU by default); anything else is refused at start, naming the variable.
func TestLoadConfigProfile(t *testing.T) {
	c, err := loadConfig(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIProfile != apiclient.ProfileContract || c.Country != "RU" {
		t.Errorf("defaults: profile %q, country %q; want contract, RU", c.APIProfile, c.Country)
	}
	c, err = loadConfig(env(map[string]string{"SELLERDESK_API_PROFILE": " Lamoda ", "SELLERDESK_COUNTRY": "kz"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIProfile != apiclient.ProfileLamoda || c.Country != "KZ" {
		t.Errorf("lamoda, kz: profile %q, country %q", c.APIProfile, c.Country)
	}
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SELLERDESK_API_PROFILE": "ozon"}, "SELLERDESK_API_PROFILE: want contract"},
		{map[string]string{"SELLERDESK_COUNTRY": "DE"}, "SELLERDESK_COUNTRY: want one of RU, BY, KZ, UA"},
	} {
		if _, err := loadConfig(env(tt.env)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want it to say %q", tt.env, err, tt.want)
		}
	}
}
