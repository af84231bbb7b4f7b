# LeadPort — the two commands a new user needs are `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
DEBS := libzip-dev libxml2-dev libsqlite3-dev libjemalloc-dev libphonenumber-dev libprotobuf-dev libabsl-dev libicu-dev libpq5 libcurl4-openssl-dev postgresql pkg-config libqrencode-dev libpng-dev zbar-tools man-db
# What the release binary needs at run time on Debian 12 (bookworm), the build machine's release:
# what it links (`readelf -d`: jemalloc, CLeadAlloc's allocator, among them), what CLeadPQ, CLeadCurl, CLeadZip, CLeadXML2 and CLeadQR load with
# dlopen (libpq5, libcurl4, libzip4, libxml2, libqrencode4, libpng16-16), and the CA certificates libcurl needs for HTTPS (only
# recommended by libcurl4). libphonenumber, protobuf, Abseil and ICU are linked statically (their
# archives come with DEBS), so no runtime package of theirs is needed. `scripts/check-dist`
# checks every library the binary loads comes from these packages or what they depend on; the
# README's apt-get line and the .deb's Depends are this list.
RUNTIME_DEBS := libc6 libgcc-s1 libstdc++6 libjemalloc2 libsqlite3-0 libzip4 libxml2 libqrencode4 libpng16-16 libpq5 libcurl4 ca-certificates
BIN_DEBUG := .build/debug/leadport
BIN_RELEASE := .build/release/leadport
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build release demo test bench fuzz clean stage stage-manifest install uninstall dist deb check-release check-dist examples

