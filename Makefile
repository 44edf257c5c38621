# pagerd: `make run` starts the service on 127.0.0.1:8080, `make test` runs every test.
SWIFT ?= swift
PYTHON ?= python3
RELEASE_BIN := .build/release/pagerd

.PHONY: load-tail deps postgres-deps build run lint format test test-swift generate-client check-client-package test-e2e test-cluster test-tsan test-asan fuzz fuzz-build python-deps browser-deps nginx-deps \
	container-check clean load load-cluster memory recovery bench hardening ticks fanout swipe

# Installs libmicrohttpd's, SQLite's and libpq's headers and pkg-config when pkg-config cannot
# find them; prlimit (util-linux) is used by the disk-full test.
deps:
	@{ pkg-config --exists libmicrohttpd && pkg-config --exists sqlite3 && pkg-config --exists libpq; } 2>/dev/null || { \
		echo "installing libmicrohttpd-dev, libsqlite3-dev, libpq-dev and pkg-config with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config; }

# The PostgreSQL server (Debian's), for the throwaway clusters the tests start (tools/with-postgres.sh).
postgres-deps:
	@ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1 || { \
		echo "installing postgresql with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql; }

build: deps
	$(SWIFT) build -c release --product pagerd

run: build
	$(RELEASE_BIN) --config config/pagerd.json

python-deps:
	@$(PYTHON) -c "import pytest, schemathesis, jsonschema, openapi_spec_validator, openapi_python_client, selenium, axe_core_python" 2>/dev/null || \
		$(PYTHON) -m pip install -q pytest schemathesis jsonschema openapi-spec-validator openapi-python-client selenium axe-core-python

# Headless Chromium and its driver (Debian's packages), with fonts for Korean titles and emoji;
# Node (Debian's nodejs, 18 or later) for the tests of web/pagerd.js (web/test).
browser-deps:
	@{ command -v chromium && command -v chromedriver && fc-list | grep -q "Noto Sans CJK"; } > /dev/null 2>&1 || { \
		echo "installing chromium, chromium-driver and fonts with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver fonts-noto-cjk fonts-noto-color-emoji; }
	@command -v node > /dev/null 2>&1 || { echo "installing nodejs with apt-get"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs; }

# nginx for the reverse-proxy test of deploy/nginx/pagerd.conf (Debian's package; not started as a service).
nginx-deps:
	@command -v nginx > /dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
		echo "installing nginx with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx; }

# swift-format's lint over every Swift file (the configuration is .swift-format); warnings are
# errors in every library build but the generated client code (Package.swift), so a clean build
# is the other half of the lint.
SWIFT_SOURCES := Sources Tests Fuzz Benchmarks Plugins Package.swift
lint:
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)

format:
	$(SWIFT) format format --in-place --recursive $(SWIFT_SOURCES)

# The Swift tests and the end-to-end tests run beside a throwaway PostgreSQL cluster
# (tools/with-postgres.sh), which the PostgreSQL store's tests use.
test: deps postgres-deps python-deps browser-deps nginx-deps lint
	$(SWIFT) build -c release --product pagerd
	tools/with-postgres.sh sh -c '$(SWIFT) test && PAGERD_BINARY=$(RELEASE_BIN) $(PYTHON) -m pytest -q pytests/e2e pytests/browser'
	PAGERD_BINARY=$(RELEASE_BIN) tools/check-client-package.sh

# The Swift client as an app uses it: a package outside the repository that depends on this one
# builds only the client (no server library looked up) and runs against pagerd (docs/swift-client.md).
check-client-package: build
	PAGERD_BINARY=$(RELEASE_BIN) tools/check-client-package.sh

# Regenerates Sources/PagerdOpenAPI from openapi.json (swift-openapi-generator, built
# once in .build-openapi); run it after changing openapi.json and commit the result.
generate-client:
	tools/generate-client.sh

test-swift: deps
	$(SWIFT) test

test-e2e: build postgres-deps python-deps browser-deps nginx-deps
	tools/with-postgres.sh env PAGERD_BINARY=$(RELEASE_BIN) $(PYTHON) -m pytest -q pytests/e2e pytests/browser

# Three pagerd instances sharing one PostgreSQL database behind nginx (deploy/nginx.conf), each
# started and stopped by the test: pytests/e2e/test_cluster.py.
test-cluster: build postgres-deps python-deps nginx-deps
	tools/with-postgres.sh env PAGERD_BINARY=$(RELEASE_BIN) $(PYTHON) -m pytest -q pytests/e2e/test_cluster.py

# Builds and runs the image; the smoke step creates a session and moves it through the container.
# It uses a container checker kept outside this repository, an optional tool: where it is absent,
# the target says so and does nothing.
CONTAINER_CHECK ?= ../shared/container-check/check.sh
container-check:
	@if [ -f "$(CONTAINER_CHECK)" ]; then bash "$(CONTAINER_CHECK)" --smoke "bash pytests/container-smoke.sh" .; \
	else echo "container-check: the optional container checker ($(CONTAINER_CHECK)) is not here; nothing checked"; fi

# The C program every speed figure is compared with (libmicrohttpd answering every request with the
# fixed state document of a four-page session, 2,169 bytes).
.build/bench/ceiling: bench/ceiling.c
	@mkdir -p .build/bench
	cc -O2 -Wall -Wextra -o $@ bench/ceiling.c $$(pkg-config --cflags --libs libmicrohttpd)

# pagerd against the ceiling with wrk: prints a table (see bench/load.py for the knobs).
load: deps build .build/bench/ceiling
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/load.py

# Where load's p99 comes from: pagerd and the ceiling with one and two threads under POST …/next,
# with the scheduler's switches and waits of their threads (bench/tail.py; TAIL_REPEAT, TAIL_CONNECTIONS).
load-tail: deps build .build/bench/ceiling
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	@command -v perf > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf; }
	$(PYTHON) bench/tail.py

# POST …/next through nginx in front of three instances sharing PostgreSQL, next to one instance
# on SQLite and one in memory (bench/cluster.py; CLUSTER_DURATION, CLUSTER_REPEAT, CLUSTER_CONNECTIONS).
load-cluster: deps build postgres-deps nginx-deps
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	tools/with-postgres.sh $(PYTHON) bench/cluster.py

# Recovery of RECOVERY_SESSIONS (100,000) sessions from SQLite after kill -9: prints a table.
recovery: deps build
	$(PYTHON) bench/recovery.py

# What auto-advance costs: TICKS_SESSIONS (10,000) sessions ticking every second, server CPU as a
# share of one core with the timers running and stopped (see bench/ticks.py for the knobs).
ticks: deps build
	$(PYTHON) bench/ticks.py

# An audience: FANOUT_WATCHERS (10,000) event streams on one session (bench/fanout.c, one epoll
# thread), FANOUT_CHANGES (20) moves, each timed to every watcher; RSS per watcher, server CPU per
# change, and POST …/next at 64 connections beside the audience (bench/fanout.py for the knobs;
# PAGERD_* settings pass through, e.g. PAGERD_CONNECTION_MEMORY_LIMIT=4096).
.build/bench/fanout: bench/fanout.c
	@mkdir -p .build/bench
	cc -O2 -Wall -Wextra -o $@ bench/fanout.c

fanout: deps build .build/bench/fanout
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/fanout.py

# A 400 ms swipe in the demo in headless Chromium, through a relay delaying each direction by
# SWIPE_DELAY_MS (50) and on loopback: the lag from pointer move to drawn frame, redraws per
# second, requests and bytes per swipe, medians of SWIPE_REPEAT (5) swipes (bench/swipe.py).
swipe: deps build python-deps browser-deps
	$(PYTHON) bench/swipe.py

# Resident memory per idle four-page session, over 1,000,000 sessions (MEMORY_SESSIONS).
memory: deps build
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/memory.py

# Micro-benchmarks (ordo-one/benchmark), built apart from the normal build in .build-bench.
bench: deps
	PAGERD_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench benchmark --target PagerBenchmarks

# The Swift tests under ThreadSanitizer and AddressSanitizer, each in its own build folder, without
# the Swift client (PAGERD_WITHOUT_CLIENT, see Package.swift). ThreadSanitizer runs the tests one
# at a time: run side by side, its tenfold slower tests kept the two threads that Swift tasks run
# on busy for up to 30 s (a task sleeping 10 ms in a loop beside them woke 12–29 s late at worst),
# and a test server's answer, which waits its turn there, came after the client's read timeout.
# One at a time, a test's tasks have those threads to themselves; each test still runs its own
# threads and tasks at once, which is what ThreadSanitizer watches.
test-tsan: deps
	PAGERD_WITHOUT_CLIENT=1 PAGERD_SKIP_CONFORMANCE=1 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
		--no-parallel

test-asan: deps
	PAGERD_WITHOUT_CLIENT=1 PAGERD_SKIP_PROCESS_TESTS=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp \
		$(SWIFT) test --sanitize=address --scratch-path .build-asan

# libFuzzer on the JSON parser and on request handling in-process, FUZZ_SECONDS each (default 60),
# starting from the committed seeds in Fuzz/corpus; what it finds is kept in .build-fuzz/corpus
# and a crashing input is written to .build-fuzz/crash-*.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
fuzz-build: deps
	PAGERD_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz -c release --product FuzzJSON $(FUZZ_FLAGS)
	PAGERD_FUZZ=1 $(SWIFT) build --scratch-path .build-fuzz -c release --product FuzzRequests $(FUZZ_FLAGS)

fuzz: fuzz-build
	@mkdir -p .build-fuzz/corpus/json .build-fuzz/corpus/requests
	.build-fuzz/release/FuzzJSON -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/json.dict -artifact_prefix=.build-fuzz/ \
		-print_final_stats=1 .build-fuzz/corpus/json Fuzz/corpus/json
	.build-fuzz/release/FuzzRequests -max_total_time=$(FUZZ_SECONDS) -dict=Fuzz/json.dict -artifact_prefix=.build-fuzz/ \
		-print_final_stats=1 .build-fuzz/corpus/requests Fuzz/corpus/requests

# Before/after figures for the hardening defects (see bench/hardening.py).
hardening: deps build
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/hardening.py --binary $(RELEASE_BIN) --cwd .

clean:
	rm -rf .build .build-bench .build-tsan .build-asan .build-fuzz .build-openapi
