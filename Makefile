# RingCast: `make run` serves the default board, `make test` runs every test.
# Both install the Debian packages they need first (as root, or through sudo).

SWIFT ?= swift
# libwebsockets' header includes OpenSSL and libcap headers, so all three are needed to build.
APT_PACKAGES := libwebsockets-dev libssl-dev libcap-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RUN_ARGS ?=

.PHONY: all deps python-deps build run test fuzz-api lint clean

all: build

# Installs only what is missing, so a prepared machine does no network work.
deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	fi

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

test: deps python-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	Tests/fuzz/run.sh .build/debug/ringcast

# The REST API fuzzed from docs/openapi.yaml against a live server (needs a debug build).
fuzz-api: python-deps
	Tests/fuzz/run.sh .build/debug/ringcast

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build
