# unoclass: two commands do all set-up. `make run` serves the app with demo data;
# `make test` installs everything the tests need (Debian packages too) and runs the suite.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# pytest's worker processes in `make test` (pytest-xdist): one a core of this 2-core machine.
# `make test TEST_WORKERS=0` runs the suite in one process (docs/testing.md, "The suite's time").
TEST_WORKERS ?= 2
HOST ?= 127.0.0.1
# Debian packages the test suite needs: chromium for the browser tests, gettext for
# translations, redis and postgresql for the scale-out tests, pango and a font for the PDF
# reports (WeasyPrint), nginx and openssl for the deploy guide's test (docs/deploy.md), squid
# as a school's filtering proxy (tests/e2e/network), zbar-tools to read the box's QR code
# (tests/e2e/box: zbarimg), nodejs for the JavaScript linter (ESLint 9
# needs node >= 18.18: Debian 12 has 18.19). Debian packages npm apart from nodejs; a node from
# elsewhere (NodeSource) brings its own npm, which Debian's npm package would conflict with.
DEB_TEST_PACKAGES := chromium gettext redis-server postgresql libpango-1.0-0 libpangoft2-1.0-0 \
	fonts-dejavu-core nginx openssl squid zbar-tools nodejs $(shell command -v npm >/dev/null 2>&1 || echo npm)
# Debian packages `make deb` and `make test-deb` need: Debian's python3-venv (the package's
# wheels are gathered by the python3 they install into) and mmdebstrap (the test's fresh root).
DEB_BOX_PACKAGES := python3-venv mmdebstrap
APT := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: run test install install-dev system-deps translations lint imports typecheck demo clean \
	cas-venv jslint dist test-wheel deb deb-deps test-deb \
	test-ready test-checks test-translations check-types check-imports check-js check-ruff check-format

# The tests' own CAS server (tests/support/cas): django-cas-server in a virtual environment of
# its own, with the Django it supports, never mixed with the app's (python-cas is the client).
CAS_VENV := .venv-cas
CAS_SERVER_PACKAGES := "django-cas-server==3.1.0" "Django>=5.2,<5.3"

# Two install stamps: `make run` needs only the app's own dependencies; `make test` adds the
# dev and bench extras on top. Each is redone when pyproject.toml changes.
$(VENV)/.installed-run: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

# On a fresh clone `make test` installs the app and its extras in one pip run (one resolve, one
# editable build), then stamps both: `make run` after it installs nothing more.
$(VENV)/.installed-dev: pyproject.toml
	@if [ ! -f $(VENV)/.installed-run ] || [ pyproject.toml -nt $(VENV)/.installed-run ]; then \
	  $(PYTHON) -m venv $(VENV) && \
	  $(PY) -m pip install --quiet --upgrade pip && \
	  $(PY) -m pip install --quiet -e ".[dev,bench]" && touch $(VENV)/.installed-run; \
	else \
	  $(PY) -m pip install --quiet -e ".[dev,bench]"; \
	fi
	touch $@

$(CAS_VENV)/.installed: Makefile
	$(PYTHON) -m venv $(CAS_VENV)
	$(CAS_VENV)/bin/python -m pip install --quiet $(CAS_SERVER_PACKAGES)
	touch $@

cas-venv: $(CAS_VENV)/.installed

# The JavaScript linter (eslint.config.js), at the versions package-lock.json pins: installed
# again whenever the lock file changes (the stamp in node_modules).
node_modules/.installed: package-lock.json | system-deps
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed-run

install-dev: $(VENV)/.installed-dev

translations: install
	DEBUG=$${DEBUG:-1} $(PY) manage.py compiletranslations

run: install translations
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py demo_data
	@echo "unoclass is served on http://$(HOST):$(PORT)/ (open it in a browser; Ctrl+C stops it)"
	DEBUG=$${DEBUG:-1} $(VENV)/bin/daphne -b $(HOST) -p $(PORT) unoclass.asgi:application

# The wheel and the sdist, in dist/: templates, static files, compiled translations and the demo
# inside (setup.py), a `unoclass` command to run it without a checkout (docs/box.md).
dist: install
	$(PY) -m pip install --quiet "build>=1.2,<2"
	rm -rf dist build
	$(PY) -m build --outdir dist .

