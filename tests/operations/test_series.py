"""The service's own series move with what happens: moves accepted and refused by code, turns played by the
clock, rounds settled, tournament events, long-polls waiting, Celery tasks (through the signal handlers, with a
published message's headers), and the gauges read from the database at scrape time."""

from __future__ import annotations

import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from ledger.models import ReconciliationRun, ReconciliationStatus
from ledger.services.reconciliation import run_reconciliation
from operations import celery_signals, request_id
from tests.factories import MultiTournamentFactory
from tests.operations.scrape import scrape, value
from tests.tournaments.live.helpers import play_out_by_clock, simple_move
from tournaments.live.messaging import wakeups
from tournaments.models import Tournament, TournamentStatus
from tournaments.tournament import events

pytestmark = pytest.mark.django_db


def test_moves_refusals_timeouts_and_settled_rounds_are_counted(
    dealt: dict[str, Any], client_for: Any, django_capture_on_commit_callbacks: Any
) -> None:
    web = Client()
    before = scrape(web)
    game = dealt["game"]
    mover = client_for(dealt["mover"])
    view = mover.get(f"/api/v1/games/{game.pk}/").json()
    stale = mover.post(
        f"/api/v1/games/{game.pk}/moves/", {**simple_move(view), "expected_version": view["version"] + 5}
    )
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "game.stale_version"
    accepted = mover.post(
        f"/api/v1/games/{game.pk}/moves/", {**simple_move(view), "expected_version": view["version"]}
    )
    assert accepted.status_code == 200, accepted.content
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_out_by_clock(game)
    after = scrape(web)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("ramino_moves_refused_total", code="game.stale_version") == 1
    assert delta("ramino_moves_accepted_total") == 1
    server_moves = round_.moves.filter(server_played=True).count()
    assert server_moves > 0
    assert delta("ramino_server_played_moves_total") == server_moves
    assert 0 < delta("ramino_turn_timeouts_total") <= server_moves
    assert delta("ramino_rounds_settled_total", game=game.table.game) == 1
    # django-prometheus: the requests, by view and status, and the queries
    assert delta("django_http_responses_total_by_status_total", status="409") >= 1
    assert delta("django_db_execute_total", alias="default", vendor="postgresql") > 0


def test_an_engine_refusal_is_counted_by_its_rule_code(dealt: dict[str, Any], client_for: Any) -> None:
    web = Client()
    game = dealt["game"]
    mover = client_for(dealt["mover"])
    view = mover.get(f"/api/v1/games/{game.pk}/").json()
    before = scrape(web)
    # Discarding before drawing: the engine's rule refuses it.
    hand = view["hand"]
    answer = mover.post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "discard", "card": hand[0], "expected_version": view["version"]},
    )
    assert answer.status_code == 422, answer.content
    code = answer.json()["error"]["code"]
    after = scrape(web)
    assert (
        value(after, "ramino_moves_refused_total", code=code)
        - value(before, "ramino_moves_refused_total", code=code)
        == 1
    )
    assert value(after, "ramino_moves_accepted_total") == value(before, "ramino_moves_accepted_total")


