# Spindle's habits. `make help` lists them; `make test` is what CI runs.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO ?= go
MODULE := github.com/spindle-yarn/spindle
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN := bin/spindle
# Integration tests live under integration/; everything else is a unit test.
UNIT_PKGS = $(shell $(GO) list ./... | grep -v '^$(MODULE)/integration')
# .proto sources sit beside their generated .pb.go files (yarnpb/, executor/wire/).
PROTO_DIRS = yarnpb executor
PROTOS = $(shell find $(PROTO_DIRS) -name '*.proto' | sort)
PROTOGEN = $(GO) -C tools run ./protogen -root $(CURDIR)
# The decision cores are pure (docs/architecture.md): tools/puritycheck reads
# their sources (coretest included, tests not), and the restart path's
# decisions' (am/handover), and refuses I/O, logging, lock
# and networking imports, clock reads, timers and go statements ...
CORES = scheduler am/core am/handover
# ... and none of these may sit anywhere below them, imported or not.
# (os, sync and syscall are not listed: fmt reaches them.)
IMPURE = ^(net|net/http|net/rpc|os/exec|os/signal|log|log/slog)$$|yarnpb|logrus|google.golang.org/grpc|colinmarc/hdfs
# The integration tests' helpers live in helpers_*_test.go files, each
# once (docs/testing.md): tools/helpercheck reads these directories.
HELPER_DIRS = integration integration/testcluster integration/browser

# The whole integration suite runs on minicluster.sh's default Hadoop (the
# newest 3.5.x). The YARN suite, the tests of the paths that differ by
# Hadoop version (a job's run on YARN, the RPC protocols, the CLI's
# reports, staging, HDFS, the harness), runs on the newest 3.4.x and 3.3.x
# too; the other cluster tests (gangs, shapes, placement, faults, Kerberos,
# the UI...) run on 3.5.x only (docs/minicluster.md, Hadoop versions).
OTHER_HADOOP_VERSIONS ?= 3.4.3 3.3.6
YARN_SUITE = ^Test(Yarn|RPC|CLI|Staging|ResourceManager|HDFS|Minicluster)

# The cluster suites run in lanes, side by side (tools/testlanes): they
# mostly wait on the mini clusters' heartbeats, and a 2-core machine
# running one suite sits about 60% idle (docs/testing.md has the times).
# Each lane is a go test process, which starts the clusters its tests ask
# for: the lanes split the tests by cluster, so that no cluster starts
# twice. OWN_CLUSTERS are the tests on clusters no other test shares,
# KERBEROS_TESTS those on the Kerberized ones (their tokens' lives take
# minutes of waiting), with NEMESIS_TESTS (the nemesis, on a cluster of
# its own: that lane had the most time to spare, docs/testing.md); every
# other test, on the default cluster or none, is in the shared lane
# (-skip: a new test always runs somewhere). The
# older Hadoops' YARN suites share a lane, one after the other: five
# lanes at once loaded this machine past what timing-bound tests bear.
OWN_CLUSTERS = ^Test(Fault(Preemption|Decommission|NodeManager|RM)|Placement(MaxPerNode|NodeAttributes|NodeLabel|Pack)|Minicluster|RPC.*Privacy)
KERBEROS_TESTS = ^TestKerberos
NEMESIS_TESTS = ^TestNemesis
GO_TEST_JSON = $(GO) test -json -count=1 -p 1 -timeout 30m
LANE_SHARED = newest Hadoop, shared cluster=$(GO_TEST_JSON) -skip "$(OWN_CLUSTERS)|$(KERBEROS_TESTS)|$(NEMESIS_TESTS)" ./integration/
LANE_OWN = newest Hadoop, own clusters=$(GO_TEST_JSON) -run "$(OWN_CLUSTERS)" ./integration/; a=$$?; \
  $(GO_TEST_JSON) ./integration/browser ./integration/testcluster; exit $$((a | $$?))
LANE_KERBEROS = newest Hadoop, Kerberos and the nemesis=$(GO_TEST_JSON) -run "$(KERBEROS_TESTS)|$(NEMESIS_TESTS)" ./integration/
LANES_OLDER = -lane 'Hadoop $(OTHER_HADOOP_VERSIONS), the YARN suite=rc=0; for v in $(OTHER_HADOOP_VERSIONS); do \
  HADOOP_VERSION=$$v $(GO_TEST_JSON) -run "$(YARN_SUITE)" ./integration/ || rc=1; done; exit $$rc'
