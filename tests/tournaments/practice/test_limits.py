"""Practice tables cost the server little (issue 31): a bot's turn is one task after one pause, the seats open
no ledger account, and starts are limited per address as well as per player."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from ledger.models import Account
from tests.clients import api_client
from tests.factories import PlayerFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, MoveLog, Seat, SeatStatus, Table, TableStatus
from tournaments.live.moves.pipeline import submit_move
from tournaments.live.rounds import start as round_start
from tournaments.practice import bots
from tournaments.practice.demo import script as demo_script
from tournaments.practice.models import PracticeTable
from tournaments.practice.services import StackedDeal, bot_turn, start_practice
from tournaments.practice.task_names import BOT_MOVE
from tournaments.practice.throttling import PracticeAddressThrottle

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def test_a_bot_turn_of_several_moves_is_one_task_after_one_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    ann = PlayerFactory.create(username="ann")
    # The demo's stacked deal: the bot's first turn is three moves (draw, meld the kings, discard the 7♣).
    table = start_practice(
        player=ann,
        game=demo_script.GAME,
        bots=1,
        level=demo_script.LEVEL,
        deal=StackedDeal(deck=demo_script.deck(), dealer=demo_script.DEALER),
    )
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    pauses: list[float] = []
    pause = bots.pause_seconds

    def counted_pause() -> float:
        pauses.append(pause())
        return pauses[-1]

    monkeypatch.setattr(bots, "pause_seconds", counted_pause)
    with dispatch.captured() as sent:
        for move in ({"type": "draw", "source": "stock"}, {"type": "discard", "card": "QS"}):
            game.refresh_from_db()
            submit_move(
                user=ann, game_id=game.pk, move=move, expected_version=game.version, idempotency_key=None
            )
    game.refresh_from_db()
    # The player's discard sends the bot its turn: one message, one pause.
    assert [m for m in sent if m[0] == BOT_MOVE] == [(BOT_MOVE, [game.pk, game.version])]
    assert len(pauses) == 1
    with dispatch.captured() as sent:
        assert bot_turn(game_id=game.pk, version=game.version)
    # That one task played the whole turn at once, and sent no other bot message (the player's turn now).
    moves = list(MoveLog.objects.filter(game=game, player=demo_script.BOT).order_by("version"))
    assert [m.move["type"] for m in moves] == ["draw", "meld", "discard"]
    assert all(m.server_played for m in moves)
    assert [m for m in sent if m[0] == BOT_MOVE] == [] and len(pauses) == 1


def test_practice_seats_open_no_ledger_account() -> None:
    ann = PlayerFactory.create(username="ann")
    before = Account.objects.count()
    for _ in range(3):
        table = start_practice(player=ann, game="board", bots=3, level="hard")
        round_start.start_round(game_id=Game.objects.get(table=table).pk)
    # Four seats at each of three tables, and not one account for them (the player's wallet was there).
    assert Account.objects.count() == before
    assert Seat.objects.filter(table__practice=True, stack_account__isnull=False).count() == 0
    assert Seat.objects.filter(table__practice=True).count() == 12
    detail = api_client(ann).get(f"/api/v1/tables/{table.pk}/").json()
    assert [p["chips"] for p in detail["players"]] == [0, 0, 0, 0]
    assert api_client(ann).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    # Left mid-round: the player's turn, if it was theirs, is played by its clock at once; the next bot
    # message then drops the round and closes the table.
    game = Game.objects.get(table=table)
    if game.turn_player == "ann":
        assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
        game.refresh_from_db()
    assert bot_turn(game_id=game.pk, version=game.version) is False
    assert Table.objects.filter(practice=True, status=TableStatus.OPEN).count() == 0
    assert not Seat.objects.filter(table__practice=True).exclude(status=SeatStatus.LEFT).exists()
    assert_reconciled()


def test_practice_starts_are_limited_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PracticeAddressThrottle, "THROTTLE_RATES", {"practice_address": "2/min"})
    body = {"game": "board", "bots": 3, "level": "hard"}

    def start(name: str, address: str) -> Any:
        guest = PlayerFactory.create(username=name)
        return api_client(guest).post("/api/v1/practice/", body, REMOTE_ADDR=address)

    # Each a different account (guests cost nothing to make): the address is what is counted.
    assert [start(n, "198.51.100.7").status_code for n in ("ann", "bob")] == [201, 201]
    refused = start("cid", "198.51.100.7")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert start("dee", "198.51.100.8").status_code == 201
    assert Table.objects.filter(practice=True).count() == 3


def test_the_database_keeps_one_current_practice_table_per_player() -> None:
    ann = PlayerFactory.create(username="ann")
    first = start_practice(player=ann, game="rummy500", bots=1, level="easy")
    # A second current row for the same player is refused by the database itself (SQLite and PostgreSQL).
    other = Table.objects.create(
        game="rummy500", seats=2, pcr=1, min_buy_in=1, max_buy_in=1, created_by=ann, practice=True
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        PracticeTable.objects.create(table=other, player=ann, level="easy")
    # Ended, it no longer counts: the next start succeeds and is the current one.
    second = start_practice(player=ann, game="rummy500", bots=1, level="easy")
    current = PracticeTable.objects.filter(player=ann, current=True)
    assert list(current.values_list("table_id", flat=True)) == [second.pk]
    assert Table.objects.get(pk=first.pk).status == TableStatus.CLOSED