def test_tournament_events_are_counted_by_kind_once_committed(
    admin_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    web = Client()
    tournament = MultiTournamentFactory.create(created_by=admin_user)
    before = scrape(web)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            events.record(
                tournament=Tournament.objects.select_for_update().get(pk=tournament.pk), kind="level"
            )
            raise RuntimeError("rolled back")
        with transaction.atomic():
            events.record(
                tournament=Tournament.objects.select_for_update().get(pk=tournament.pk), kind="level"
            )
    assert len(callbacks) == 1  # the rolled-back event's was dropped with its savepoint
    after = scrape(web)
    assert (
        value(after, "ramino_tournament_events_total", kind="level")
        - value(before, "ramino_tournament_events_total", kind="level")
        == 1
    )


def test_long_polls_waiting_is_a_live_gauge() -> None:
    web = Client()
    assert value(scrape(web), "ramino_longpolls_waiting") == 0
    with wakeups.waiting_slots.slot("someone") as granted:
        assert granted
        assert value(scrape(web), "ramino_longpolls_waiting") == 1
    assert value(scrape(web), "ramino_longpolls_waiting") == 0


def test_the_task_signals_time_the_queue_and_the_run_and_count_failures() -> None:
    """The handlers as a worker runs them: the message's headers as `before_task_publish` wrote them."""
    web = Client()
    before = scrape(web)
    headers: dict[str, Any] = {}
    token = request_id.activate("req-42")
    try:
        celery_signals.before_task_publish(headers=headers)
    finally:
        request_id.deactivate(token)
    assert headers[request_id.TASK_HEADER] == "req-42"
    headers[celery_signals.PUBLISHED_HEADER] -= 2.0  # published two seconds ago
    task = SimpleNamespace(
        name="ramino.test_task", request=SimpleNamespace(**headers, eta=None, is_eager=False)
    )
    celery_signals.task_prerun(task_id="t-1", task=task)
    assert request_id.current() == "req-42"
    time.sleep(0.01)
    celery_signals.task_postrun(task_id="t-1", task=task)
    assert request_id.current() is None
    celery_signals.task_failure(sender=task)
    celery_signals.task_retry(sender=task)
    after = scrape(web)
    labels = {"task": "ramino.test_task"}

    def delta(name: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("ramino_celery_task_queue_wait_seconds_count") == 1
    assert 2.0 <= delta("ramino_celery_task_queue_wait_seconds_sum") < 30
    assert delta("ramino_celery_task_run_seconds_count") == 1
    assert 0.01 <= delta("ramino_celery_task_run_seconds_sum") < 30
    assert delta("ramino_celery_task_failures_total") == 1
    assert delta("ramino_celery_task_retries_total") == 1


def test_a_task_due_later_waits_from_its_eta() -> None:
    """A turn clock sent with a countdown is not late for the countdown it waited."""
    eta = timezone.now() - timedelta(seconds=1)
    published = time.time() - 60
    task_request = SimpleNamespace(eta=eta.isoformat(), **{celery_signals.PUBLISHED_HEADER: published})
    assert celery_signals._started_after(task_request) == pytest.approx(eta.timestamp())
    task_request = SimpleNamespace(eta=None, **{celery_signals.PUBLISHED_HEADER: published})
    assert celery_signals._started_after(task_request) == published


def test_the_reconciliation_gauges_read_the_latest_run() -> None:
    web = Client()
    samples = scrape(web)
    assert value(samples, "ramino_database_up") == 1
    assert value(samples, "ramino_reconciliation_ok") == 0
    assert value(samples, "ramino_reconciliation_age_seconds") == float("inf")
    run = run_reconciliation(trigger="test")
    assert run.ok
    ReconciliationRun.objects.filter(pk=run.pk).update(finished_at=timezone.now() - timedelta(hours=3))
    samples = scrape(web)
    assert value(samples, "ramino_reconciliation_ok") == 1
    assert 3 * 3600 <= value(samples, "ramino_reconciliation_age_seconds") < 3 * 3600 + 60
    assert value(samples, "ramino_reconciliation_problems") == 0
    assert value(samples, "ramino_reconciliation_last_run_failed") == 0
    ReconciliationRun.objects.create(status=ReconciliationStatus.FAILED, finished_at=timezone.now())
    samples = scrape(web)
    assert value(samples, "ramino_reconciliation_last_run_failed") == 1
    assert value(samples, "ramino_reconciliation_ok") == 1  # the latest *finished* run still stands


def test_a_tournament_still_registering_past_its_start_is_a_gauge(admin_user: Any) -> None:
    web = Client()
    on_time = MultiTournamentFactory.create(created_by=admin_user)
    assert on_time.status == TournamentStatus.REGISTERING
    assert on_time.starts_at is not None and on_time.starts_at > timezone.now()
    samples = scrape(web)
    assert value(samples, "ramino_tournaments", status="registering") == 1
    assert value(samples, "ramino_tournaments_registering_past_start") == 0
    assert value(samples, "ramino_tournament_start_overdue_seconds") == 0
    late = MultiTournamentFactory.create(created_by=admin_user)
    Tournament.objects.filter(pk=late.pk).update(starts_at=timezone.now() - timedelta(minutes=20))
    samples = scrape(web)
    assert value(samples, "ramino_tournaments", status="registering") == 2
    assert value(samples, "ramino_tournaments_registering_past_start") == 1
    assert 20 * 60 <= value(samples, "ramino_tournament_start_overdue_seconds") < 21 * 60
