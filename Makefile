# hcreplay — build, test, benchmark, fuzz, lint.
# Everything here installs what it needs through the Go module proxy; nothing by hand.

GO          ?= go
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -X main.version=$(VERSION)
BIN         := bin/hcreplay
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 10s
BENCHTIME   ?= 1s
COUNT       ?= 5
PETCOUNT    ?= 3
# Packages with goroutines get the race detector in `make test`.
RACE_PKGS   := ./cmd/... ./report/... ./sweep/...

.PHONY: all build install test test-slurm test-quick test-exact test-exact-all bench bench-targets bench-compare bench-process fuzz fuzz-long lint mutate mutate-diff mutate-recheck demo fidelity-verdicts clean

all: build

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hcreplay

# Installs the binary into $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is unset: put
# that folder on PATH.
install:
	$(GO) install -ldflags '$(LDFLAGS)' ./cmd/hcreplay

# The whole suite. Tests that need ../shared/data/hcw19 skip themselves when it is absent.
test:
	$(GO) test ./...
	$(GO) test -race -short -timeout 30m $(RACE_PKGS)

# sweep --slurm against a real Slurm: installs and starts a one-node Slurm (slurm-wlm, munge;
# scripts/slurm-local.sh, as root, idempotent) and runs the Slurm tests, which go test alone
# skips. About two minutes on two cores, a minute of it installing the packages the first time.
test-slurm:
	./scripts/slurm-local.sh
	TEST_SLURM=1 $(GO) test -count=1 -run '^TestSlurm' ./cmd/hcreplay

# The quick check while working: every test in -short mode (the figure presets end to end, the
# demo and the allocation counts are skipped), without the race detector.
test-quick:
	$(GO) test -short ./...

# Fast ≡ reference on the real HCW19 trials (issue 51), the CI-sized run: every heuristic and
# preset × pruning variant × drop model replays EXACT_TRIALS of the 60 trials of the 19k and 34k
# levels in full (make test replays one each, cut short), the trials rotating across the
# combinations so that together they cover all 60. CI runs it after make test. Needs
# ../shared/data/hcw19 (or HCW19_DIR); skips without. EXACT_TRIALS=1 on the merged tree of
# issues 45 and 51 (after-rejudge, the evict kill split, MMU's run end): rc 0 in 868 s of wall
# time, 1,097.7 user + 59.3 sys CPU s, with a fidelity-verdicts run sharing the machine for its
# first half (/usr/bin/time make test-exact). 2 would take about twice that, more than CI can
# spare beside make test. The heaviest heuristic, MMU, takes about a fifth of the time.
EXACT_TRIALS ?= 1
test-exact:
	HCW19_TRIALS=$(EXACT_TRIALS) $(GO) test -count=1 -run '^TestHCW19FastEqualsReference$$' -timeout 70m ./replay/prune

# The same, exhaustively: every combination on all 60 trials in full. About 60 times
# EXACT_TRIALS=1: 7 to 12 hours on an idle 2-core machine.
test-exact-all:
	HCW19_EXHAUSTIVE=1 $(GO) test -count=1 -run '^TestHCW19' -timeout 24h ./replay/prune

# Benchmarks print the speed targets of the issues (rows/s, tasks/s, Gmul/s, ...), then
# BenchmarkReplay's tasks/s as a table per engine and issue 6's targets beside the measured
# medians (internal/benchtable). About ten minutes.
bench: SHELL := /bin/bash
bench:
	$(GO) build -o bin/benchtable ./internal/benchtable
	set -o pipefail; $(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) -benchmem -timeout 60m ./... | bin/benchtable

