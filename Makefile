# Solitaire: build, play and test. Every target is idempotent and quick when nothing changed.
#
#   make play    build _site/ and serve it on http://127.0.0.1:$(PORT)/
#   make check   the quick loop: lint, type-check, unit tests but the slow ones, the e2e tests of
#                the change (or a smoke subset)
#   make test    lint, type-check, unit tests (tests/) and browser tests (e2e/)
#   make bench   run every bench/*.py
#
# See README.md and docs/build.md.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
VPY := $(VENV)/bin/python
# A browser for the e2e tests: Debian's chromium when present (e2e/conftest.py looks here too).
CHROMIUM ?= /usr/bin/chromium
# Extra arguments: e.g. make test PYTEST_ARGS="-k undo -x"
PYTEST_ARGS ?=
UNIT_ARGS ?= -n auto
E2E_ARGS ?=

export PIP_DISABLE_PIP_VERSION_CHECK := 1
export PYTHONDONTWRITEBYTECODE := 1

# The dev environment is reinstalled whenever pyproject.toml changes: its stamp names its hash.
PYPROJECT_HASH := $(shell $(PYTHON) -c "import hashlib; print(hashlib.sha256(open('pyproject.toml','rb').read()).hexdigest()[:12])")
VENV_BASE := $(VENV)/.stamp-base
VENV_DEV := $(VENV)/.stamp-dev-$(PYPROJECT_HASH)
VENV_SITE := $(VENV)/.stamp-site-$(PYPROJECT_HASH)
NODE_STAMP := node_modules/.stamp-npm-ci

.PHONY: help play check test site serve lint format typecheck unit e2e engines engine-browsers bench browser venv dev npm clean

help:
	@echo "make play    build the site and serve it on http://127.0.0.1:$(PORT)/ (PORT=... to change)"
	@echo "make check   quick loop: lint, mypy, pytest tests/ -m 'not slow', the e2e files of the change or a smoke subset"
	@echo "make test    ruff format --check, ruff check, mypy, pytest tests/, pytest e2e/"
	@echo "make engines the smoke suite in Firefox ESR and WebKitGTK (e2e/engines/, docs/browsers.md)"
	@echo "make bench   run the benchmarks in bench/"
	@echo "make site    build _site/ only;  make clean  remove .venv node_modules _site"

# ----------------------------------------------------------------------------- environments

$(VENV_BASE):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (PYTHON=python3.11 make ...)")'
	$(PYTHON) -m venv $(VENV)
	@touch $@

venv: $(VENV_BASE)

$(VENV_DEV): $(VENV_BASE)
	@echo "installing the dev environment (pyproject.toml changed or first run)"
	$(VPY) -m pip install --quiet --editable '.[dev]'
	@rm -f $(VENV)/.stamp-dev-*
	@touch $@

dev: $(VENV_DEV)

# The site's build needs only the `site` extra (zstd); the dev environment includes it.
$(VENV_SITE): $(VENV_BASE)
	$(VPY) -m pip install --quiet --editable '.[site]'
	@rm -f $(VENV)/.stamp-site-*
	@touch $@

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: install Node.js 20+ (it is only used to fetch the pinned Pyodide, PyScript and, for the tests, axe-core)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

npm: $(NODE_STAMP)

# A Chromium for the browser tests: Debian's package when we are root on Debian, else the
# browser that Playwright downloads into its own cache.
browser: $(VENV_DEV)
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "browser: $(CHROMIUM)"; \
	elif [ "$$(id -u)" = 0 ] && grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then \
	  echo "browser: installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "browser: Playwright's Chromium (playwright install chromium)"; \
	  $(VPY) -m playwright install chromium; \
	fi

# Firefox ESR and WebKitGTK for e2e/engines/: Debian's packages, installed when we are root on
# Debian; elsewhere the suite says which binary it misses (docs/browsers.md).
ENGINE_BINARIES := /usr/bin/firefox-esr /usr/bin/WebKitWebDriver /usr/bin/Xvfb
engine-browsers:
	@missing=""; for b in $(ENGINE_BINARIES); do [ -x "$$b" ] || missing="$$missing $$b"; done; \
	if [ -z "$$missing" ]; then \
	  echo "engine browsers: firefox-esr, WebKitWebDriver, Xvfb"; \
	elif [ "$$(id -u)" = 0 ] && grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then \
	  echo "engine browsers: installing Debian's firefox-esr webkit2gtk-driver xvfb"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr webkit2gtk-driver xvfb >/dev/null; \
	else \
	  echo "engine browsers: missing$$missing (Debian: apt-get install firefox-esr webkit2gtk-driver xvfb)"; \
	fi

# ----------------------------------------------------------------------------- build and play

site: $(VENV_SITE) $(NODE_STAMP)
	$(VPY) tools/build_site.py

play: site
	$(VPY) tools/serve.py --port $(PORT)

serve:
	$(VPY) tools/serve.py --port $(PORT)

# ----------------------------------------------------------------------------- checks

