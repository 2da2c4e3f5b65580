"""Long-poll wake-ups through PostgreSQL LISTEN/NOTIFY: waiters wake when a game changes, and fall back to
polling when no listener is connected."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournaments.live.messaging import wakeups
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start


def _until(predicate: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return bool(predicate())


@pytest.fixture
def hubs() -> Iterator[list[wakeups.WakeupHub]]:
    made: list[wakeups.WakeupHub] = []
    yield made
    for hub in made:
        hub.stop()


def _hub(hubs: list[wakeups.WakeupHub], connect: Any = wakeups.listener_connection) -> wakeups.WakeupHub:
    hub = wakeups.WakeupHub(connect)
    hubs.append(hub)
    return hub


def _notify(payload: str) -> None:
    """What another process's committed write does."""
    with wakeups.listener_connection() as other:
        other.execute("SELECT pg_notify(%s, %s)", [wakeups.CHANNEL, payload])


def _nowhere() -> psycopg.Connection[Any]:
    return psycopg.connect(
        "postgresql://postgres@127.0.0.1:1/nothing", connect_timeout=1
    )  # nothing on port 1


# ------------------------------------------------------------------------------------------ the hub alone


def test_a_notification_from_another_connection_wakes_the_watchers_of_that_game(
    hubs: list[wakeups.WakeupHub], settings: Any
) -> None:
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 30
    hub = _hub(hubs)
    with (
        hub.watch(game_id=7, after=3) as watched,
        hub.watch(game_id=8, after=0) as other_game,
        hub.watch(game_id=7, after=9) as already_seen,
    ):
        assert _until(lambda: hub.listening)
        assert hub.waiting() == 3
        started = time.monotonic()
        _notify("7:4")
        assert watched.wait(10)
        assert time.monotonic() - started < 2
        # Another game's watcher and one that has already seen version 9 stay asleep.
        assert not other_game.wait(0.3)
        assert not already_seen.wait(0.01)
    assert hub.waiting() == 0


def test_a_wake_up_during_the_read_is_kept_and_rearm_forgets_older_ones(
    hubs: list[wakeups.WakeupHub], settings: Any
) -> None:
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 30
    hub = _hub(hubs)
    with hub.watch(game_id=1, after=0) as watch:
        assert _until(lambda: hub.listening)
        hub.deliver("1:1")
        watch.rearm()
        assert not watch.wait(0.05)
        hub.deliver("1:2")  # arrives after rearm, "during the read": the next wait returns at once
        started = time.monotonic()
        assert watch.wait(10)
        assert time.monotonic() - started < 0.1
        watch.rearm()
        hub.deliver("not-a-version")  # ignored, logged
        hub.deliver("1:x")
        assert not watch.wait(0.05)


def test_without_a_listener_watchers_poll(hubs: list[wakeups.WakeupHub], settings: Any) -> None:
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.1
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 30
    hub = _hub(hubs, _nowhere)
    with hub.watch(game_id=1, after=0) as watch:
        time.sleep(0.3)
        assert not hub.listening
        started = time.monotonic()
        assert not watch.wait(5)
        assert 0.05 < time.monotonic() - started < 1  # the poll interval, not the 5 s asked for


def test_the_listener_reconnects_after_its_backend_is_terminated(
    hubs: list[wakeups.WakeupHub], settings: Any
) -> None:
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 30
    hub = _hub(hubs)
    with hub.watch(game_id=5, after=0) as watch:
        assert _until(lambda: hub.listening)
        watch.rearm()
        with wakeups.listener_connection() as admin:
            killed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                [wakeups.APPLICATION_NAME],
            ).fetchone()
        assert killed is not None and killed[0] >= 1
        # Losing the listener wakes the waiters (they may have missed something) ...
        assert watch.wait(10)
        # ... and it comes back, and wake-ups flow again.
        assert _until(lambda: hub.listening, timeout=10)
        watch.rearm()
        _notify("5:1")
        assert watch.wait(10)


# --------------------------------------------------------------------------------- the moves announce


