# RingCast: `make run` serves the default board, `make test` runs every test.
# Both install the Debian packages they need first (as root, or through sudo).

SWIFT ?= swift
# libwebsockets' header includes OpenSSL and libcap headers, so all three are needed to build.
APT_PACKAGES := libwebsockets-dev libssl-dev libcap-dev pkg-config
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RUN_ARGS ?=

.PHONY: all deps build run test lint clean

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

build: deps
	$(SWIFT) build -c release

run: build
	.build/release/ringcast serve $(RUN_ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build
