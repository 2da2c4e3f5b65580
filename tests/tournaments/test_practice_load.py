"""Practice tables do not hold up real tables (issue 31, defect 1), with the real workers: four accounts
repeatedly start a hard three-bot Board Rummy practice table, wait for its deal and leave, while ring tables'
turn clocks run; the clocks still fire within 100 ms of their deadlines, because an abandoned round is dropped
(not played out) and the bots play on a queue of their own."""

from __future__ import annotations

import statistics
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tests.tournaments.test_worker import wait_for
from tournaments.live import tables
from tournaments.live.models import GameEvent, MoveLog, Round, Table, TableStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

RING_TABLES = 3
LOAD_SECONDS = 20.0
# One-second turns nobody plays: each turn is the clock's to play, once a second per table.
CLOCKS = {"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}


def _abandon_loop(user: Any, stop: threading.Event, started: list[int]) -> None:
    client = api_client(user)
    try:
        while not stop.is_set():
            answer = client.post("/api/v1/practice/", {"game": "board", "bots": 3, "level": "hard"})
            assert answer.status_code == 201, answer.content
            game_id, table_id = answer.json()["game"], answer.json()["table"]
            wait_for(lambda: Round.objects.filter(game_id=game_id).exists(), 30, "a practice deal")
            assert client.post(f"/api/v1/tables/{table_id}/leave/").status_code == 200
            started.append(table_id)
    finally:
        connection.close()


def _clock_delays(table_ids: list[int], since: Any) -> list[float]:
    """For each turn the clock played at the ring tables: how long after its deadline (the turn's start, the
    event before its first server-played move, plus the one-second turn) that move was made."""
    delays = []
    moves = MoveLog.objects.filter(
        game__table_id__in=table_ids, server_played=True, created_at__gte=since
    ).order_by("game_id", "version")
    for move in moves:
        before = GameEvent.objects.filter(game_id=move.game_id, version=move.version - 1).first()
        if before is None or before.kind not in ("move", "round_started"):
            continue
        previous = MoveLog.objects.filter(game_id=move.game_id, version=move.version - 1).first()
        if previous is not None and previous.player == move.player:
            continue  # a later move of the same turn, played right after its first
        deadline = before.created_at + timedelta(seconds=CLOCKS["turn_seconds"])
        delays.append((move.created_at - deadline).total_seconds())
    return delays


def test_abandoned_practice_rounds_do_not_delay_real_clocks(
    celery_worker_process: Any, make_player: Any, make_table: Any, client_for: Any
) -> None:
    ring: list[int] = []
    for number in range(RING_TABLES):
        table = make_table(options=CLOCKS)
        for name in (f"r{number}a", f"r{number}b"):
            tables.sit(user=make_player(name), table_id=table.pk, buy_in=200)
        ring.append(table.pk)
    wait_for(
        lambda: Round.objects.filter(game__table_id__in=ring).count() == RING_TABLES, 30, "the ring deals"
    )
    time.sleep(2)
    since = Round.objects.filter(game__table_id__in=ring).order_by("-started_at").first().started_at
    accounts = [make_player(f"p{i}") for i in range(4)]
    stop = threading.Event()
    started: list[int] = []
    loops = [threading.Thread(target=_abandon_loop, args=(u, stop, started)) for u in accounts]
    for loop in loops:
        loop.start()
    time.sleep(LOAD_SECONDS)
    stop.set()
    for loop in loops:
        loop.join(timeout=60)
    assert len(started) >= 8, started
    delays = _clock_delays(ring, since)
    assert len(delays) >= RING_TABLES * LOAD_SECONDS / 2, delays
    late = sorted(delays)[int(len(delays) * 0.95)]
    print(f"ring clocks: {len(delays)} turns, mean {statistics.mean(delays) * 1000:.0f} ms, "
          f"p95 {late * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms; {len(started)} practice tables")
    assert late < 0.1, sorted(delays)[-10:]
    # Every abandoned practice table closed without its round played out.
    wait_for(
        lambda: not Table.objects.filter(pk__in=started, status=TableStatus.OPEN).exists(),
        30,
        "the abandoned practice tables to close",
    )
    dropped = Round.objects.filter(game__table_id__in=started)
    assert dropped.filter(ended_at__isnull=True).count() == dropped.count()
    assert_reconciled()
