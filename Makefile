# RingCast: `make run` serves the default board, `make test` runs every test.
# Both install the Debian packages they need first (as root, or through sudo).

SWIFT ?= swift
PYTHON ?= python3
# libwebsockets' header includes OpenSSL and libcap headers, so all three are needed to build;
# RingCastTLS links OpenSSL too (libssl-dev). The TLS tests make certificates with `openssl`, and
# they and the HTTP-edge tests drive the server with `curl` (https, --http2). Countdown webhooks
# are POSTed through libcurl (libcurl4-openssl-dev).
APT_PACKAGES := libwebsockets-dev libssl-dev libcap-dev libsqlite3-dev pkg-config openssl curl \
	redis-server libhiredis-dev libcurl4-openssl-dev
# The browser test drives Debian's headless Chromium over the DevTools protocol (a pipe, so no
# driver and no Python package beyond pytest) against the real server, and runs Debian's nginx
# in front of it for the reverse-proxy test.
BROWSER_APT_PACKAGES := chromium nginx
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# `make run PORT=9090` serves on another port (a PORT in the environment counts too, as for every
# make variable); RUN_ARGS passes any other `ringcast serve` flag, e.g. RUN_ARGS='--data-dir /tmp/rings'.
PORT ?=
RUN_ARGS ?=
PYTEST_ARGS ?=
# `make install` copies the release `ringcast` into $(PREFIX)/bin (through sudo when not root), so that README's
# `ringcast …` commands run as written; `make install PREFIX=$$HOME/.local` needs no root.
PREFIX ?= /usr/local

.PHONY: all deps python-deps python-venv-package browser-deps build run install test docs-test fuzz-api browser-test \
	screenshots lint clean bench-build bench bench-cluster

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

# Chromium from Debian; pytest comes with the other Python tools (python-deps).
browser-deps: python-deps
	$(call apt-install,$(BROWSER_APT_PACKAGES))

# The Python tools the tests drive (pytest for the browser tests, schemathesis to fuzz the REST API
# from docs/openapi.yaml), at the versions in Tests/requirements.txt, live in a virtual environment,
# .venv: Debian's python3 refuses `pip install` outside one (externally-managed-environment), and
# the machine's own Python packages stay as they are. `python3 -m venv` needs Debian's
# python3-venv (for ensurepip), installed when missing. The environment is filled again only when
# the pins change, so a prepared machine does no network work; `rm -rf .venv` starts it afresh.
VENV := .venv
VENV_PYTHON := $(VENV)/bin/python
PYTHON_REQUIREMENTS := Tests/requirements.txt
python-deps: $(VENV)/installed

$(VENV)/installed: $(PYTHON_REQUIREMENTS)
	@command -v $(PYTHON) >/dev/null || { \
		echo "installing: python3"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3; }
	@$(PYTHON) -c "import ensurepip, venv" 2>/dev/null || $(MAKE) --no-print-directory python-venv-package
	@$(VENV_PYTHON) -m pip --version >/dev/null 2>&1 || { \
		echo "creating $(VENV)"; rm -rf $(VENV); $(PYTHON) -m venv $(VENV); }
	@echo "installing into $(VENV):" $$(grep -v '^#' $(PYTHON_REQUIREMENTS))
	@$(VENV_PYTHON) -m pip install --quiet --disable-pip-version-check --requirement $(PYTHON_REQUIREMENTS)
	@touch $@

python-venv-package:
	$(call apt-install,python3-venv)

build: deps
	$(SWIFT) build -c release

run: build
	.build/release/ringcast serve $(if $(PORT),--port $(PORT)) $(RUN_ARGS)

install: build
	@install_sudo=$$([ -w "$(PREFIX)/bin" ] || [ ! -e "$(PREFIX)/bin" -a -w "$(PREFIX)" ] || echo "$(SUDO)"); \
	$$install_sudo install -d "$(PREFIX)/bin" && $$install_sudo install -m 755 .build/release/ringcast "$(PREFIX)/bin/ringcast" && \
	echo "installed $(PREFIX)/bin/ringcast"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on PATH: export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

test: deps python-deps browser-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@# The load generator's package (bench/): a few short runs of `ringcast-bench` against the `ringcast` just built.
	$(SWIFT) build --package-path bench --build-tests
	RINGCAST_BIN=$(CURDIR)/.build/debug/ringcast $(SWIFT) test --package-path bench --skip-build
	node --test Tests/web/
	$(MAKE) --no-print-directory docs-test
	@# The API fuzzer and the browser tests each keep about one core busy and share nothing (each
	@# its own servers, ports and directories), so they run side by side; the fuzzer's report is
	@# printed after the browser's, and either failing fails the target.
	@fuzz_log=$$(mktemp); echo "Tests/fuzz/run.sh .build/debug/ringcast (beside the browser tests)"; \
	Tests/fuzz/run.sh .build/debug/ringcast >"$$fuzz_log" 2>&1 & fuzz=$$!; \
	$(MAKE) --no-print-directory browser-test; browser=$$?; \
	wait $$fuzz; fuzzed=$$?; cat "$$fuzz_log"; rm -f "$$fuzz_log"; \
	[ $$browser = 0 ] && [ $$fuzzed = 0 ]