# The school server's package (packaging/, docs/deploy.md "One school server"): the wheel of
# `make dist` and its dependencies' wheels, the units and nginx's site, in dist/unoclass_*.deb.
deb: dist deb-deps
	$(PY) packaging/build_deb.py --wheel $$(ls dist/unoclass-*.whl)

deb-deps:
	@$(MAKE) --no-print-directory system-deps DEB_TEST_PACKAGES="$(DEB_BOX_PACKAGES)"

# The .deb installed into a fresh Debian root and served there (tests/e2e/box/test_deb.py):
# minutes, so apart from `make test` (.ci/run runs it after).
test-deb: install-dev deb
	UNOCLASS_DEB_TEST=1 UNOCLASS_DEB=$$(ls dist/unoclass_*.deb) $(PY) -m pytest \
	    tests/e2e/box/test_deb.py -p no:cacheprovider -s

system-deps:
	@missing=""; \
	for p in $(DEB_TEST_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  DEBIAN_FRONTEND=noninteractive $(APT) update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends $$missing; \
	fi

# Everything the suite needs, side by side (`-j3`): the app's venv, the CAS server's and the
# JavaScript linter's installs wait on the network and the disk as much as on a core (all three
# before the suite: some tests walk the whole checkout, node_modules included). Then the
# suite, with the checks beside it rather than before it: mypy's cold run (30 s of CPU on a fresh
# clone, the last step before the suite began) overlaps the suite's own waits on its servers and
# browsers (docs/testing.md, "cuts of 2026-12-03 afternoon"). The checks' output is shown once the
# suite ends; a failure of the suite or of any check fails `make test`.
TEST_CHECKS := check-types check-imports check-js check-ruff check-format

# A dry run (make -n) runs every recipe line that names $(MAKE): the suite must not sit on one.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
test:
	@$(MAKE) --no-print-directory -j3 --output-sync=target test-ready
ifneq ($(DRY_RUN),)
	@$(MAKE) --no-print-directory test-checks
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder
else
	@checks_log=$$(mktemp -t unoclass-checks.XXXXXX); \
	$(MAKE) --no-print-directory -j3 --output-sync=target test-checks >"$$checks_log" 2>&1 & \
	checks=$$!; \
	echo "$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder"; \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder; suite=$$?; \
	wait $$checks; checked=$$?; \
	echo "--- the checks (ruff, ruff format, mypy, lint-imports, eslint), run beside the suite:"; \
	cat "$$checks_log"; rm -f "$$checks_log"; \
	[ $$checked = 0 ] || echo "make test: a check failed (above)"; \
	[ $$suite = 0 ] && [ $$checked = 0 ]
endif

test-ready: test-translations cas-venv system-deps node_modules/.installed

test-checks: $(TEST_CHECKS)

# `translations` for the suite: after the one pip run of install-dev (`translations` needs
# `install`, whose own pip run would race it on a fresh clone).
test-translations: $(VENV)/.installed-dev
	DEBUG=$${DEBUG:-1} $(PY) manage.py compiletranslations

check-js: node_modules/.installed
	npx --no-install eslint static/js

check-ruff: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .

check-format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff format --check .

check-imports: $(VENV)/.installed-dev
	$(VENV)/bin/lint-imports --no-cache

check-types: $(VENV)/.installed-dev
	$(VENV)/bin/mypy

# The wheel as a teacher installs it (tests/e2e/box, 1-2 min): built, installed into a fresh
# virtual environment outside the checkout, `unoclass serve --lan` joined by a browser. Apart
# from `make test`, which skips it; .ci/run runs it after `make test` (docs/testing.md).
test-wheel: install-dev system-deps translations
	UNOCLASS_WHEEL_TEST=1 $(PY) -m pytest tests/e2e/box -p no:cacheprovider -q

lint: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	$(VENV)/bin/lint-imports --no-cache

imports: install-dev
	$(VENV)/bin/lint-imports --no-cache

typecheck: install-dev
	$(VENV)/bin/mypy

jslint: node_modules/.installed
	npx --no-install eslint static/js

clean:
	rm -rf $(VENV) $(CAS_VENV) node_modules staticfiles .pytest_cache .mypy_cache .ruff_cache