# Only the benchmarks that carry issue 6's targets, COUNT samples of each, and the targets'
# table with their medians and ranges, of all samples and of those taken while the core ran near
# its fastest in the run (internal/corespeed); then issue 50's 30-trial HCW19 replays (MM-P and
# PAM-P, s/replay; skipped without ../shared/data/hcw19), and issue 50's pet build from 10M-row
# CSV and Parquet logs, PETCOUNT samples (rows/s, peak heap; each sample writes its log first,
# about a minute); the SVG line chart's size; the full journal preset's figures on HCW19
# (s/figures, largest SVG; skipped without the data, a few minutes); and bench-process, issue
# 50's 30-trial MM replay as fresh processes against 806882e. Fifteen minutes or so.
bench-targets: SHELL := /bin/bash
bench-targets:
	$(GO) build -o bin/benchtable ./internal/benchtable
	set -o pipefail; { $(GO) test -run '^$$' -bench '^BenchmarkReplay$$/^fast$$/^(MM|PAM-P)$$' -benchtime $(BENCHTIME) -count $(COUNT) ./replay/prune && \
	  $(GO) test -run '^$$' -bench '^Benchmark(MillionTasks|EngineRatio)$$' -benchtime $(BENCHTIME) -count $(COUNT) ./replay/prune && \
	  $(GO) test -run '^$$' -bench '^BenchmarkHCW19Replay$$' -benchtime 1x -count $(COUNT) ./cmd/hcreplay && \
	  $(GO) test -run '^$$' -bench '^BenchmarkPETBuild$$' -benchtime 1x -count $(PETCOUNT) ./cmd/hcreplay && \
	  $(GO) test -run '^$$' -bench '^BenchmarkSVGFigure$$' ./report && \
	  $(GO) test -run '^$$' -bench '^BenchmarkFiguresJournal$$' -benchtime 1x -timeout 30m ./cmd/hcreplay; } | bin/benchtable
	$(MAKE) --no-print-directory bench-process

# A command's wall time as a user meets it, a fresh process each run, start-up included:
# PROCESS_BASE's hcreplay against the working tree's, PROCESS_ROUNDS alternating rounds
# (internal/benchcmp -process), the median speed-up with a 95% confidence interval. It measures
# issue 50's target: plain MM replaying the 30 HCW19 trials of arr34k from constant.zip, against
# 806882e, the main the issue was measured on (1.8x or more). Skipped without the data. A minute.
PROCESS_BASE   ?= 806882e
PROCESS_ROUNDS ?= 100
bench-process:
	@if [ ! -f "$(HCW19)/constant.zip" ]; then echo "bench-process: skipped: no HCW19 data in $(HCW19); set HCW19=DIR"; exit 0; fi; \
	rm -rf bin/process && mkdir -p bin/process && git worktree add --detach bin/process/base $(PROCESS_BASE) && \
	{ (cd bin/process/base && $(GO) build -o ../old ./cmd/hcreplay); status=$$?; git worktree remove --force bin/process/base; [ $$status = 0 ]; } && \
	$(GO) build -o bin/process/new ./cmd/hcreplay && \
	$(GO) run ./internal/benchcmp -process -old $(CURDIR)/bin/process/old -new $(CURDIR)/bin/process/new -rounds $(PROCESS_ROUNDS) \
	  -name "replay -H MM, HCW19 arr34k, 30 trials from the zip" -- -q replay --pet '$(HCW19)/classes_2.etc' --trace '$(HCW19)/constant.zip#arr/arr34k_*.dat' -H MM

# Compares the benchmarks BENCH of package PKG at git revision BASE with the working tree's:
# both test binaries run in turn, ROUNDS rounds of BENCHRUN each, the first alternating, and
# the median speed-up per benchmark is printed with a 95% confidence interval
# (internal/benchcmp). On a machine whose speed swings, a change of a few percent shows here and
# not in two make bench runs. About two minutes. Example: make bench-compare BASE=HEAD~1 ROUNDS=60
# EACH=1 runs each benchmark in processes of its own, the two builds' one after the other: with
# many benchmarks, one process per build per round puts the two values of a row a whole run
# apart, where the machine's phases move it by more than its confidence interval
# (internal/benchcmp).
BASE     ?= HEAD
PKG      ?= ./replay/prune
BENCH    ?= ^BenchmarkReplay$$/^fast$$/^(MM|PAM-P)$$
ROUNDS   ?= 30
BENCHRUN ?= 50x
EACH     ?=
bench-compare:
	rm -rf bin/compare && mkdir -p bin/compare
	git worktree add --detach bin/compare/base $(BASE)
	(cd bin/compare/base && $(GO) test -c -o ../old.test $(PKG)); status=$$?; git worktree remove --force bin/compare/base; exit $$status
	$(GO) test -c -o bin/compare/new.test $(PKG)
	$(GO) run ./internal/benchcmp -old $(CURDIR)/bin/compare/old.test -new $(CURDIR)/bin/compare/new.test -dir $(PKG) -bench '$(BENCH)' -benchtime $(BENCHRUN) -rounds $(ROUNDS) $(if $(EACH),-each)

# Each fuzz target for FUZZTIME (go test -fuzz runs one target per invocation). A Parquet
# input is kilobytes, and minimising each new interesting one took the engine most of the time
# (7 and 126 executions in 60 s, issue 49): the Parquet targets minimise for PQMINIMIZE
# executions only, the others for 2 s.
PQMINIMIZE  ?= 20x
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    min=2s; case $$target in *Parquet*) min=$(PQMINIMIZE);; esac; \
	    echo "== $$pkg $$target (minimise $$min)"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $$min $$pkg; \
	  done; \
	done