# Every shell block of README.md and docs/, in order, against a live server of its own (Tests/docs; needs a debug
# build).
docs-test: python-deps
	PYTHONDONTWRITEBYTECODE=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(VENV_PYTHON) -m pytest -p no:cacheprovider -ra Tests/docs $(PYTEST_ARGS)

# The REST API fuzzed from docs/openapi.yaml against a live server (needs a debug build).
fuzz-api: python-deps
	Tests/fuzz/run.sh .build/debug/ringcast

# Real headless Chromium against the real server (.build/debug/ringcast, which the Swift test
# build makes; rebuilding here is a no-op after `make test`'s build).
browser-test: deps browser-deps
	$(SWIFT) build --build-tests
	PYTHONDONTWRITEBYTECODE=1 PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(VENV_PYTHON) -m pytest Tests/browser $(PYTEST_ARGS)

# Retakes README's docs/screenshot.png and docs/screenshot-overlap.png with the browser test.
screenshots:
	@UPDATE_SCREENSHOTS=1 $(MAKE) --no-print-directory browser-test PYTEST_ARGS="-k screenshots"

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift bench/Sources bench/Tests bench/Package.swift

# The standard load scenarios against fresh release servers, then the same frames from a minimal
# C libwebsockets broadcaster for comparison, then push throughput (data on disk, then on tmpfs)
# and a join storm, then docs/BENCHMARKS.md: see bench/run.sh.
# BENCH_LWS_VIEWERS adds runs with the libwebsockets client (empty: none); BENCH_BASELINE_VIEWERS
# the C broadcaster's (empty: none); BENCH_RESULTS names a directory to keep each run's JSON in.
# BENCH_PUSHERS, BENCH_PUSH_VIEWERS, BENCH_PUSH_DURATION: the push throughput runs (any empty:
# none), on disk once for each BENCH_PUSH_ANIMATIONS (none, the server's default, seconds), then over
# BENCH_PUSH_BOARDS boards (empty: none), and the same animations with the server of commit
# BENCH_PREVIOUS (the previous release, built in a worktree; empty: none); BENCH_JOIN_WATCHERS, BENCH_JOIN_RATE, BENCH_JOIN_DURATION: the join storm (any empty:
# none); BENCH_DISK_DIR and BENCH_MEMORY_DIR: where the push runs keep their data; BENCH_SVG_CLIENTS,
# BENCH_SVG_DURATION: the SVG flood (either empty: none).
BENCH_VIEWERS ?= 100 500 1000 2000
BENCH_LWS_VIEWERS ?= 300
BENCH_BASELINE_VIEWERS ?= 1000 2000
# The loops step (issue 35): one loop against BENCH_LOOPS (default: one per core) at each of these viewer counts.
BENCH_LOOP_VIEWERS ?= 1000 2000 3000
BENCH_LOOPS ?= $(shell nproc)
BENCH_FPS ?= 60
BENCH_DURATION ?= 18
BENCH_WARMUP ?= 3
BENCH_PUSH_INTERVAL ?= 0.2
BENCH_PUSHERS ?= 8
BENCH_PUSH_VIEWERS ?= 200
BENCH_PUSH_DURATION ?= 20
BENCH_PUSH_ANIMATIONS ?= none default 10
BENCH_PUSH_BOARDS ?= 100
# The previous release, pushed to beside this build (bench/run.sh): the commit issue 32 measured against.
BENCH_PREVIOUS ?= 8e6b5b0
BENCH_JOIN_WATCHERS ?= 100
BENCH_JOIN_RATE ?= 200
BENCH_JOIN_DURATION ?= 10
BENCH_DISK_DIR ?= .build
BENCH_MEMORY_DIR ?= /dev/shm
BENCH_SVG_CLIENTS ?= 4
BENCH_SVG_DURATION ?= 10
BENCH_REPORT ?= docs/BENCHMARKS.md
BENCH_RESULTS ?=
BENCH_HISTORY ?= yes
# The load generator, `ringcast-bench`, is a package of its own (bench/Package.swift), built beside the server.
bench-build: deps
	$(SWIFT) build -c release --package-path bench

