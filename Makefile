# unoclass: two commands do all set-up. `make run` serves the app with demo data;
# `make test` installs everything the tests need (Debian packages too) and runs the suite.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1
# Debian packages the test suite needs: chromium for the browser tests, gettext for
# translations, redis and postgresql for the scale-out tests, pango and a font for the PDF
# reports (WeasyPrint), nginx and openssl for the deploy guide's test (docs/deploy.md), squid
# as a school's filtering proxy (tests/e2e/network).
DEB_TEST_PACKAGES := chromium gettext redis-server postgresql libpango-1.0-0 libpangoft2-1.0-0 \
	fonts-dejavu-core nginx openssl squid
APT := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: run test install install-dev system-deps translations lint imports typecheck demo clean

# Two install stamps: `make run` needs only the app's own dependencies; `make test` adds the
# dev and bench extras on top. Each is redone when pyproject.toml changes.
$(VENV)/.installed-run: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-run
	$(PY) -m pip install --quiet -e ".[dev,bench]"
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

test: install-dev system-deps translations
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy
	$(PY) -m pytest

lint: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
	$(VENV)/bin/lint-imports --no-cache

imports: install-dev
	$(VENV)/bin/lint-imports --no-cache

typecheck: install-dev
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
