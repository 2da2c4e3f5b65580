"""deploy/'s Grafana dashboard and Prometheus alert rules: they parse, they hold the alerts the operators rely on,
and every metric they name is in the service's /metrics once the code paths behind them have run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from django.db import transaction
from django.test import Client

from ledger.services.reconciliation import run_reconciliation
from operations import celery_signals, metrics
from tests.factories import MultiTournamentFactory
from tests.operations.scrape import names, scrape
from tests.tournaments.live.helpers import play_out_by_clock, simple_move
from tournaments.models import Tournament
from tournaments.tournament import events

pytestmark = pytest.mark.django_db

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
DASHBOARD = DEPLOY / "grafana" / "ramino.json"
ALERTS = DEPLOY / "prometheus" / "alerts.yml"
# A metric name in PromQL: ours and django-prometheus' (label names, functions and keywords never start so).
METRIC = re.compile(r"\b((?:ramino|django)_[a-z0-9_]+)\b")


def _dashboard_exprs() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"]
    exprs = []
    for panel in dashboard["panels"]:
        if panel["type"] == "row":
            continue
        assert panel["title"] and panel["targets"], panel
        exprs += [target["expr"] for target in panel["targets"]]
    return exprs


def _rules() -> list[dict[str, Any]]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    rules = [rule for group in groups for rule in group["rules"]]
    for rule in rules:
        assert set(rule) >= {"alert", "expr", "labels", "annotations"}, rule
        assert rule["labels"]["severity"] in ("page", "ticket")
        assert rule["annotations"]["summary"]
    return rules


def _named(exprs: list[str]) -> set[str]:
    return {name for expr in exprs for name in METRIC.findall(expr)}


def test_the_alerts_cover_what_the_operators_need() -> None:
    by_name = {rule["alert"]: rule["expr"] for rule in _rules()}
    assert "ramino_reconciliation_ok" in by_name["RaminoReconciliationNotOk"]
    assert "ramino_reconciliation_age_seconds" in by_name["RaminoReconciliationStale"]
    assert "ramino_celery_task_queue_wait_seconds_bucket" in by_name["RaminoTaskQueueWaitHigh"]
    assert 'status=~"5.."' in by_name["RaminoHttp5xxRate"]
    assert "ramino_tournament_start_overdue_seconds" in by_name["RaminoTournamentStillRegisteringPastStart"]


def test_every_metric_the_dashboard_and_the_alerts_name_exists(
    dealt: dict[str, Any], client_for: Any, admin_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    named = _named(_dashboard_exprs() + [rule["expr"] for rule in _rules()])
    # the scan works: both files' metrics, ours and django-prometheus'
    assert {"ramino_moves_refused_total", "django_http_responses_total_by_status_total"} <= named
    assert len(named) >= 25

    # What makes the labelled series exist: a refused and an accepted move, a round the clocks play out, a
    # tournament (its events), a reconciliation, a task through the worker's signal handlers, a socket's message.
    game = dealt["game"]
    mover = client_for(dealt["mover"])
    view = mover.get(f"/api/v1/games/{game.pk}/").json()
    mover.post(f"/api/v1/games/{game.pk}/moves/", {**simple_move(view), "expected_version": -1})
    mover.post(f"/api/v1/games/{game.pk}/moves/", {**simple_move(view), "expected_version": view["version"]})
    with django_capture_on_commit_callbacks(execute=True):
        play_out_by_clock(game)
        tournament = MultiTournamentFactory.create(created_by=admin_user)
        with transaction.atomic():
            events.record(
                tournament=Tournament.objects.select_for_update().get(pk=tournament.pk), kind="level"
            )
    run_reconciliation(trigger="test")
    headers: dict[str, Any] = {}
    celery_signals.before_task_publish(headers=headers)
    task = SimpleNamespace(
        name="ramino.test_task", request=SimpleNamespace(**headers, eta=None, is_eager=False)
    )
    celery_signals.task_prerun(task_id="t-dash", task=task)
    celery_signals.task_postrun(task_id="t-dash", task=task)
    celery_signals.task_failure(sender=task)
    celery_signals.task_retry(sender=task)
    # a message sent on a live socket (tests/live_room: the sockets themselves)
    metrics.socket_message_sent(kind="events")
    metrics.socket_read(kind="shared")

    exposed = names(scrape(Client()))
    assert named - exposed == set()
