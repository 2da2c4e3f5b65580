# Ramino. `make run` starts the service on the embedded default; `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The test suite runs on PostgreSQL and a real broker; override on the command line or in the environment.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/ramino
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0
# The SQLite leg's files (make pytest-sqlite runs their tests marked `sqlite`).
SQLITE_TESTS := tests/sqlite tests/tournaments/tournament/test_simulate_tournament.py \
	tests/tournaments/tournament/test_lobby_live.py tests/tournaments/single_table/test_events.py \
	tests/operations/test_access.py tests/integrity/test_job.py tests/tournaments/practice/test_practice.py \
	tests/tournaments/live/rounds/test_replays.py tests/tournaments/practice/test_limits.py \
	tests/accounts/test_usernames.py tests/api/test_schema_agreement.py tests/api/test_machine_endpoints.py \
	tests/play/test_csrf_failure.py tests/tournaments/multi_table/rebuys/test_rebuy_simulation.py
TEST_ENV := DJANGO_SETTINGS_MODULE=config.settings.test DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL)

.PHONY: install run demo migrate test test-steps lint typecheck migrations-check schema-check pytest pytest-sqlite smoke \
        test-browser fuzz-api bench bench-tiny bench-targets bench-ledger bench-engine bench-strong bench-api bench-tournament bench-ratings bench-integrity bench-live soak page-weight clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	mkdir -p var
	touch $(STAMP)

# The message catalogs, compiled whenever a .po is newer than its .mo (deploy/catalogs.py, pure Python).
CATALOGS := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
$(CATALOGS): %.mo: %.po $(STAMP)
	$(BIN)/python deploy/catalogs.py compile

install: $(STAMP) $(CATALOGS)

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

# pytest in PYTEST_PROCESSES parallel processes (pytest-xdist, `--dist loadgroup`): each its own test database
# (test_<name>_gw0, ...), Celery queue and worker, and live servers on free ports; the browser tests, the fuzz
# and modules sharing one server run in one process each (tests/conftest.py, XDIST_GROUPS).
# PYTEST_PROCESSES=0: all in this one process.
PYTEST_PROCESSES ?= 3
PYTEST_PARALLEL := $(if $(filter-out 0,$(PYTEST_PROCESSES)),-n $(PYTEST_PROCESSES) --dist loadgroup)
pytest: install
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS)

# The SQLite leg: the tests marked `sqlite` (tournaments/flows from registration to payout, the SQLite side of
# every vendor branch) on the embedded default's database, in a throwaway directory; the tasks' bodies run in
# the tests' process, so neither the test database nor the test broker is used.
pytest-sqlite: install
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	DJANGO_SETTINGS_MODULE=config.settings.test DATABASE_URL=sqlite:///$$tmp/ramino.sqlite3 \
	CELERY_BROKER_URL=memory:// $(BIN)/pytest -m sqlite -p no:cacheprovider $(PYTEST_SQLITE_ARGS) $(SQLITE_TESTS)

# The embedded default end to end: `make run` in a throwaway directory on a free port, played over HTTP
# (tests/smoke). It uses neither the test database nor the test broker.
smoke: install
	$(BIN)/python -m tests.smoke

# After the Chromium check, the steps in TEST_JOBS slots (make -j): pytest (itself in parallel processes) in one,
# the other steps one after another in the next; each step's output is printed when it ends. TEST_JOBS=1: one
# step at a time, in this order.
TEST_JOBS ?= 2
test: ensure-browser node-install
	$(MAKE) --no-print-directory -j $(TEST_JOBS) --output-sync=target test-steps

test-steps: pytest lint typecheck migrations-check schema-check pytest-sqlite smoke bench-tiny test-client lint-js

# Debian's chromium and chromium-driver for the browser tests: installed when missing and possible (root,
# apt-get), else the run stops here with the one line to run (deploy/ensure_browser.sh).
# The web client's pure modules (play/static/play/js/lib/*.mjs: layout maths, the animation queue, the deck, the
# words and their plurals, cards in text, the hand, the moves, who is connected, the demo's script) and its
# module graph under Node's test runner (tests/client/). Without node the step says so; under CI=true it fails.
.PHONY: test-client
test-client:
	@if command -v node >/dev/null 2>&1; then node --test tests/client/; \
	elif [ "$$CI" = "true" ]; then echo "test-client: node is missing (apt-get install -y nodejs)" >&2; exit 1; \
	else echo "test-client: NOT RUN, node is missing (apt-get install -y nodejs); CI=true makes this fail" >&2; fi

# The JavaScript tools (ESLint, eslint.config.mjs) at package-lock.json's pinned versions, installed into
# node_modules/ by `npm ci`, again whenever package.json or the lock changes (the stamp, like the venv's).
# Without npm the step says so; under CI=true it fails.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

.PHONY: node-install lint-js
node-install:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(NODE_STAMP); \
	elif [ "$$CI" = "true" ]; then echo "node-install: npm is missing (apt-get install -y nodejs npm)" >&2; exit 1; \
	else echo "node-install: NOT RUN, npm is missing (apt-get install -y nodejs npm); CI=true makes this fail" >&2; fi

