# RingCast: `make run` serves the default board, `make test` runs every test.
# Both install the Debian packages they need first (as root, or through sudo).

SWIFT ?= swift
PYTHON ?= python3
# libwebsockets' header includes OpenSSL and libcap headers, so all three are needed to build.
APT_PACKAGES := libwebsockets-dev libssl-dev libcap-dev pkg-config
# The browser test drives Debian's headless Chromium over the DevTools protocol (a pipe, so no
# driver and no Python package beyond pytest) against the real server.
BROWSER_APT_PACKAGES := chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RUN_ARGS ?=
PYTEST_ARGS ?=

.PHONY: all deps python-deps browser-deps build run test fuzz-api browser-test screenshots lint clean bench

all: build

# $(call apt-install,PACKAGES) installs those of PACKAGES that are missing, so a prepared machine
# does no network work.
define apt-install
	@missing=""; \
	for package in $(1); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt-install,$(APT_PACKAGES))

# Chromium from Debian; Python and pytest only when missing (pytest from PyPI, or Debian's
# python3-pytest where pip may not install into the system Python).
browser-deps:
	$(call apt-install,$(BROWSER_APT_PACKAGES))
	@command -v $(PYTHON) >/dev/null || { \
		echo "installing: python3"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3; }
	@$(PYTHON) -c "import pytest" 2>/dev/null || { \
		echo "installing from PyPI: pytest"; \
		$(PYTHON) -m pip install --quiet pytest || { \
			echo "pip cannot install here; installing Debian's python3-pytest"; \
			$(SUDO) apt-get update && \
			$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pytest; }; }

# Python tools the test suite drives (schemathesis fuzzes the REST API from docs/openapi.yaml).
PYTHON_PACKAGES := schemathesis
python-deps:
	@for package in $(PYTHON_PACKAGES); do \
		python3 -m pip show $$package >/dev/null 2>&1 || python3 -m pip install --quiet $$package; \
	done

build: deps
	$(SWIFT) build -c release

run: build
	.build/release/ringcast serve $(RUN_ARGS)

test: deps python-deps browser-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	Tests/fuzz/run.sh .build/debug/ringcast
	node --test Tests/web/
	@$(MAKE) --no-print-directory browser-test

# The REST API fuzzed from docs/openapi.yaml against a live server (needs a debug build).
fuzz-api: python-deps
	Tests/fuzz/run.sh .build/debug/ringcast

# Real headless Chromium against the real server (.build/debug/ringcast, which the Swift test
# build makes; rebuilding here is a no-op after `make test`'s build).
browser-test: deps browser-deps
	$(SWIFT) build --build-tests
	PYTHONDONTWRITEBYTECODE=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(PYTHON) -m pytest Tests/browser $(PYTEST_ARGS)

# Retakes README's docs/screenshot.png and docs/screenshot-overlap.png with the browser test.
screenshots:
	@UPDATE_SCREENSHOTS=1 $(MAKE) --no-print-directory browser-test PYTEST_ARGS="-k screenshots"

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

# The standard load scenarios, each against a fresh release server on a free port with an empty
# temporary data directory and a copy of the shipped config whose limits let the bench in
# (writesPerMinute 0: the bench pushes 5 times a second; maxViewers above the largest scenario),
# then docs/BENCHMARKS.md from the results. BENCH_LWS_VIEWERS adds runs with the libwebsockets
# client for comparison (empty: none); BENCH_RESULTS names a directory to keep each run's JSON in.
# A scenario that fails is reported and fails the target.
BENCH_VIEWERS ?= 100 500 1000 2000
BENCH_LWS_VIEWERS ?= 300
BENCH_FPS ?= 60
BENCH_DURATION ?= 18
BENCH_WARMUP ?= 3
BENCH_PUSH_INTERVAL ?= 0.2
BENCH_REPORT ?= docs/BENCHMARKS.md
BENCH_RESULTS ?=
bench: build
	@set -u; \
	work=$$(mktemp -d); server=""; failed=""; results=""; \
	trap 'if [ -n "$$server" ]; then kill $$server 2>/dev/null; fi; rm -rf "$$work"' EXIT; \
	trap 'exit 130' INT TERM; \
	python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c.setdefault("limits", {}).update(writesPerMinute=0, maxViewers=100000); json.dump(c, open(sys.argv[2], "w"), indent=2)' \
		config/ringcast.json "$$work/ringcast.json" || exit 1; \
	ulimit -n "$$(ulimit -Hn)"; \
	for scenario in $(addprefix raw:,$(BENCH_VIEWERS)) $(addprefix lws:,$(BENCH_LWS_VIEWERS)); do \
		client=$${scenario%%:*}; viewers=$${scenario#*:}; name="$$client-$$viewers"; \
		echo "== $$viewers viewers, $$client client"; \
		.build/release/ringcast serve --config "$$work/ringcast.json" --port 0 --fps $(BENCH_FPS) \
			--data-dir "$$work/data-$$name" --log-level warning >"$$work/serve-$$name.out" 2>"$$work/serve-$$name.err" & \
		server=$$!; url=""; \
		for attempt in $$(seq 100); do \
			url=$$(sed -n 's/^listening on //p' "$$work/serve-$$name.out"); \
			if [ -n "$$url" ] || ! kill -0 $$server 2>/dev/null; then break; fi; sleep 0.1; \
		done; \
		if [ -z "$$url" ]; then echo "the server did not start:"; cat "$$work/serve-$$name.err"; exit 1; fi; \
		.build/release/ringcast bench --server "$$url" --server-pid $$server --client $$client --viewers $$viewers \
			--duration $(BENCH_DURATION) --warmup $(BENCH_WARMUP) --push-interval $(BENCH_PUSH_INTERVAL) \
			--json "$$work/bench-$$name.json" \
			&& results="$$results $$work/bench-$$name.json" || failed="$$failed $$name"; \
		kill -TERM $$server; \
		for attempt in $$(seq 50); do kill -0 $$server 2>/dev/null || break; sleep 0.1; done; \
		kill -KILL $$server 2>/dev/null; wait $$server; server=""; \
	done; \
	[ -z "$$results" ] || .build/release/ringcast bench report --output $(BENCH_REPORT) --fps $(BENCH_FPS) --temporary-directory "$$work" \
		--server-command ".build/release/ringcast serve --config \$$TMP/ringcast.json --port 0 --fps $(BENCH_FPS) --data-dir \$$TMP/data-CLIENT-VIEWERS --log-level warning" \
		$$results || exit 1; \
	if [ -n "$(BENCH_RESULTS)" ] && [ -n "$$results" ]; then mkdir -p "$(BENCH_RESULTS)" && cp $$results "$(BENCH_RESULTS)/"; fi; \
	if [ -n "$$failed" ]; then echo "failed scenarios:$$failed"; exit 1; fi

clean:
	rm -rf .build
