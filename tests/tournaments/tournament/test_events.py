"""The lobby's live updates: `GET /tournaments/{id}/events/?after=&wait=` reads the tournament's event log after a
version and long-polls for the next one, woken by the `pg_notify` that `tournament_events.record` runs (the
game events' machinery, `tournaments.live.messaging.wakeups`, with the tournament as its topic)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.live.messaging import wakeups
from tournaments.tournament import events as tournament_events
from tournaments.tournament.models import Tournament, TournamentEvent

# A bust as multi_progress records it (docs/api.md: `players` [{entry, player, place}]).
BUST = {"entry": 1, "player": "ann", "place": None}


def _record(tournament_id: int, kind: str, **data: Any) -> None:
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament_id)
        tournament_events.record(tournament=locked, kind=kind, data=data)


def _until(predicate: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return bool(predicate())


@pytest.mark.django_db
def test_events_after_a_version(admin_user: Any, client_for: Any) -> None:
    t = multi.multi_tournament(admin_user)
    _record(t.pk, "registration_open")
    _record(t.pk, "started", tables=2)
    _record(t.pk, "level", level=2)
    url = f"/api/v1/tournaments/{t.pk}/events/"
    everything = client_for(None).get(url).json()
    assert everything["version"] == 3 and everything["next_after"] == 3
    assert [(e["version"], e["kind"], e["data"]) for e in everything["events"]] == [
        (1, "registration_open", {}),
        (2, "started", {"tables": 2}),
        (3, "level", {"level": 2}),
    ]
    assert all(e["created_at"] for e in everything["events"])
    later = client_for(None).get(f"{url}?after=2").json()
    assert [e["version"] for e in later["events"]] == [3] and later["next_after"] == 3
    none = client_for(None).get(f"{url}?after=3").json()
    assert none == {"version": 3, "events": [], "next_after": 3}
    beyond = client_for(None).get(f"{url}?after=10").json()
    assert beyond == {"version": 3, "events": [], "next_after": 10}


@pytest.mark.django_db
def test_a_page_of_events_stops_at_its_limit(admin_user: Any, client_for: Any, monkeypatch: Any) -> None:
    from tournaments.multi_table import selectors

    monkeypatch.setattr(selectors, "EVENTS_PAGE", 2)
    t = multi.multi_tournament(admin_user)
    for n in range(5):
        _record(t.pk, "level", level=n + 1)
    url = f"/api/v1/tournaments/{t.pk}/events/"
    first = client_for(None).get(url).json()
    assert [e["version"] for e in first["events"]] == [1, 2] and first["version"] == 5
    second = client_for(None).get(f"{url}?after={first['next_after']}").json()
    assert [e["version"] for e in second["events"]] == [3, 4]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("after=abc", "after"),
        ("after=-1", "after"),
        ("wait=abc", "wait"),
        ("wait=-1", "wait"),
        ("wait=nan", "wait"),
    ],
)
def test_junk_parameters_are_400(admin_user: Any, client_for: Any, query: str, parameter: str) -> None:
    t = multi.multi_tournament(admin_user)
    answer = client_for(None).get(f"/api/v1/tournaments/{t.pk}/events/?{query}")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid_parameter"
    assert answer.json()["error"]["details"] == {"parameter": parameter}


@pytest.mark.django_db
def test_an_unknown_tournament_is_404(client_for: Any) -> None:
    answer = client_for(None).get("/api/v1/tournaments/999999/events/?wait=5")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "tournament.not_found"


@pytest.mark.django_db
def test_a_long_poll_with_nothing_new_waits_its_time_and_answers_empty(
    admin_user: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.1
    t = multi.multi_tournament(admin_user)
    started = time.monotonic()
    answer = client_for(None).get(f"/api/v1/tournaments/{t.pk}/events/?wait=0.6")
    elapsed = time.monotonic() - started
    assert answer.status_code == 200 and answer.json() == {"version": 0, "events": [], "next_after": 0}
    assert 0.5 < elapsed < 3


@pytest.mark.django_db
def test_too_many_waiting_answers_at_once_with_retry_after(
    admin_user: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_MAX_WAITING = 0
    t = multi.multi_tournament(admin_user)
    started = time.monotonic()
    answer = client_for(None).get(f"/api/v1/tournaments/{t.pk}/events/?wait=15")
    assert time.monotonic() - started < 2
    assert answer.status_code == 200 and answer["Retry-After"] == "1"


def test_the_record_announces_the_tournament_topic() -> None:
    assert wakeups.topic(tournament_id=5) == "t5" and wakeups.topic(game_id=5) == "5"
    with pytest.raises(ValueError):
        wakeups.topic()


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_is_answered_when_an_event_is_recorded_by_another_thread(
    admin_user: Any, client_for: Any, settings: Any
) -> None:
    # Polls and re-checks so slow that only the notification can answer within the bound.
    settings.RAMINO_EVENTS_POLL_SECONDS = 20
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 20
    t = multi.multi_tournament(admin_user)
    _record(t.pk, "registration_open")
    hub = wakeups.current_hub()
    assert hub is not None
    answer: dict[str, Any] = {}

    def poll() -> None:
        try:
            started = time.monotonic()
            response = client_for(None).get(f"/api/v1/tournaments/{t.pk}/events/?after=1&wait=15")
            answer["elapsed"] = time.monotonic() - started
            answer["status"] = response.status_code
            answer["body"] = response.json()
        finally:
            connection.close()

    waiter = threading.Thread(target=poll)
    waiter.start()
    assert _until(lambda: hub.waiting() == 1 and hub.listening)
    time.sleep(0.3)

    def busts() -> None:
        try:
            _record(t.pk, "busted", players=[BUST])
        finally:
            connection.close()

    recorded_at = time.monotonic()
    recorder = threading.Thread(target=busts)
    recorder.start()
    recorder.join(timeout=10)
    waiter.join(timeout=20)
    assert answer["status"] == 200
    assert [(e["version"], e["kind"], e["data"]) for e in answer["body"]["events"]] == [
        (2, "busted", {"players": [BUST]})
    ]
    assert answer["body"]["version"] == 2
    assert time.monotonic() - recorded_at < 3
    assert 0.3 < answer["elapsed"] < 5
    assert hub.waiting() == 0
    assert TournamentEvent.objects.filter(tournament=t).count() == 2
