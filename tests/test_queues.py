"""Queues by role (config/queues.py, docs/operations.md "Queues by role"): off by default; on, every role's tasks
go to a queue of their own, named with the prefix, and the practice tasks keep theirs."""

from __future__ import annotations

import environ
import pytest

from config.queues import PRACTICE_TASKS, ROLES, role_routes_from


def test_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAMINO_QUEUES_BY_ROLE", raising=False)
    assert role_routes_from(environ.Env()) == {}


def test_on_each_role_has_its_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAMINO_QUEUES_BY_ROLE", "1")
    monkeypatch.setenv("RAMINO_QUEUE_PREFIX", "site1-")
    routes = role_routes_from(environ.Env())
    assert routes["tournaments.table_round_over"] == {"queue": "site1-table_jobs"}
    assert routes["tournaments.start_round"] == {"queue": "site1-deals"}
    assert routes["tournaments.turn_clock"] == {"queue": "site1-clocks"}
    assert routes["tournaments.run_tournament_schedule"] == {"queue": "site1-schedule"}
    assert set(routes) == set(ROLES) and not set(routes) & set(PRACTICE_TASKS)
    assert {r["queue"] for r in routes.values()} == {
        f"site1-{role}" for role in ("table_jobs", "deals", "clocks", "schedule")
    }
