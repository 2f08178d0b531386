package docs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/sellerdesk/sellerdesk/app"
)

// composeFile is the part of compose.yaml the test reads.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
	Secrets  map[string]struct {
		File string `yaml:"file"`
	} `yaml:"secrets"`
}

type composeService struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Environment map[string]string `yaml:"environment"`
	Secrets     []string          `yaml:"secrets"`
	DependsOn   map[string]struct {
		Condition string `yaml:"condition"`
	} `yaml:"depends_on"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	StopGracePeriod string   `yaml:"stop_grace_period"`
	Ports           []string `yaml:"ports"`
}

// TestComposeFile holds compose.yaml (the deployment kit; Docker is not on
// the machines this is built on, so it is never run here) to its promises:
// PostgreSQL, two dashboard instances and a reverse proxy; every service
// with a health check (the dashboards' through the binary itself: the image
// has no shell); the dashboards' stop grace period longer than their
// graceful shutdown; their secrets from files, never in the environment.
func TestComposeFile(t *testing.T) {
	src, err := os.ReadFile("../compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(src, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	var dashboards []string
	for name, s := range c.Services {
		if s.Healthcheck == nil || len(s.Healthcheck.Test) == 0 {
			t.Errorf("%s: no health check", name)
		}
		if s.Environment["SELLERDESK_ADDR"] != "" {
			dashboards = append(dashboards, name)
		}
	}
	slices.Sort(dashboards)
	if len(dashboards) != 2 {
		t.Fatalf("dashboard instances %q, want two", dashboards)
	}
	pg, ok := c.Services["postgres"]
	if !ok || !strings.HasPrefix(pg.Image, "postgres:") {
		t.Errorf("no postgres service (image %q)", pg.Image)
	}
	if pg.Environment["POSTGRES_PASSWORD"] != "" || pg.Environment["POSTGRES_PASSWORD_FILE"] == "" {
		t.Error("postgres: the password must come from a secret file (POSTGRES_PASSWORD_FILE)")
	}

	grace := app.ShutdownTimeout + app.DefaultJobsCloseTimeout
	for _, name := range dashboards {
		s := c.Services[name]
		if s.Build == nil && s.Image == "" {
			t.Errorf("%s: neither build nor image", name)
		}
		if got := s.Healthcheck.Test; !slices.Equal(got, []string{"CMD", "/usr/local/bin/sellerdesk", "-healthcheck"}) {
			t.Errorf("%s: health check %q, want the binary's -healthcheck (no shell in the image)", name, got)
		}
		d, err := time.ParseDuration(s.StopGracePeriod)
		if err != nil || d <= grace {
			t.Errorf("%s: stop_grace_period %q, want longer than the shutdown's %v (requests, then a job's chunk)", name, s.StopGracePeriod, grace)
		}
		if s.DependsOn["postgres"].Condition != "service_healthy" {
			t.Errorf("%s: should wait for a healthy postgres", name)
		}
		env := s.Environment
		for _, secret := range []string{"SELLERDESK_SESSION_KEY", "SELLERDESK_DATABASE_URL"} {
			if env[secret] != "" {
				t.Errorf("%s: %s in the environment; want %s_FILE", name, secret, secret)
			}
			file := env[secret+"_FILE"]
			if !strings.HasPrefix(file, "/run/secrets/") {
				t.Errorf("%s: %s_FILE = %q, want a secret under /run/secrets/", name, secret, file)
				continue
			}
			id := strings.TrimPrefix(file, "/run/secrets/")
			if !slices.Contains(s.Secrets, id) || c.Secrets[id].File == "" {
				t.Errorf("%s: secret %q not granted or not defined from a file", name, id)
			}
		}
		if env["SELLERDESK_TRUSTED_PROXIES"] == "" {
			t.Errorf("%s: no SELLERDESK_TRUSTED_PROXIES: the proxy's X-Forwarded-For would be ignored", name)
		}
		// Every SELLERDESK_* name set is one the dashboard reads.
		var environ []string
		for k, v := range env {
			environ = append(environ, k+"="+v)
		}
		if unknown := app.UnknownVariables(environ); len(unknown) > 0 {
			t.Errorf("%s: unknown variables %q", name, unknown)
		}
		if len(s.Ports) > 0 {
			t.Errorf("%s: publishes ports %q; only the proxy should", name, s.Ports)
		}
	}

	var proxy string
	for name, s := range c.Services {
		if name != "postgres" && !slices.Contains(dashboards, name) && len(s.Ports) > 0 {
			proxy = name
		}
	}
	if proxy == "" {
		t.Fatal("no reverse proxy publishing a port")
	}
	for _, d := range dashboards {
		if _, ok := c.Services[proxy].DependsOn[d]; !ok {
			t.Errorf("proxy %s does not depend on %s", proxy, d)
		}
	}
	caddy, err := os.ReadFile("../deploy/Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append([]string{"health_uri /readyz"}, dashboards...) {
		if !strings.Contains(string(caddy), want) {
			t.Errorf("deploy/Caddyfile lacks %q", want)
		}
	}
}

// TestDockerfile: the image is on a current distroless base, stamps the
// version, checks its health with the binary, and keeps the sandbox in a
// target of its own.
func TestDockerfile(t *testing.T) {
	src, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(src)
	stages := regexp.MustCompile(`(?m)^FROM (\S+)(?: AS (\S+))?$`).FindAllStringSubmatch(df, -1)
	if len(stages) == 0 {
		t.Fatal("no stages")
	}
	last := stages[len(stages)-1]
	if !strings.HasPrefix(last[1], "gcr.io/distroless/static-debian13") || last[2] != "runtime" {
		t.Errorf("final stage %q AS %q, want distroless static-debian13 named runtime", last[1], last[2])
	}
	runtimeStage := df[strings.LastIndex(df, "\nFROM "):]
	if strings.Contains(runtimeStage, "sellerdesk-sandbox") {
		t.Error("the runtime image carries the sandbox")
	}
	if !strings.Contains(df, " AS sandbox") {
		t.Error("no sandbox target")
	}
	for _, want := range []string{"internal/buildinfo", ".version=$VERSION", `HEALTHCHECK`, `CMD ["/usr/local/bin/sellerdesk", "-healthcheck"]`} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}