@pytest.mark.django_db(transaction=True)
def test_the_round_start_and_a_move_announce_their_versions_at_commit_and_a_rollback_nothing(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table()
    users = [make_player(name) for name in ("ann", "bob")]
    with wakeups.listener_connection() as listener:
        listener.execute(f"LISTEN {wakeups.CHANNEL}")

        def heard(game_id: int, timeout: float = 3.0) -> list[str]:
            got = [n.payload for n in listener.notifies(timeout=timeout)]
            return [p for p in got if p.startswith(f"{game_id}:")]

        for user in users:
            client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
        game = Game.objects.get(table=table)
        # The suite's Celery worker deals the round at once (no pause in these tests), or this call does:
        # either way version 1 is announced, once.
        round_start.start_round(game_id=game.pk)
        game.refresh_from_db()
        assert game.version == 1
        assert heard(game.pk) == [f"{game.pk}:1"]

        statement = wakeups.announcement(game_id=game.pk, version=99)
        assert statement is not None
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(*statement)
            transaction.set_rollback(True)
        assert heard(game.pk, timeout=1.0) == []

        mover = next(u for u in users if u.username == game.turn_player)
        moved = client_for(mover).post(
            f"/api/v1/games/{game.pk}/moves/",
            {"type": "draw", "source": "stock", "expected_version": game.version},
        )
        assert moved.status_code == 200
        assert heard(game.pk) == [f"{game.pk}:2"]


def test_wake_ups_are_off_when_the_setting_says_so(settings: Any) -> None:
    settings.RAMINO_EVENTS_WAKEUPS = False
    assert wakeups.current_hub() is None
    assert wakeups.announcement(game_id=1, version=2) is None
    settings.RAMINO_EVENTS_WAKEUPS = True
    assert wakeups.current_hub() is wakeups.current_hub() is not None
    assert wakeups.announcement(game_id=1, version=2) == (
        "SELECT pg_notify(%s, %s)",
        [wakeups.CHANNEL, "1:2"],
    )


# ------------------------------------------------------------------------------------ the events endpoint


def _wait_for_events(client: Any, game: Game, seconds: float, answer: dict[str, Any]) -> threading.Thread:
    def poll() -> None:
        try:
            with CaptureQueriesContext(connection) as queries:
                started = time.monotonic()
                response = client.get(f"/api/v1/games/{game.pk}/events/?after={game.version}&wait={seconds}")
                answer["elapsed"] = time.monotonic() - started
            answer["status"] = response.status_code
            answer["body"] = response.json()
            answer["event_reads"] = sum(
                '"tournaments_gameevent"' in q["sql"] for q in queries.captured_queries
            )
        finally:
            connection.close()

    thread = threading.Thread(target=poll)
    thread.start()
    return thread


def _draw(dealt: dict[str, Any], client_for: Any) -> float:
    """The player to act draws from the stock; returns when the move was sent."""
    game = dealt["game"]
    moved_at = time.monotonic()
    moved = client_for(dealt["mover"]).post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "draw", "source": "stock", "expected_version": game.version},
    )
    assert moved.status_code == 200
    return moved_at


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_is_answered_by_the_wake_up_not_by_polling(
    dealt: Any, client_for: Any, settings: Any
) -> None:
    # Polling and re-checks so slow that only a wake-up can answer within the assertion's bound.
    settings.RAMINO_EVENTS_POLL_SECONDS = 20
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 20
    game = dealt["game"]
    hub = wakeups.current_hub()
    assert hub is not None
    other = next(u for u in dealt["users"].values() if u != dealt["mover"])
    answer: dict[str, Any] = {}
    thread = _wait_for_events(client_for(other), game, 15, answer)
    assert _until(lambda: hub.waiting() == 1 and hub.listening)
    time.sleep(0.3)
    moved_at = _draw(dealt, client_for)
    thread.join(timeout=20)
    assert answer["status"] == 200
    assert [e["version"] for e in answer["body"]["events"]] == [game.version + 1]
    assert time.monotonic() - moved_at < 2
    assert answer["event_reads"] == 2  # one read before the wait, one after the wake-up; no polling between
    assert hub.waiting() == 0


