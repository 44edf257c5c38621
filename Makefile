# pagerd: `make run` starts the service on 127.0.0.1:8080, `make test` runs every test.
SWIFT ?= swift
PYTHON ?= python3
RELEASE_BIN := .build/release/pagerd

.PHONY: deps build run test test-swift test-e2e python-deps browser-deps container-check clean openapi load memory bench

# Installs libmicrohttpd's headers and pkg-config when pkg-config cannot find the library.
deps:
	@pkg-config --exists libmicrohttpd 2>/dev/null || { \
		echo "installing libmicrohttpd-dev and pkg-config with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libmicrohttpd-dev pkg-config; }

build: deps
	$(SWIFT) build -c release --product pagerd

run: build
	$(RELEASE_BIN) --config config/pagerd.json

python-deps:
	@$(PYTHON) -c "import pytest, schemathesis, openapi_spec_validator, selenium" 2>/dev/null || \
		$(PYTHON) -m pip install -q pytest schemathesis openapi-spec-validator selenium

# Headless Chromium and its driver (Debian's packages), with fonts for Korean titles and emoji.
browser-deps:
	@{ command -v chromium && command -v chromedriver && fc-list | grep -q "Noto Sans CJK"; } > /dev/null 2>&1 || { \
		echo "installing chromium, chromium-driver and fonts with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver fonts-noto-cjk fonts-noto-color-emoji; }

test: deps python-deps browser-deps
	$(SWIFT) test
	$(SWIFT) build -c release --product pagerd
	PAGERD_BINARY=$(RELEASE_BIN) $(PYTHON) -m pytest -q tests/e2e tests/browser

test-swift: deps
	$(SWIFT) test

test-e2e: build python-deps browser-deps
	PAGERD_BINARY=$(RELEASE_BIN) $(PYTHON) -m pytest -q tests/e2e tests/browser

# Builds and runs the image; the smoke step creates a session and moves it through the container.
container-check:
	bash ../shared/container-check/check.sh --smoke "bash tests/container-smoke.sh" .

# The C program every speed figure is compared with (libmicrohttpd answering a fixed 1 KB body).
.build/bench/ceiling: bench/ceiling.c
	@mkdir -p .build/bench
	cc -O2 -Wall -Wextra -o $@ bench/ceiling.c $$(pkg-config --cflags --libs libmicrohttpd)

# pagerd against the ceiling with wrk: prints a table (see bench/load.py for the knobs).
load: deps build .build/bench/ceiling
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/load.py

# Resident memory per idle four-page session, over 1,000,000 sessions (MEMORY_SESSIONS).
memory: deps build
	@command -v wrk > /dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	$(PYTHON) bench/memory.py

# Micro-benchmarks (ordo-one/benchmark), built apart from the normal build in .build-bench.
bench: deps
	PAGERD_BENCHMARKS=1 $(SWIFT) package --scratch-path .build-bench benchmark --target PagerBenchmarks

clean:
	rm -rf .build .build-bench

# Regenerates the OpenAPI document embedded in the binary from tools/openapi.py.
openapi:
	$(PYTHON) tools/openapi.py