LANES_NEWEST = -lane '$(LANE_SHARED)' -lane '$(LANE_OWN)' -lane '$(LANE_KERBEROS)'
# -mark: the line integration/testcluster logs as it starts a cluster
# (testcluster.StartedPrefix; its test holds the two the same).
TESTLANES = $(GO) -C tools run ./testlanes -dir $(CURDIR) -out $(CURDIR)/build/test-lanes -mark 'testcluster: started the '

# The nemesis brings faults this long in `make nemesis` (2m in `make
# test`); NEMESIS_SEED=N replays a run's schedule (its log prints N).
NEMESIS_TIME ?= 10m
NEMESIS_SEED ?=

# Each fuzz target runs this long in `make test`; longer runs: make fuzz FUZZTIME=5m.
FUZZTIME ?= 4s

.PHONY: mutate help build test test-unit test-integration test-clusters test-hadoop-versions nemesis krb5-user chromium fuzz bench bench-compare demo proto verify-proto lint minicluster minicluster-stop

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-22s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build the static spindle binary into bin/
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w -X $(MODULE)/deploy.version=$(VERSION)' -o $(BIN) ./cmd/spindle

test: lint verify-proto test-unit faultsim fuzz test-clusters ## everything: lint, generated code, unit tests with -race, the fault simulator's 10,000 schedules, fuzzing, integration tests on the real mini cluster of every supported Hadoop

# A binary built with -race sleeps a second as it exits, in case another
# goroutine is about to report a race (GORACE's atexit_sleep_ms, 1000 by
# default). The unit tests start their own binary as a process again and
# again (each task's guard, a discovery script's): 10ms took the executor
# package's tests from 104s to 11s on this 2-core machine.
GORACE ?= atexit_sleep_ms=10

test-unit: ## unit tests with the race detector, and the tools' own tests (tools/)
	GORACE='$(GORACE)' CGO_ENABLED=1 $(GO) test -race -count=1 $(UNIT_PKGS)
	$(GO) -C tools test -count=1 ./...

# The fault simulator (docs/reliability.md): test-unit runs 2,000 of its
# schedules under -race; this runs SEEDS of them from seed FIRST (a number,
# or random) without it, 10,000 in make test.
SEEDS ?= 10000
FIRST ?= 1
faultsim: ## the fault simulator's SEEDS schedules (10000) from seed FIRST (1, or random), without -race, then as many with connection cuts
	$(GO) test -count=1 -timeout 0 -run 'TestFaultSim$$' ./am/faultsim -args -seeds $(SEEDS) -first $(FIRST)
	$(GO) test -count=1 -timeout 0 -run 'TestFaultSim$$' ./am/faultsim -args -seeds $(SEEDS) -first $(FIRST) -cuts

test-integration: krb5-user chromium ## integration tests against the real Hadoop mini cluster (Maven fetches Hadoop on first use), in three lanes at once
	$(TESTLANES) $(LANES_NEWEST)

test-clusters: krb5-user chromium ## test-integration and test-hadoop-versions, every lane at once (what make test runs)
	$(TESTLANES) $(LANES_NEWEST) $(LANES_OLDER)

nemesis: ## the nemesis on its own mini cluster for NEMESIS_TIME (10m): AM kills, RM restarts, NodeManager stops under a session's clients (docs/reliability.md)
	NEMESIS_TIME='$(NEMESIS_TIME)' NEMESIS_SEED='$(NEMESIS_SEED)' $(GO) test -count=1 -v -timeout 2h -run '$(NEMESIS_TESTS)' ./integration/

# The Kerberos tests log in with MIT's kinit, as users do: Debian's
# krb5-user, installed when missing (apt-get, as root or through sudo).
krb5-user:
	@command -v kinit >/dev/null 2>&1 || { \
	  echo "installing krb5-user (kinit) for the Kerberos tests"; \
	  sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  install="$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends krb5-user"; \
	  $$install >/dev/null 2>&1 || { $$sudo apt-get update -q >/dev/null && $$install >/dev/null; }; \
	  command -v kinit >/dev/null || { echo "FAIL: krb5-user did not install: kinit is missing"; exit 1; }; }

# The browser tests (integration/browser) drive a real headless browser over
# its DevTools protocol: Debian's chromium, installed when missing, in the
# same manner as krb5-user.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium (the headless browser) for the browser tests"; \
	  sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  install="$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium"; \
	  $$install >/dev/null 2>&1 || { $$sudo apt-get update -q >/dev/null && $$install >/dev/null; } || true; \
	  command -v chromium >/dev/null || { echo "FAIL: chromium did not install (apt-get's errors above): the browser tests need it"; exit 1; }; }