TOOL_MODULES := $(patsubst tools/%.py,-m %,$(wildcard tools/*.py))

format: $(VENV_DEV)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

lint: $(VENV_DEV)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .

typecheck: $(VENV_DEV)
	MYPYPATH=py:tools:e2e:e2e/engines $(VENV)/bin/mypy -p solitaire $(TOOL_MODULES) -m conftest -m harness -m test_harness \
	  -m engine_bidi -m engine_drivers -m engine_page -m test_engines_smoke

# pytest exit code 5 means "no test collected": for us that is a failure, never a pass.
define run_pytest
	@test -d $(1) || { echo "$(1)/ is missing"; exit 1; }
	@rc=0; $(VENV)/bin/pytest $(1) $(2) $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc = 5 ]; then echo "pytest: no test collected in $(1)/"; exit 1; fi; exit $$rc
endef

unit: $(VENV_DEV)
	$(call run_pytest,tests,$(UNIT_ARGS))

# make test builds _site/ first; the e2e tests serve exactly that build (SOLITAIRE_SITE).
e2e: $(VENV_DEV) browser site
	SOLITAIRE_SITE=_site $(MAKE) _e2e

# The Chromium suite; the Firefox and WebKit smoke suite (e2e/engines/) is make engines's
# (docs/browsers.md: not yet in make test).
_e2e:
	$(call run_pytest,e2e,-m "not engines" $(E2E_ARGS))

# The smoke suite in Firefox ESR and WebKitGTK alone; here a missing browser fails the run.
engines: $(VENV_DEV) engine-browsers site
	SOLITAIRE_SITE=_site SOLITAIRE_ENGINES_REQUIRED=1 $(MAKE) _engines

_engines:
	$(call run_pytest,e2e/engines,-p no:xdist $(E2E_ARGS))

# Every step runs even when an earlier one failed, so one run reports every problem; the
# exit status is non-zero when any step failed.
test: $(VENV_DEV) $(NODE_STAMP) browser
	@start=$$(date +%s); failed=""; \
	for step in site lint typecheck unit; do \
	  $(MAKE) $$step || failed="$$failed $$step"; \
	done; \
	case "$$failed" in \
	  *site*) failed="$$failed e2e(not run: no site)";; \
	  *) SOLITAIRE_SITE=_site $(MAKE) _e2e || failed="$$failed e2e";; \
	esac; \
	took=$$(( $$(date +%s) - start )); \
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed ($$took s)"; exit 1; fi; \
	echo "make test: all checks passed ($$took s)"

# The quick loop before a commit. The e2e part runs the e2e test files changed since main
# (committed or not); when e2e/'s shared helpers, web/ or py/solitaire/web/ changed, or no
# e2e file did, it adds SMOKE: a boot and a move by mouse, by finger and by key.
SMOKE := e2e/test_ui_play.py::test_game_boots_fits_and_plays_by_click[russian] \
  e2e/test_ui_touch.py::test_one_tap_moves_and_a_second_tap_tries_the_next_place[russian] \
  e2e/test_ui_keyboard.py::test_picked_up_cards_and_the_focus_show_together[light]
CHECK_BASE ?= $(shell git merge-base HEAD main 2>/dev/null || echo HEAD)

check: $(VENV_DEV) $(NODE_STAMP) browser
	@start=$$(date +%s); failed=""; \
	for step in site lint typecheck; do $(MAKE) $$step || failed="$$failed $$step"; done; \
	$(MAKE) unit UNIT_ARGS="-n auto -m 'not slow'" || failed="$$failed unit"; \
	changed=$$( { git diff --name-only $(CHECK_BASE); git ls-files --others --exclude-standard; } | sort -u); \
	files=$$(for f in $$changed; do case "$$f" in e2e/test_*.py) [ -f "$$f" ] && echo "$$f";; esac; done); \
	if [ -z "$$files" ] || grep -qE '^(web/|py/solitaire/web/|e2e/(conftest|harness|ui_helpers)\.py)' <<<"$$changed"; then \
	  files="$$files $(SMOKE)"; fi; \
	case "$$failed" in \
	  *site*) failed="$$failed e2e(not run: no site)";; \
	  *) echo "e2e:" $$files; SOLITAIRE_SITE=_site $(VENV)/bin/pytest $$files $(PYTEST_ARGS) || failed="$$failed e2e";; \
	esac; \
	took=$$(( $$(date +%s) - start )); \
	if [ -n "$$failed" ]; then echo "make check: FAILED:$$failed ($$took s)"; exit 1; fi; \
	echo "make check: all checks passed ($$took s)"

# ----------------------------------------------------------------------------- benchmarks

bench: $(VENV_DEV) $(NODE_STAMP) browser site
	@shopt -s nullglob; scripts=(bench/*.py); \
	if [ $${#scripts[@]} = 0 ]; then echo "bench: no bench/*.py yet"; exit 0; fi; \
	for s in "$${scripts[@]}"; do \
	  case "$$(basename $$s)" in _*|conftest.py) continue;; esac; \
	  echo "== $$s"; PYTHONPATH=tools:e2e $(VPY) "$$s"; \
	done

clean:
	rm -rf $(VENV) node_modules _site .cache .typecheck .pytest_cache .mypy_cache .ruff_cache
