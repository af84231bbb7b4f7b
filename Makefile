# LeadPort — the two commands a new user needs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
DEBS := libzip-dev libxml2-dev libsqlite3-dev libphonenumber-dev libpq5 libcurl4-openssl-dev postgresql pkg-config libqrencode-dev libpng-dev zbar-tools
BIN_DEBUG := .build/debug/leadport
BIN_RELEASE := .build/release/leadport
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo test bench fuzz clean

# Install the Debian packages the build needs, only when some are missing.
deps:
	@missing=""; for p in $(DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# Python modules the tests need (openpyxl checks our workbooks; psycopg2 is the Supabase REST
# double's PostgreSQL client), and the benchmark's baseline: MODULE or MODULE=PIP-PACKAGE.
PY_TEST := openpyxl psycopg2=psycopg2-binary
PY_BENCH := $(PY_TEST) phonenumbers usaddress
define pip_install
	@missing=""; for m in $(1); do python3 -c "import $${m%%=*}" 2>/dev/null || missing="$$missing $${m#*=}"; done; \
	if [ -n "$$missing" ]; then echo "pip installing:$$missing"; python3 -m pip install -q --disable-pip-version-check $$missing; fi
endef

build: deps
	$(SWIFT) build

# A static Swift runtime, and a position-dependent executable: no run-time relocation of the
# binary's data at start-up (about 1.3 MB less memory and 1-3 ms less start-up per command).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker -no-pie

DEMO := fixtures/xlsx/messy-open-house-leads.xlsx
demo: build
	@mkdir -p demo-output && rm -f demo-output/leadport.db
	@echo '$$ leadport inspect $(DEMO)'
	@$(BIN_DEBUG) inspect $(DEMO)
	@echo
	@echo '$$ leadport import $(DEMO) --campaign "October open house" --to sqlite:demo-output/leadport.db --export demo-output/processed.xlsx --rejects demo-output/rejects.csv --report demo-output/report.csv'
	@$(BIN_DEBUG) import $(DEMO) --campaign "October open house" --to sqlite:demo-output/leadport.db \
	  --export demo-output/processed.xlsx --rejects demo-output/rejects.csv --report demo-output/report.csv; \
	  status=$$?; echo "exit status $$status (3: some rows were rejected; see demo-output/rejects.csv)"; [ $$status -eq 0 ] || [ $$status -eq 3 ]

# The tests run beside a PostgreSQL server of their own (scripts/with-postgres: a temporary
# cluster on a free port, stopped afterwards), found through LEADPORT_TEST_POSTGRES; then the
# CRM doubles' own tests (fixtures/servers: each double against the API it stands in for).
test: deps
	$(call pip_install,$(PY_TEST))
	$(SWIFT) build --build-tests
	scripts/with-postgres -- $(SWIFT) test --skip-build
	python3 -m unittest discover -s fixtures/servers/tests -p 'test_*.py'

# bench/run.py: every benchmark; the enrichment one alone (bench/enrich.py) takes six and a half
# minutes, paced by the OpenAI double's tokens-per-minute limit.
bench: release
	$(call pip_install,$(PY_BENCH))
	scripts/with-postgres --durable -- python3 bench/run.py --binary $(BIN_RELEASE)

# libFuzzer targets (docs/fuzzing.md), FUZZ_SECONDS each (default 60); fails on any finding.
fuzz: deps
	scripts/fuzz

clean:
	rm -rf .build .build-fuzz bench/data
