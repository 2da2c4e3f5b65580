# Ramino. `make run` starts the service on the embedded default; `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The test suite runs on PostgreSQL and a real broker; override on the command line or in the environment.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/ramino
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0
TEST_ENV := DJANGO_SETTINGS_MODULE=config.settings.test DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL)

.PHONY: install run demo migrate test lint typecheck migrations-check schema-check pytest smoke test-browser fuzz-api \
        bench bench-ledger bench-engine bench-api bench-tournament clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	mkdir -p var
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

run: demo
	$(BIN)/python deploy/run_local.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(TEST_ENV) $(BIN)/mypy .

migrations-check: install
	$(TEST_ENV) $(BIN)/python manage.py makemigrations --check --dry-run

schema-check: install
	mkdir -p var
	$(TEST_ENV) $(BIN)/python manage.py spectacular --validate --fail-on-warn --file var/openapi.yaml

pytest: install
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_ARGS)

# The embedded default end to end: `make run` in a throwaway directory on a free port, played over HTTP
# (tests/smoke). It uses neither the test database nor the test broker.
smoke: install
	$(BIN)/python -m tests.smoke

test: lint typecheck migrations-check schema-check pytest smoke

# Only schemathesis against a live server, every operation with every check (tests/api/test_fuzz.py; `make test`
# runs it with the rest of pytest). Its report: var/fuzz-report.txt.
fuzz-api: install
	$(TEST_ENV) $(BIN)/pytest tests/api/test_fuzz.py $(PYTEST_ARGS)

# Only the browser tests (headless Chromium; docs/web.md). `make test` runs them with the rest.
test-browser: install
	$(TEST_ENV) $(BIN)/pytest -m browser $(PYTEST_ARGS)

bench: bench-ledger bench-engine bench-api

bench-ledger: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_ledger

bench-engine: install
	$(BIN)/python -m tests.benchmarks.bench_engine

bench-api: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_api

# Multi-table tournaments with instant rounds: 1, 2 and 4 worker processes, 200 and 20,000 entrants (docs/performance.md).
bench-tournament: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_tournament $(BENCH_ARGS)

clean:
	rm -rf var/broker var/*.sqlite3 var/openapi.yaml .pytest_cache .mypy_cache .ruff_cache