# make fuzz with each target for FUZZLONG: a night's run before a release (17 targets × 10 min).
FUZZLONG    ?= 10m
fuzz-long:
	$(MAKE) fuzz FUZZTIME=$(FUZZLONG)

# Mutation testing (issue 52): gremlins, pinned, mutates one package at a time and runs that
# package's tests against each mutant; internal/mutants prints the score per package, lists the
# mutants that lived, and fails when one is neither killed nor listed with its reason in
# internal/mutants/equivalent.txt. MUTATE_WORKERS mutants are tested at once; a mutant's tests may
# take MUTATE_TIMEOUT times as long as the coverage run (gremlins's default, 3, times every mutant
# out on a busy 2-core machine). report's aggregation alone: report:aggregate.go. Some 2,000
# mutants, each a build and a test run: hours on a shared 2-core machine (replay/heuristic's 225
# took 40 minutes at a load of 10); make mutate MUTATE_PKGS=replay/heuristic for one package.
GREMLINS_VERSION := v0.6.0
GREMLINS         := bin/gremlins-$(GREMLINS_VERSION)/gremlins
MUTATE_PKGS      ?= pmf replay replay/heuristic replay/prune petbuild report:aggregate.go
MUTATE_WORKERS   ?= 2
MUTATE_TIMEOUT   ?= 10
MUTATE           := $(GO) run ./internal/mutants -gremlins $(GREMLINS) -workers $(MUTATE_WORKERS) -coefficient $(MUTATE_TIMEOUT)

$(GREMLINS):
	GOBIN=$(CURDIR)/$(dir $(GREMLINS)) $(GO) install github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION)

mutate: $(GREMLINS)
	$(MUTATE) $(MUTATE_PKGS)

# The same, over only the source files changed since the merge base with BASE (default main),
# uncommitted and untracked files included: minutes for a usual change, to run before every stop.
# With the last make mutate's result in bin/mutate, gremlins only lists those files' mutants (a
# dry run) and only the mutants on lines changed since the merge base (or since that run) are
# tested; the others keep the run's status, moved with their line by a line diff. It says how
# many it tested and kept, and updates the result. Without a result, the files are mutated in full.
mutate-diff: BASE = main
mutate-diff: $(GREMLINS)
	$(MUTATE) -base $(BASE) $(MUTATE_PKGS)

# The last make mutate's survivors against today's tests, in minutes (REV: the run's commit, for results without bin/mutate/PKG.run.json;
# RECHECK=-timed-out tests the mutants it timed out again too, RECHECK=-not-covered those it found no test reaching).
# A source file changed or added since the run: gremlins lists its mutants (a dry run), those on
# lines changed or added since are tested, the others keep the run's status; a file the run did
# not mutate (MUTATE_PKGS=DIR:FILE,...) is left out.
RECHECK ?=
mutate-recheck: $(GREMLINS)
	$(MUTATE) -recheck $(if $(REV),-rev $(REV)) $(RECHECK) $(MUTATE_PKGS)

lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# The claims' verdicts in docs/fidelity.md: runs every preset --quick (3 trials a level) on the
# HCW19 data and splices a verdict table per preset between its markers
# (internal/fidelityverdicts). Skips, saying so, without ../shared/data/hcw19 (or HCW19).
# Tens of minutes on a busy two-core machine.
HCW19            ?= ../shared/data/hcw19
FIDELITY_OUT     ?= fidelity-verdicts
FIDELITY_PRESETS ?= thesis journal conference batch2010 speculative
fidelity-verdicts: SHELL := /bin/bash
fidelity-verdicts:
	@if [ ! -f "$(HCW19)/constant.zip" ]; then \
	  echo "fidelity-verdicts: skipped: no HCW19 data in $(HCW19) (constant.zip, spiky.zip, classes_2.etc); set HCW19=DIR"; exit 0; fi; \
	set -e; $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/hcreplay; \
	for p in $(FIDELITY_PRESETS); do \
	  trials="--trials $(HCW19)"; [ $$p = speculative ] && trials=""; \
	  echo "fidelity-verdicts: $$p"; \
	  $(BIN) figures --preset $$p --quick $$trials --out $(FIDELITY_OUT)/$$p -q; \
	  $(GO) run ./internal/fidelityverdicts docs/fidelity.md $(FIDELITY_OUT)/$$p/verdicts.json; \
	done

demo: build
	./$(BIN) demo

clean:
	rm -rf bin hcreplay-demo
