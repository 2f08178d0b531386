# Seller Desk. `make help` lists the targets; `make check` is exactly what CI runs.
SHELL := /bin/bash
GO    ?= go
PKGS  := ./...

.PHONY: help run sandbox generate fmt check check-generated check-fmt check-mod vet staticcheck test fuzz-smoke e2e build docker

help: ## List the targets.
	@grep -hE '^[a-zA-Z0-9_-]+:.*?## ' $(MAKEFILE_LIST) | awk -F':.*?## ' '{printf "  %-16s %s\n", $$1, $$2}'

run: ## Run the dashboard on its embedded defaults (demo sandbox).
	$(GO) run ./cmd/web

sandbox: ## Run the marketplace sandbox alone on 127.0.0.1:9090 with its admin surface.
	$(GO) run ./cmd/sandbox -addr 127.0.0.1:9090 -admin

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
BUILD_DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
BUILDINFO := github.com/sellerdesk/sellerdesk/internal/buildinfo
LDFLAGS := -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).commit=$(COMMIT) -X $(BUILDINFO).date=$(BUILD_DATE)

build: ## Build static binaries into bin/, the version stamped (bin/web -version).
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o bin/ ./cmd/...

generate: ## Regenerate templ code.
	$(GO) tool templ generate

fmt: ## Format Go and templ sources.
	gofmt -w $$(git ls-files '*.go')
	$(GO) tool templ fmt views

check: check-generated check-fmt check-mod vet staticcheck test bench-once fuzz-smoke vuln ## What CI runs: generated code, formatting, go.mod tidy, vet, staticcheck, tests (race), every benchmark of bench/ once, fuzz smoke, govulncheck.

check-generated: ## Fail if regenerating templ code or templ fmt would change anything.
	$(GO) tool templ generate
	$(GO) tool templ fmt -fail views
	@git diff --exit-code -- '*_templ.go' '*.templ' || { echo "generated templ code is stale: run 'make generate fmt' and commit"; exit 1; }
	@test -z "$$(git ls-files --others --exclude-standard -- '*_templ.go')" || { echo "uncommitted generated files"; exit 1; }

check-fmt: ## Fail if gofmt would change anything.
	@out=$$(gofmt -l $$(git ls-files '*.go')); test -z "$$out" || { echo "gofmt would change: $$out"; exit 1; }

check-mod: ## Fail if go.mod or go.sum is not tidy (direct requirements must not be marked // indirect).
	@$(GO) mod tidy -diff || { echo "go.mod is not tidy: run 'go mod tidy' and commit"; exit 1; }

vet: ## go vet.
	$(GO) vet $(PKGS)

staticcheck: ## staticcheck (pinned Go tool).
	$(GO) tool staticcheck $(PKGS)

test: ## All tests with the race detector (browser and PostgreSQL tests run when available; see README).
	$(GO) test -race -count=1 -timeout 20m $(PKGS)

FUZZTIME ?= 5s
fuzz-smoke: ## Run every fuzz target briefly (scripts/fuzz-smoke.sh: a found input fails at once, a run that fails without one, the engine's hiccup, is run again, three runs at most).
	FUZZTIME=$(FUZZTIME) ./scripts/fuzz-smoke.sh

vuln: ## govulncheck (pinned Go tool); skipped with a message when its database is unreachable.
	./scripts/vulncheck.sh

E2E_LANG ?= ru
e2e: ## Browser journeys only, browser mandatory; in Russian (E2E_LANG=en: in English).
	SELLERDESK_E2E=1 SELLERDESK_E2E_LANG=$(E2E_LANG) $(GO) test -count=1 -run 'TestJourney' ./e2e/...

docker: ## Build the container image, the version stamped (needs a Docker engine).
	docker build -t sellerdesk --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) .

include bench/bench.mk
