# Two commands: `make run` (start everything on SQLite + a local Redis) and
# `make test` (install what the tests need and run the whole suite on PostgreSQL).
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
UV_VERSION := 0.13.8
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
PY := $(VENV)/bin/python
# A per-checkout database name, so two clones on one machine never share a test database.
CHECKOUT := $(shell basename "$(CURDIR)" | tr -c 'a-zA-Z0-9\n' '_' | tr 'A-Z' 'a-z')
TEST_DATABASE_URL ?= postgres://postgres:postgres@127.0.0.1:5432/thud_$(CHECKOUT)
REDIS_URL ?= redis://127.0.0.1:6379/0
PYTEST_ARGS ?=

export DJANGO_SECRET_KEY ?= dev-only-not-secret-$(CHECKOUT)
export THUD_CACHE_PREFIX ?= thud_$(CHECKOUT)

.PHONY: help setup run test test-fast check lint bench services-test redis chromium postgres clean messages

help:
	@echo "make run    - set up, migrate, load the demo, start Redis/Celery/web (http://127.0.0.1:8000)"
	@echo "make test   - set up, start PostgreSQL/Redis, install chromium, run the whole suite"
	@echo "make bench  - run the benchmarks under bench/"
	@echo "make check  - the guard-rails CI runs: ruff check, ruff format --check, django-upgrade, mypy, lint-imports"
	@echo "make messages - refresh locale/{it,nb}/*.po from the marked strings (then translate)"

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --python $(PYTHON)
	@touch $@

# Translations: the .po files are in git; the .mo files are built here, never committed.
# compilemessages walks the whole tree, so keep it out of the environments.
LOCALE_IGNORE := --ignore=.venv --ignore=.tools --ignore=node_modules --ignore=staticfiles
MESSAGES_IGNORE := $(LOCALE_IGNORE) --ignore=tests --ignore=bench --ignore=test-output
LANGUAGES_TRANSLATED := -l it -l nb

setup: $(VENV)/.synced
	@scripts/ensure-gettext.sh
	@scripts/ensure-pdf.sh
	@if [ -d locale ]; then $(PY) manage.py compilemessages $(LOCALE_IGNORE) --verbosity 0; fi

# After marking a new string: refresh the catalogs, then translate it in it and nb.
messages: setup
	$(PY) manage.py makemessages $(LANGUAGES_TRANSLATED) --no-obsolete --add-location=file $(MESSAGES_IGNORE)
	$(PY) manage.py makemessages -d djangojs $(LANGUAGES_TRANSLATED) --no-obsolete --add-location=file $(MESSAGES_IGNORE)

redis:
	@scripts/ensure-redis.sh "$(REDIS_URL)"

postgres:
	@scripts/ensure-postgres.sh

chromium:
	@scripts/ensure-chromium.sh

run: setup redis
	DJANGO_DEBUG=1 REDIS_URL=$(REDIS_URL) scripts/run.sh $(RUN_ARGS)

# Two lanes on two workers (tests/conftest.py): browser and clock tests one at a time on
# one worker, the rest shared out over both. The 25 slowest tests are printed every time.
TEST_WORKERS ?= 2
PYTEST_LANES := -n $(TEST_WORKERS) --dist loadgroup --durations=25

test: setup redis postgres chromium
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(REDIS_URL) \
	  $(VENV)/bin/pytest $(PYTEST_LANES) $(PYTEST_ARGS)

# The quick inner loop: no browser, no clock subprocesses, no deep perft.
test-fast: setup redis postgres
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(REDIS_URL) \
	  $(VENV)/bin/pytest $(PYTEST_LANES) -m "not slow and not clock and not browser" $(PYTEST_ARGS)

# The guard-rails, as .pre-commit-config.yaml runs them; .ci/run runs this before make test.
check: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	git ls-files -z '*.py' | xargs -0 $(VENV)/bin/django-upgrade --target-version 5.2 --check
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-logo

lint: check

bench: setup redis postgres
	@for b in bench/*.py; do echo "== $$b"; DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(REDIS_URL) $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) $(TOOLS) staticfiles db.sqlite3* test-output .import_linter_cache
