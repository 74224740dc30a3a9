# fixplan — build, run and test. `make run` builds and starts the desktop app;
# `make test` runs every test (Go, fuzz smoke, frontend, end-to-end, real window).
SHELL := /bin/bash
GO ?= go
TAGS_DESKTOP := desktop,production,webkit2_41
APT_BUILD := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
APT_TEST := xvfb xauth xdotool imagemagick chromium ripgrep git
FUZZTIME ?= 5s
# Minimising a new input is bounded by runs, not time: a target that touches the disk (recovery)
# would otherwise spend the whole fuzz time minimising and miss the deadline.
FUZZMINIMIZE ?= 50x
# The version stamped into every binary (fixplan --version, About, saved plans):
# git describe, "dev" outside a git checkout; `make dist VERSION=v1.2.3` overrides it.
ifndef VERSION
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
endif
LDFLAGS_VERSION := -X main.version=$(VERSION)
# makensis for the Windows installer; desktop-file-validate checks the .deb's menu entry;
# shellcheck checks the workflows' run: scripts (make test-tools); lintian checks the .deb
# (make test-install).
APT_DIST := nsis desktop-file-utils shellcheck lintian
# The commit's time dates the .deb's changelog and its files (the same commit gives the same
# changelog); `make dist SOURCE_DATE_EPOCH=…` overrides it, outside git it is the build's time.
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null)
endif
DISTTOOL := build/bin/fixplan-dist

.PHONY: run build cli frontend apt-build apt-test dist-placeholder test test-go test-fuzz \
	test-frontend test-e2e test-window test-windows test-clean-clone bench vet \
	apt-dist dist dist-linux dist-windows dist-tool test-tools test-install test-installer-wine

# Install missing Debian packages (as root, or with sudo).
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

apt-build:
	$(call apt_install,$(APT_BUILD))

apt-test:
	$(call apt_install,$(APT_BUILD) $(APT_TEST) $(APT_DIST))

apt-dist:
	$(call apt_install,$(APT_DIST))

# go:embed all:frontend/dist needs at least one file on a fresh clone.
dist-placeholder:
	@mkdir -p frontend/dist && { [ -n "$$(ls -A frontend/dist)" ] || touch frontend/dist/.gitkeep; }

frontend:
	scripts/npm-ci.sh && cd frontend && npm run build

build: apt-build frontend
	$(GO) build -tags $(TAGS_DESKTOP) -ldflags "-w -s $(LDFLAGS_VERSION)" -o build/bin/fixplan .

cli: dist-placeholder
	$(GO) build -ldflags "$(LDFLAGS_VERSION)" -o build/bin/fixplan-cli ./cmd/fixplan

run: build
	./build/bin/fixplan

vet: dist-placeholder
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

test-go: vet
	$(GO) test -count=1 ./...

# A few seconds of each fuzz target (longer by hand: make test-fuzz FUZZTIME=5m).
test-fuzz: dist-placeholder
	@set -e; for t in $$(grep -rl --include='*_test.go' '^func Fuzz' . | grep -v node_modules); do \
	  pkg=./$$(dirname $$t); \
	  for f in $$(grep -o '^func Fuzz[A-Za-z0-9_]*' $$t | sed 's/func //'); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg || { \
	      echo "fuzz $$f failed; running it again (go's fuzz harness can report a spurious 'context deadline exceeded' at the deadline; a real crasher is now in testdata/fuzz and fails every time)"; \
	      $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg || \
	      $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg; }; \
	  done; done

test-frontend:
	@if [ -f frontend/package.json ]; then scripts/npm-ci.sh && cd frontend && npm test; fi

test-e2e:
	@if [ -x scripts/desktop/e2e.sh ]; then scripts/desktop/e2e.sh; fi

test-window:
	@if [ -x scripts/desktop/window-smoke.sh ]; then scripts/desktop/window-smoke.sh; fi

test-windows:
	@if [ -x scripts/desktop/cross-windows.sh ]; then scripts/desktop/cross-windows.sh; fi

# The packaging tool's tests and the GitHub workflows linted with actionlint. Each
# tools/* folder is its own Go module, so nfpm and actionlint never become the app's
# dependencies (and their yaml versions do not have to agree).
test-tools:
	@set -e; for m in tools/dist tools/workflows; do echo "test $$m"; (cd $$m && $(GO) vet ./... && $(GO) test -count=1 ./...); done

# Builds the .deb, installs it with apt (root or sudo), runs the installed CLI and the real
# window from the installed binary, removes it and checks nothing is left.
test-install:
	scripts/dist/install-test.sh

# By hand (Wine is large): the Windows installer's script run under Wine — installs with
# and without WebView2, with the bootstrapper embedded, and the uninstaller.
test-installer-wine: dist-windows
	$(call apt_install,wine64)
	scripts/dist/installer-wine-check.sh

# A fresh clone stays clean through the README's build (no "-dirty" version stamps).
test-clean-clone:
	scripts/dist/clean-clone-test.sh

test: apt-test test-go test-fuzz test-frontend test-e2e test-window test-windows test-tools test-install test-clean-clone

# Release artifacts in dist/ (listed with their sizes at the end):
#   fixplan_<debver>_amd64.deb           desktop app + CLI, menu entry, icon (GTK 3, WebKitGTK 4.1)
#   fixplan_<ver>_linux_amd64.tar.gz     both Linux binaries
#   fixplan_<ver>_windows_amd64.exe, fixplan-cli_<ver>_windows_amd64.exe, …_setup.exe (NSIS)
#   SHA256SUMS
# macOS cannot be built here: .github/workflows/release.yml builds it on a tag.
dist:
	rm -rf dist
	$(MAKE) --no-print-directory dist-linux dist-windows VERSION=$(VERSION)

dist-tool:
	$(GO) build -C tools/dist -o $(CURDIR)/$(DISTTOOL) .

# Position-independent executables: loaded at a random address at every start, their
# relocated data read-only after loading (relro); lintian's hardening-no-pie/-no-relro.
dist-linux: apt-build apt-dist frontend dist-tool
	mkdir -p build/bin/dist/linux
	$(GO) build -buildmode=pie -tags $(TAGS_DESKTOP) -ldflags "-w -s $(LDFLAGS_VERSION)" -o build/bin/dist/linux/fixplan .
	$(GO) build -buildmode=pie -ldflags "-w -s $(LDFLAGS_VERSION)" -o build/bin/dist/linux/fixplan-cli ./cmd/fixplan
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) $(DISTTOOL) deb -version $(VERSION) -app build/bin/dist/linux/fixplan -cli build/bin/dist/linux/fixplan-cli -out dist
	SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) $(DISTTOOL) tar -version $(VERSION) -app build/bin/dist/linux/fixplan -cli build/bin/dist/linux/fixplan-cli -out dist
	$(DISTTOOL) sums -dir dist

dist-windows: apt-dist frontend dist-tool
	VERSION=$(VERSION) DISTTOOL=$(DISTTOOL) scripts/dist/windows.sh
	$(DISTTOOL) sums -dir dist

# Every bench/*/run.sh (bench/release/run.sh makes dist/ again with make dist and starts the
# packaged window under Xvfb), then the Go benchmarks; `run.sh --write` stores a RESULTS.md.
bench: dist-placeholder
	@for s in bench/*/run.sh; do [ -x "$$s" ] && "$$s"; done
	$(GO) test -run '^$$' -bench . -benchmem ./plan ./edit ./apply ./redact ./context ./projfs