# ESLint over the project's JavaScript (the client's modules, its Node tests, the service worker, the admin's and
# the audit's scripts): it must pass clean.
lint-js: node-install
	@if [ -f $(NODE_STAMP) ] && command -v node >/dev/null 2>&1; then node_modules/.bin/eslint . && echo "lint-js: clean"; \
	elif [ "$$CI" = "true" ]; then echo "lint-js: node or the JavaScript tools are missing (make node-install)" >&2; exit 1; \
	else echo "lint-js: NOT RUN, node or npm is missing (apt-get install -y nodejs npm); CI=true makes this fail" >&2; fi

.PHONY: ensure-browser
ensure-browser:
	@bash deploy/ensure_browser.sh

# Only schemathesis against a live server, every operation with every check (tests/api/test_fuzz.py; `make test`
# runs it with the rest of pytest). Its report: var/fuzz-report.txt.
fuzz-api: install
	$(TEST_ENV) $(BIN)/pytest tests/api/test_fuzz.py $(PYTEST_ARGS)

# Only the browser tests (headless Chromium; docs/web.md). `make test` runs them with the rest.
test-browser: ensure-browser install
	$(TEST_ENV) $(BIN)/pytest -m browser $(PYTEST_ARGS)

bench: bench-ledger bench-engine bench-api

# Every bench-* target of this Makefile (found here, so a new one cannot be left out), each in tiny mode
# (BENCH_TINY=1, tests/benchmarks/tiny.py): its code paths in seconds, no figure judged, docs/performance.md
# untouched; it fails when a benchmark breaks. The scratch databases are copies of one migrated template.
BENCH_TARGETS := $(filter-out bench-tiny bench-targets,$(shell sed -n 's/^\(bench-[a-z0-9-]*\):.*/\1/p' $(firstword $(MAKEFILE_LIST))))
bench-targets:
	@echo $(BENCH_TARGETS)

# `make -n test` lists the steps; it runs every recipe line naming $(MAKE), as the tiny run's loop does, so
# the loop stops at once when make only lists (else it would create a real template database).
DRY_RUN = $(findstring n,$(firstword -$(MAKEFLAGS)))

bench-tiny: install
	@set -e; \
	if [ -n "$(DRY_RUN)" ]; then echo "bench-tiny: every bench-* target in tiny mode"; exit 0; fi; \
	template=$$($(TEST_ENV) $(BIN)/python -m tests.benchmarks.scratch_db template); \
	trap '$(TEST_ENV) $(BIN)/python -m tests.benchmarks.scratch_db drop' EXIT; \
	for target in $(BENCH_TARGETS); do \
		began=$$(date +%s); \
		BENCH_TINY=1 BENCH_TEMPLATE_DB=$$template $(MAKE) --no-print-directory $$target BENCH_ARGS= \
			> var/$$target-tiny.log 2>&1 || { tail -n 60 var/$$target-tiny.log; echo "$$target (tiny) FAILED: var/$$target-tiny.log"; exit 1; }; \
		echo "$$target (tiny): passed in $$(( $$(date +%s) - began )) s"; \
	done

bench-ledger: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_ledger $(BENCH_ARGS)

bench-engine: install
	$(BIN)/python -m tests.benchmarks.bench_engine

# StrongBot against GreedyBot in every preset (docs/performance.md "Bots"); BENCH_ARGS="--seeds 100".
bench-strong: install
	$(BIN)/python -m tests.benchmarks.bench_strong_bot $(BENCH_ARGS)

bench-api: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_api

# Multi-table tournaments with instant rounds: 1, 2 and 4 worker processes, 200 and 20,000 entrants (docs/performance.md).
bench-tournament: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_tournament $(BENCH_ARGS)

# The daily integrity job on 1,000,000 settled rounds with a day's worth new (docs/performance.md, "Integrity job").
bench-integrity: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_integrity $(BENCH_ARGS)

# The leaderboard read at 100,000 rated players against a bare indexed query of the same rows (docs/performance.md).
bench-ratings: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_ratings $(BENCH_ARGS)

# The live room's sockets: a move's commit to every follower at 100, 1,000 and 5,000 open sockets, against a bare
# Channels relay and the long-poll (docs/performance.md, "Live sockets"); not in CI.
bench-live: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.bench_live $(BENCH_ARGS)

# Chaos while playing (not in CI; tens of minutes): >= 1,000 rounds over HTTP at ring tables and multi-table
# tournaments while the worker is SIGKILLed and the database connections cut, then exactly-once checks
# (docs/operations.md, "Soak"). SOAK_ARGS=--quick for a few minutes.
soak: install
	$(TEST_ENV) $(BIN)/python -m tests.benchmarks.soak $(SOAK_ARGS)

# /play/'s weight and first render on a phone profile in Chromium (docs/performance.md "The player client on a
# phone"); PAGE_WEIGHT_ARGS="--tree /tmp/before --tree ." compares two source trees in one run.
page-weight: install
	$(BIN)/python -m tests.benchmarks.page_weight $(PAGE_WEIGHT_ARGS)

clean:
	rm -rf var/broker var/*.sqlite3 var/openapi.yaml .pytest_cache .mypy_cache .ruff_cache
