"""Practice tables with a real Celery worker, over HTTP: the player starts a table, the worker deals and plays
the bots, the player plays their own turns until the round ends; no ledger transfer is posted, nothing is
listed; leaving closes the table, and a table whose player went away closes by itself, its round dropped (not
played out by the bots)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ledger.models import Transfer
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import simple_move
from tests.tournaments.live.test_worker import wait_for
from tournaments.live.models import Game, GameStatus, MoveLog, Round, Seat, SeatStatus, Table, TableStatus
from tournaments.practice import services
from tournaments.practice.bots import BOT_NAMES

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def _play_until_over(client: Any, game_id: int, round_number: int, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.get(f"/api/v1/games/{game_id}/").json()
        if view["round"] == round_number and view["status"] != GameStatus.PLAYING:
            return view
        if view.get("legal_moves"):
            move = simple_move(view)
            answer = client.post(
                f"/api/v1/games/{game_id}/moves/", {**move, "expected_version": view["version"]}
            )
            assert answer.status_code in (200, 409), answer.content
        else:
            time.sleep(0.05)
    raise AssertionError("the practice round did not end")


def test_a_practice_round_over_http_with_the_worker(
    celery_worker_process: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    client = client_for(ann)
    transfers_before = Transfer.objects.count()
    created = client.post("/api/v1/practice/", {"game": "rummy500", "bots": 2, "level": "medium"})
    assert created.status_code == 201, created.content
    table_id, game_id = created.json()["table"], created.json()["game"]
    # The worker deals by itself, about a second later.
    wait_for(lambda: Round.objects.filter(game_id=game_id).exists(), 30, "the first deal")
    view = _play_until_over(client, game_id, 1)
    round_ = Round.objects.get(game_id=game_id, number=1)
    assert round_.settled and round_.scores and set(round_.scores) == {"ann", *BOT_NAMES[:2]}
    assert view["players"][0]["username"] == round_.players[0]
    # The bots played through the worker, as the server plays a timeout's moves (unless the CSPRNG's deal let
    # ann go out before any bot's turn: then only her moves are in the round).
    bot_moves = MoveLog.objects.filter(round=round_, player__in=BOT_NAMES)
    players = set(MoveLog.objects.filter(round=round_).values_list("player", flat=True))
    assert bot_moves.filter(server_played=True).count() >= 2 or players == {"ann"}, players
    assert not bot_moves.filter(server_played=False).exists()
    assert not MoveLog.objects.filter(round=round_, player="ann", server_played=True).exists()
    # No chips: no transfer at all; nothing listed.
    assert Transfer.objects.count() == transfers_before
    listed = client.get("/api/v1/tables/").json()["results"]
    assert table_id not in [row["id"] for row in listed]
    # The rounds and the events read as at any table.
    rounds = client.get(f"/api/v1/games/{game_id}/rounds/").json()
    assert rounds["results"][0]["transfers"] == [] and rounds["results"][0]["moves"]
    # The next round comes by itself; leaving drops it (the bots do not play it out) and the table closes.
    wait_for(lambda: Round.objects.filter(game_id=game_id, number=2).exists(), 30, "the second deal")
    assert client.post(f"/api/v1/tables/{table_id}/leave/").status_code == 200
    left_at = time.monotonic()
    wait_for(
        lambda: (
            Table.objects.get(pk=table_id).status == TableStatus.CLOSED
            and Game.objects.get(pk=game_id).status == GameStatus.CLOSED
        ),
        60,
        "the table to close after its player left",
    )
    # At the bots' next turn (one short pause), not after a round played out.
    assert time.monotonic() - left_at < 20
    assert not Seat.objects.filter(table_id=table_id).exclude(status=SeatStatus.LEFT).exists()
    dropped = Round.objects.get(game_id=game_id, number=2)
    assert dropped.ended_at is None and not dropped.settled
    assert Transfer.objects.count() == transfers_before
    assert_reconciled()


def test_an_abandoned_practice_table_closes_by_itself(celery_worker_process: Any, make_player: Any) -> None:
    ann = make_player("ann")
    # Short clocks: the player, who never moves, is absent after two timeouts; the round is then dropped.
    table = services.start_practice(
        player=ann,
        game="rummy500",
        bots=1,
        level="easy",
        options={"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6},
    )
    wait_for(
        lambda: (
            Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
            and Game.objects.get(table=table).status == GameStatus.CLOSED
        ),
        90,
        "the abandoned table to close",
    )
    round_ = Round.objects.get(game__table=table, number=1)
    assert round_.ended_at is None and not round_.settled
    # The player's two turns were the clock's; once absent, no bot played again.
    ann_moves = MoveLog.objects.filter(round=round_, player="ann", server_played=True)
    assert ann_moves.exists()
    last_turn = ann_moves.order_by("-version").first()
    assert last_turn is not None
    assert (
        not MoveLog.objects.filter(round=round_, version__gt=last_turn.version).exclude(player="ann").exists()
    )
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.LEFT).exists()
    assert not Transfer.objects.filter(table_id=table.pk).exists()
    assert_reconciled()