@pytest.mark.django_db(transaction=True)
def test_an_idle_long_poll_reads_the_events_only_at_its_rechecks(
    dealt: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.05
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 0.5
    game = dealt["game"]
    hub = wakeups.current_hub()
    assert hub is not None
    with hub.watch(game_id=0, after=0):  # starts the subscriber before the request
        assert _until(lambda: hub.listening)
    answer: dict[str, Any] = {}
    _wait_for_events(client_for(dealt["mover"]), game, 1.6, answer).join(timeout=10)
    assert answer["status"] == 200 and answer["body"]["events"] == []
    assert 1.5 < answer["elapsed"] < 3
    # Reads at 0, 0.5, 1.0, 1.5 and the last at 1.6 s; polling every 0.05 s would have made ~32.
    assert 3 <= answer["event_reads"] <= 6


@pytest.mark.django_db(transaction=True)
def test_without_wake_ups_a_long_poll_still_answers_by_polling(
    dealt: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_WAKEUPS = False
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.2
    settings.RAMINO_EVENTS_RECHECK_SECONDS = 20
    game = dealt["game"]
    other = next(u for u in dealt["users"].values() if u != dealt["mover"])
    answer: dict[str, Any] = {}
    thread = _wait_for_events(client_for(other), game, 15, answer)
    time.sleep(0.5)
    moved_at = _draw(dealt, client_for)
    thread.join(timeout=20)
    assert answer["status"] == 200
    assert [e["version"] for e in answer["body"]["events"]] == [game.version + 1]
    assert time.monotonic() - moved_at < 2


@pytest.mark.django_db(transaction=True)
def test_long_polls_beyond_the_process_limit_answer_at_once_and_never_take_the_last_thread(
    dealt: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_MAX_WAITING = 1
    game = dealt["game"]
    other = next(u for u in dealt["users"].values() if u != dealt["mover"])
    first: dict[str, Any] = {}
    thread = _wait_for_events(client_for(other), game, 15, first)
    assert _until(lambda: wakeups.waiting_slots.taken == 1)
    url = f"/api/v1/games/{game.pk}/events/?after={game.version}"
    started = time.monotonic()
    refused = client_for(dealt["mover"]).get(f"{url}&wait=15")
    assert time.monotonic() - started < 2
    assert refused.status_code == 200 and refused.json()["events"] == []
    assert refused["Retry-After"] == "1"
    assert "Retry-After" not in client_for(dealt["mover"]).get(url)  # not asked to wait: not refused
    _draw(dealt, client_for)
    thread.join(timeout=20)
    assert [e["version"] for e in first["body"]["events"]] == [game.version + 1]
    assert wakeups.waiting_slots.taken == 0
    # The slot is free again: the next long-poll waits (and answers at its end, not refused).
    settings.RAMINO_EVENTS_POLL_SECONDS = 0.1
    started = time.monotonic()
    again = client_for(dealt["mover"]).get(
        f"/api/v1/games/{game.pk}/events/?after={game.version + 1}&wait=0.5"
    )
    assert 0.4 < time.monotonic() - started < 3
    assert again.json()["events"] == [] and "Retry-After" not in again


@pytest.mark.django_db(transaction=True)
def test_one_users_long_polls_beyond_their_share_answer_at_once_while_others_still_wait(
    dealt: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_EVENTS_MAX_WAITING = 3
    settings.RAMINO_EVENTS_MAX_WAITING_PER_USER = 1
    game = dealt["game"]
    other = next(u for u in dealt["users"].values() if u != dealt["mover"])
    first: dict[str, Any] = {}
    thread = _wait_for_events(client_for(other), game, 15, first)
    assert _until(lambda: wakeups.waiting_slots.by_user == {other.pk: 1})
    started = time.monotonic()
    refused = client_for(other).get(f"/api/v1/games/{game.pk}/events/?after={game.version}&wait=15")
    assert time.monotonic() - started < 2
    assert refused.status_code == 200 and refused.json()["events"] == [] and refused["Retry-After"] == "1"
    # A slot of the process is still free for someone else, who waits and gets the event.
    second: dict[str, Any] = {}
    mover_thread = _wait_for_events(client_for(dealt["mover"]), game, 15, second)
    assert _until(lambda: wakeups.waiting_slots.taken == 2)
    _draw(dealt, client_for)
    for waiter in (thread, mover_thread):
        waiter.join(timeout=20)
    for answer in (first, second):
        assert [e["version"] for e in answer["body"]["events"]] == [game.version + 1]
    assert wakeups.waiting_slots.taken == 0 and wakeups.waiting_slots.by_user == {}