# Install the Debian packages the build needs, only when some are missing (and the runtime ones,
# which the build's bring anyway: `scripts/check-dist` follows their dependencies; man-db renders
# the man pages there).
deps:
	@missing=""; for p in $(DEBS) $(RUNTIME_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
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
# --no-export-dynamic undoes the static runtime's -export-dynamic: the binary's 19,000 symbols
# are not put in its dynamic table, which every symbol the loader resolves had searched (0.9 MB
# of the table's pages in memory for each command, and some 0.7 ms of start-up).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xlinker -no-pie -Xlinker --no-export-dynamic
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

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
	rm -rf .build .build-fuzz bench/data Examples/*/.build

# ---- Installing and shipping (docs/install.md) ----
# One staged tree, the install layout under PREFIX, feeds `install`, `dist` and `deb`:
#   bin/leadport                           the release binary, stripped
#   share/leadport/mappings/*.yaml         the presets (Presets.directory(): ../share/leadport/mappings)
#   share/man/man1/leadport*.1             a page per command, from the commands' own help (scripts/make-man)
#   share/bash-completion/completions/leadport, share/zsh/site-functions/_leadport,
#   share/fish/vendor_completions.d/leadport.fish   swift-argument-parser's completion scripts
#   share/doc/leadport/README.md, cli.md   the README (its runtime packages line) and the commands
#   share/leadport/installed-files, uninstall.sh   every file of the tree, and what removes them
PREFIX ?= /usr/local
DESTDIR ?=
VERSION = $(shell sed -n 's/.*static let string = "\(.*\)"/\1/p' Sources/leadport/LeadPort.swift)
ARCH := $(shell dpkg --print-architecture 2>/dev/null || uname -m)
STAGE := .build/stage/leadport-$(VERSION)-linux-$(ARCH)

# The binary shipped is `make release`'s, of the executable alone: CI's `scripts/check-build`
# builds exactly this (RELEASE_FLAGS --product leadport), so CI builds release once.
stage: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product leadport
	rm -rf $(STAGE) && mkdir -p $(STAGE)/bin $(STAGE)/share/leadport/mappings $(STAGE)/share/man/man1 \
	  $(STAGE)/share/bash-completion/completions $(STAGE)/share/zsh/site-functions \
	  $(STAGE)/share/fish/vendor_completions.d $(STAGE)/share/doc/leadport
	strip -o $(STAGE)/bin/leadport $(BIN_RELEASE)
	cp mappings/*.yaml $(STAGE)/share/leadport/mappings/
	scripts/make-man $(STAGE)/bin/leadport $(STAGE)/share/man/man1 >/dev/null
	$(STAGE)/bin/leadport --generate-completion-script bash > $(STAGE)/share/bash-completion/completions/leadport
	$(STAGE)/bin/leadport --generate-completion-script zsh > $(STAGE)/share/zsh/site-functions/_leadport
	$(STAGE)/bin/leadport --generate-completion-script fish > $(STAGE)/share/fish/vendor_completions.d/leadport.fish
	cp README.md docs/cli.md $(STAGE)/share/doc/leadport/
	$(stage_manifest)

# Every file installed is listed in PREFIX/share/leadport/installed-files, which `uninstall` and
# share/leadport/uninstall.sh (scripts/uninstall.sh, for a tarball unpacked into a prefix) read:
# they remove exactly those files (and the folders only LeadPort uses, when empty), even after
# the sources changed. The list is made in the staged tree, so the tarball, the .deb and
# `make install` all carry it.
MANIFEST := share/leadport/installed-files
# The list of every file under $(1), relative to it, the list itself included.
define list_files
	(cd $(1) && { find . -type f ! -path './$(MANIFEST)*' | sed 's|^\./||'; echo $(MANIFEST); } | LC_ALL=C sort) > $(1)/$(MANIFEST).new
	mv $(1)/$(MANIFEST).new $(1)/$(MANIFEST)
endef
define stage_manifest
	install -m 755 scripts/uninstall.sh $(STAGE)/share/leadport/uninstall.sh
	$(call list_files,$(STAGE))
endef
# The staged tree's uninstall.sh and list, alone: for a check on a staged tree of any files,
# without the release build (InstalledLayoutTests).
stage-manifest:
	$(stage_manifest)
define install_staged
	@while read -r f; do \
	  mode=644; case "$$f" in bin/*|*.sh) mode=755 ;; esac; \
	  install -D -m $$mode "$(STAGE)/$$f" "$(1)/$$f" && echo "installed $(1)/$$f"; \
	done < $(STAGE)/$(MANIFEST)
endef
install: stage
	$(call install_staged,$(DESTDIR)$(PREFIX))

uninstall:
	@test -f "$(DESTDIR)$(PREFIX)/$(MANIFEST)" || { echo "no LeadPort installed under $(DESTDIR)$(PREFIX) ($(MANIFEST) missing)" >&2; exit 1; }
	@while read -r f; do rm -f "$(DESTDIR)$(PREFIX)/$$f" && echo "removed $(DESTDIR)$(PREFIX)/$$f"; done < "$(DESTDIR)$(PREFIX)/$(MANIFEST)"
	@for d in share/leadport/mappings share/leadport share/doc/leadport; do \
	  rmdir "$(DESTDIR)$(PREFIX)/$$d" 2>/dev/null || true; done

# A tarball of the staged tree: unpack it anywhere (or into /usr/local with --strip-components=1)
# and run bin/leadport; it needs only RUNTIME_DEBS.
DIST := .build/dist
dist: stage
	mkdir -p $(DIST)
	tar -C $(dir $(STAGE)) -czf $(DIST)/leadport-$(VERSION)-linux-$(ARCH).tar.gz $(notdir $(STAGE))
	@ls -l $(DIST)/leadport-$(VERSION)-linux-$(ARCH).tar.gz

# A Debian package installing under /usr, depending on RUNTIME_DEBS. Debian's zsh reads
# vendor-completions, not site-functions, under /usr. As Debian's policy asks, the man pages are
# gzipped (-n: no name or time stamp, so the same pages give the same bytes) and
# /usr/share/doc/leadport/copyright says the terms (scripts/deb-copyright).
DEBROOT := .build/deb/leadport_$(VERSION)_$(ARCH)
# The package's maintainer: the last commit's author unless given.
DEB_MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2>/dev/null)
deb: stage
	rm -rf $(DEBROOT) && mkdir -p $(DEBROOT)/DEBIAN $(DIST)
	$(call install_staged,$(DEBROOT)/usr)
	rm $(DEBROOT)/usr/share/leadport/uninstall.sh
	mkdir -p $(DEBROOT)/usr/share/zsh/vendor-completions
	mv $(DEBROOT)/usr/share/zsh/site-functions/_leadport $(DEBROOT)/usr/share/zsh/vendor-completions/
	rmdir $(DEBROOT)/usr/share/zsh/site-functions
	gzip -9n $(DEBROOT)/usr/share/man/man1/*.1
	scripts/deb-copyright $(RUNTIME_DEBS) > $(DEBROOT)/usr/share/doc/leadport/copyright
	$(call list_files,$(DEBROOT)/usr)
	{ echo "Package: leadport"; echo "Version: $(VERSION)"; echo "Architecture: $(ARCH)"; \
	  echo "Maintainer: $(DEB_MAINTAINER)"; echo "Section: utils"; echo "Priority: optional"; \
	  echo "Installed-Size: $$(du -sk $(DEBROOT)/usr | cut -f1)"; \
	  echo "Depends: $$(echo $(RUNTIME_DEBS) | sed 's/ /, /g')"; \
	  echo "Description: imports messy lead spreadsheets into CRMs and FLYR campaigns"; \
	  echo " Reads CSV and XLSX lead lists, cleans names, phones, emails and addresses, and sends"; \
	  echo " every row to FLYR's tables, HubSpot, Follow Up Boss, Google Contacts or a webhook."; \
	} > $(DEBROOT)/DEBIAN/control
	dpkg-deb --root-owner-group --build $(DEBROOT) $(DIST)/leadport_$(VERSION)_$(ARCH).deb
	@ls -l $(DIST)/leadport_$(VERSION)_$(ARCH).deb

# CI: the release binary checked as users build it (scripts/check-build, issue 12), with the flags
# `stage` builds, so `make dist deb` after it builds nothing; then both packages checked away from
# the repository (scripts/check-dist).
check-release: deps
	scripts/check-build $(RELEASE_FLAGS) --product leadport
check-dist: dist deb
	scripts/check-dist $(DIST)/leadport-$(VERSION)-linux-$(ARCH).tar.gz $(DIST)/leadport_$(VERSION)_$(ARCH).deb $(RUNTIME_DEBS)

# The example app (Examples/CleanList: LeadPortKit by path from the root package), built and
# run once on a fixture; it must print the cleaned leads as JSON lines.
examples: deps
	$(SWIFT) build --package-path Examples/CleanList
	Examples/CleanList/.build/debug/CleanList fixtures/csv/utf8-plain.csv > Examples/CleanList/.build/out.jsonl
	python3 -c 'import json, sys; leads = [json.loads(l) for l in open(sys.argv[1])]; \
	  assert [l["phone"] for l in leads] == ["+16175550142", "+16175550199", "+15085550123"], leads; \
	  assert leads[0]["name"] == "José Núñez" and leads[0]["address"] == "12 ELM ST APT 4" and leads[0]["zip"] == "02134", leads[0]' \
	  Examples/CleanList/.build/out.jsonl
	@echo "examples: CleanList cleaned $$(wc -l < Examples/CleanList/.build/out.jsonl) leads"

