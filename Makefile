# unoclass: two commands do all set-up. `make run` serves the app with demo data;
# `make test` installs everything the tests need (Debian packages too) and runs the suite.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Debian packages the test suite needs: chromium for the browser tests, gettext for
# translations, redis and postgresql for the scale-out tests, pango and a font for the PDF
# reports (WeasyPrint).
DEB_TEST_PACKAGES := chromium gettext redis-server postgresql libpango-1.0-0 libpangoft2-1.0-0 \
	fonts-dejavu-core
APT := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || echo sudo apt-get)

.PHONY: run test install system-deps translations lint typecheck demo clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,bench]"
	touch $@

install: $(VENV)/.installed

translations: install
	DEBUG=$${DEBUG:-1} $(PY) manage.py compiletranslations

run: install translations
	DEBUG=$${DEBUG:-1} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(PY) manage.py demo_data
	DEBUG=$${DEBUG:-1} $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) unoclass.asgi:application

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

test: install system-deps translations
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest

lint: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

typecheck: install
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