test-hadoop-versions: krb5-user chromium ## the YARN suite (the tests of what differs by Hadoop version) on the other supported versions (OTHER_HADOOP_VERSIONS: the newest 3.4.x and 3.3.x)
	$(TESTLANES) $(LANES_OLDER)

# Go 1.26's fuzzing coordinator can fail a target with a bare "context
# deadline exceeded" as FUZZTIME runs out, having found nothing
# (golang/go#75804, fixed in Go 1.27): such a run, and only such a run (no
# failing input written), is tried once more.
fuzz: ## run every Fuzz target for FUZZTIME each (seed corpora in each package's testdata/fuzz)
	@log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for pkg in $(UNIT_PKGS); do \
	  dir=$${pkg#$(MODULE)}; dir=.$${dir:-/}; \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go 2>/dev/null); do \
	    echo "fuzz $$pkg $$target ($(FUZZTIME))"; \
	    for try in 1 2; do \
	      if $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 1000x $$pkg > $$log 2>&1; then break; fi; \
	      if [ $$try = 1 ] && grep -qx '    context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log; then \
	        echo "  the fuzztime boundary race of Go 1.26 (golang/go#75804), nothing found: once more"; continue; \
	      fi; \
	      cat $$log; exit 1; \
	    done; \
	  done; \
	done

bench: build ## benchmarks, with allocations, then local mode's end-to-end throughput (100,000 noop tasks)
	$(GO) test -run '^$$' -bench . -benchmem $(UNIT_PKGS)
	$(BIN) submit --master 'local[2]' --conf spindle.executor.cores=4 examples/bench/noop.yaml

# Not part of `make test`: it installs Spark (pyspark, from PyPI) and
# DistributedShell (Maven) under build/bench-compare/ on first use, starts
# its own mini cluster (MINICLUSTER_* knobs apply) and takes ~10 minutes.
# SPINDLE_BIN=path measures another build; bench/compare/README.md has the rest.
bench-compare: build ## Spindle beside Spark and DistributedShell, locally and on the mini cluster: medians of 3 into docs/benchmarks.md
	python3 bench/compare/compare.py all

demo: build ## a GPU job in local mode on this machine (fake GPU addresses: needs no GPU)
	@out=$$(mktemp); trap 'rm -f $$out' EXIT; \
	  $(BIN) submit --properties-file examples/demo/demo.conf examples/demo/gpu-demo.yaml | tee $$out; \
	  logs=$$(sed -n 's/^  task logs: //p' $$out); \
	  echo "--- the gather stage printed ($$logs/*/job0-stage1-task0-attempt0.stdout):"; \
	  cat $$logs/*/job0-stage1-task0-attempt0.stdout

proto: ## regenerate the Go code of every .proto file with the pinned generator (tools/)
	$(PROTOGEN) $(PROTOS)

verify-proto: ## fail if the checked-in generated code differs from what `make proto` writes
	$(PROTOGEN) -check $(foreach d,$(PROTO_DIRS),-scan $(d)) $(PROTOS)

lint: ## gofmt, go vet, go.mod tidiness, shell syntax, functions' length, the decision cores' purity, and the integration helpers' layout
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go' | grep -v '\.pb\.go$$')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) -C tools vet ./...
	$(GO) mod tidy -diff
	$(GO) -C tools mod tidy -diff
	bash -n integration/minicluster.sh .ci/run
	$(GO) -C tools run ./funclen -root $(CURDIR)
	$(GO) -C tools run ./puritycheck -root $(CURDIR) $(CORES)
	$(GO) -C tools run ./helpercheck -root $(CURDIR) $(HELPER_DIRS)
	@for core in ./scheduler/... ./am/core/...; do \
	  bad=$$($(GO) list -deps $$core | grep -E '$(IMPURE)' || true); \
	  if [ -n "$$bad" ]; then echo "$$core must stay pure (docs/architecture.md) but depends on:"; echo "$$bad"; exit 1; fi; \
	done
	@echo "lint: ok"

mutate: ## a hand-written mutation pass: MUTANTS=FILE lists the changes, each tried against its tests (docs/testing.md)
	@test -n "$(MUTANTS)" || { echo "usage: make mutate MUTANTS=FILE (docs/testing.md)"; exit 2; }
	$(GO) -C tools run ./mutate -root $(CURDIR) $(abspath $(MUTANTS))

minicluster: ## start a mini cluster in integration/.cluster for manual use (tests reuse it with SPINDLE_MINICLUSTER_DIR)
	integration/minicluster.sh start

minicluster-stop: ## stop the mini cluster in integration/.cluster
	integration/minicluster.sh stop
