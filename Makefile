# LeadPort — the two commands a new user needs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
DEBS := libzip-dev libxml2-dev libsqlite3-dev libphonenumber-dev pkg-config
BIN_DEBUG := .build/debug/leadport
BIN_RELEASE := .build/release/leadport
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo test bench clean

# Install the Debian packages the build needs, only when some are missing.
deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib

demo: build
	@echo '$$ leadport inspect fixtures/xlsx/title-rows-above-header.xlsx'
	@$(BIN_DEBUG) inspect fixtures/xlsx/title-rows-above-header.xlsx
	@echo
	@echo '$$ leadport cat fixtures/xlsx/title-rows-above-header.xlsx'
	@$(BIN_DEBUG) cat fixtures/xlsx/title-rows-above-header.xlsx

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	python3 bench/run.py --binary $(BIN_RELEASE)

clean:
	rm -rf .build bench/data
