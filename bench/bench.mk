# Performance benchmarks. Included from the Makefile:
#   include bench/bench.mk
# `make bench` runs the Go benchmarks (summarised by benchstat), then
# measures P1..P14 in one run (P1, P6 and P7 for information), prints one line per figure and writes
# BENCHMARKS.md. `make bench-smoke` is the CI smoke run (seconds, no
# timing assertions).
BENCH_OUT ?= bench/out

.PHONY: bench bench-large bench-smoke bench-once bench-profile

bench: ## Measure P1..P14 side by side, print one line per target, write BENCHMARKS.md (about 20 minutes here).
	@mkdir -p $(BENCH_OUT)
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -benchtime 300x ./bench/ > $(BENCH_OUT)/gobench.txt
	$(GO) tool benchstat -col /side $(BENCH_OUT)/gobench.txt > $(BENCH_OUT)/benchstat.txt
	@cat $(BENCH_OUT)/benchstat.txt
	$(GO) run ./bench/cmd/sdbench -out BENCHMARKS.md -benchstat $(BENCH_OUT)/benchstat.txt -notes bench/NOTES.md

bench-large: ## P15 alone: a million records beside a thousand, on SQLite and PostgreSQL (about 21 minutes here); writes BENCHMARKS-large.md.
	$(GO) run ./bench/cmd/sdbench -only P15 -out BENCHMARKS-large.md -notes bench/NOTES.md -command 'make bench-large'

bench-smoke: ## The benchmark suite once with tiny sizes (what CI runs via go test).
	$(GO) test -race -count=1 -short ./bench/...

bench-once: ## Every Go benchmark of bench/ once, so none rots between `make bench` runs (seconds; no figures).
	$(GO) test -run '^$$' -bench . -benchtime 1x ./bench/

bench-profile: ## CPU and allocation profiles of one /orders page, top 25 each.
	@mkdir -p $(BENCH_OUT)
	$(GO) test -run '^$$' -bench BenchmarkOrdersHandler -benchtime 2000x -cpuprofile $(BENCH_OUT)/cpu.out -memprofile $(BENCH_OUT)/mem.out -o $(BENCH_OUT)/bench.test ./bench/
	$(GO) tool pprof -top -nodecount 25 $(BENCH_OUT)/bench.test $(BENCH_OUT)/cpu.out
	$(GO) tool pprof -top -nodecount 25 -sample_index alloc_objects $(BENCH_OUT)/bench.test $(BENCH_OUT)/mem.out