bench: build bench-build
	BENCH_VIEWERS="$(BENCH_VIEWERS)" BENCH_LWS_VIEWERS="$(BENCH_LWS_VIEWERS)" \
	BENCH_BASELINE_VIEWERS="$(BENCH_BASELINE_VIEWERS)" BENCH_FPS="$(BENCH_FPS)" \
	BENCH_LOOP_VIEWERS="$(BENCH_LOOP_VIEWERS)" BENCH_LOOPS="$(BENCH_LOOPS)" \
	BENCH_DURATION="$(BENCH_DURATION)" BENCH_WARMUP="$(BENCH_WARMUP)" \
	BENCH_PUSH_INTERVAL="$(BENCH_PUSH_INTERVAL)" BENCH_PUSHERS="$(BENCH_PUSHERS)" \
	BENCH_PUSH_VIEWERS="$(BENCH_PUSH_VIEWERS)" BENCH_PUSH_DURATION="$(BENCH_PUSH_DURATION)" \
	BENCH_PUSH_ANIMATIONS="$(BENCH_PUSH_ANIMATIONS)" BENCH_PUSH_BOARDS="$(BENCH_PUSH_BOARDS)" BENCH_PREVIOUS="$(BENCH_PREVIOUS)" \
	BENCH_JOIN_WATCHERS="$(BENCH_JOIN_WATCHERS)" BENCH_JOIN_RATE="$(BENCH_JOIN_RATE)" \
	BENCH_JOIN_DURATION="$(BENCH_JOIN_DURATION)" BENCH_DISK_DIR="$(BENCH_DISK_DIR)" \
	BENCH_MEMORY_DIR="$(BENCH_MEMORY_DIR)" BENCH_REPORT="$(BENCH_REPORT)" \
	BENCH_SVG_CLIENTS="$(BENCH_SVG_CLIENTS)" BENCH_SVG_DURATION="$(BENCH_SVG_DURATION)" \
	BENCH_RESULTS="$(BENCH_RESULTS)" BENCH_HISTORY="$(BENCH_HISTORY)" RINGCAST_BIN=.build/release/ringcast \
	RINGCAST_BENCH_BIN=bench/.build/release/ringcast-bench bench/run.sh

# Issue 12's cluster benchmark: one cluster node, then two sharing its port, each time on a fresh
# redis-server (free loopback port, temporary directory, appendfsync always), with
# each of BENCH_CLUSTER_VIEWERS viewers (3000 saturates this 2-core machine with the bench on it;
# 1000 does not); then the Cluster section of docs/BENCHMARKS.md (the rest of the
# file is kept); then push throughput through two nodes sharing a port, once for each
# BENCH_CLUSTER_PUSH_ANIMATIONS (printed), each followed by the same run with the server of commit
# BENCH_PREVIOUS and the ratio of the two: see bench/cluster.sh. BENCH_CLUSTER_LEAD: the nodes'
# cluster.leadMilliseconds.
BENCH_CLUSTER_VIEWERS ?= 3000 1000
BENCH_CLUSTER_PUSH_ANIMATIONS ?= none default
BENCH_CLUSTER_DURATION ?= 20
BENCH_CLUSTER_WARMUP ?= 5
BENCH_CLUSTER_LEAD ?= 50
bench-cluster: build bench-build
	BENCH_CLUSTER_VIEWERS="$(BENCH_CLUSTER_VIEWERS)" BENCH_CLUSTER_DURATION="$(BENCH_CLUSTER_DURATION)" \
	BENCH_CLUSTER_WARMUP="$(BENCH_CLUSTER_WARMUP)" BENCH_CLUSTER_LEAD="$(BENCH_CLUSTER_LEAD)" \
	BENCH_CLUSTER_PUSH_ANIMATIONS="$(BENCH_CLUSTER_PUSH_ANIMATIONS)" BENCH_PUSHERS="$(BENCH_PUSHERS)" \
	BENCH_PUSH_VIEWERS="$(BENCH_PUSH_VIEWERS)" BENCH_PUSH_DURATION="$(BENCH_PUSH_DURATION)" \
	BENCH_FPS="$(BENCH_FPS)" BENCH_PUSH_INTERVAL="$(BENCH_PUSH_INTERVAL)" BENCH_REPORT="$(BENCH_REPORT)" \
	BENCH_SVG_CLIENTS="$(BENCH_SVG_CLIENTS)" BENCH_SVG_DURATION="$(BENCH_SVG_DURATION)" \
	BENCH_RESULTS="$(BENCH_RESULTS)" BENCH_PREVIOUS="$(BENCH_PREVIOUS)" RINGCAST_BIN=.build/release/ringcast \
	RINGCAST_BENCH_BIN=bench/.build/release/ringcast-bench bench/cluster.sh

clean:
	rm -rf .build bench/.build
