"""With a real Celery worker: rounds start by themselves, a silent player is auto-played by the worker,
marked absent after `max_timeouts`, and unseated after the round with the chips back in the wallet."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import expected_transfers, simple_move
from tournaments import tasks
from tournaments.live.models import Game, GameStatus, MoveLog, Round, Seat, SeatStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def wait_for(predicate: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_silent_player_is_auto_played_then_absent_then_unseated(
    celery_worker_process: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    # Bob's silence costs `turn_seconds` a timeout, twice, then the server plays him at once. Ann's turns are
    # played by this loop, a read and a move over HTTP each: 4 s leaves room for both on a loaded machine (at 1 s
    # a CI run under load let her clock run out once, and the server played her).
    table = make_table(
        options={"turn_seconds": 4, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6}
    )
    ann, bob = make_player("ann"), make_player("bob")
    ann_client = client_for(ann)
    for user in (ann, bob):
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}).status_code == 200
    game = Game.objects.get(table=table)
    # the worker deals round 1 by itself
    wait_for(lambda: Round.objects.filter(game=game).exists(), 30, "round 1 to start")
    round_ = Round.objects.get(game=game)
    became_absent_at: int | None = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        round_.refresh_from_db()
        if round_.ended_at is not None:
            break
        # (None once the worker has ended the round and unseated him)
        bob_seat = Seat.objects.filter(table=table, player=bob, status__in=["active", "absent"]).first()
        if bob_seat is not None and bob_seat.status == SeatStatus.ABSENT and became_absent_at is None:
            became_absent_at = MoveLog.objects.filter(game=game, player="bob", server_played=True).count()
            assert bob_seat.timeouts_in_row == 2
        view = ann_client.get(f"/api/v1/games/{game.pk}/").json()
        if view.get("legal_moves") and view["turn"]["player"] == "ann":
            response = ann_client.post(
                f"/api/v1/games/{game.pk}/moves/", {**simple_move(view), "expected_version": view["version"]}
            )
            assert response.status_code in (200, 409), response.content
        else:
            time.sleep(0.05)
    round_.refresh_from_db()
    assert round_.ended_at is not None, "the round did not end"
    # counting stops once a seat is absent: exactly max_timeouts were counted over his many turns
    bob_final = Seat.objects.get(table=table, player=bob)
    assert (bob_final.timeouts_in_row, bob_final.timeouts_in_round) == (2, 2)
    assert became_absent_at is None or became_absent_at >= 2
    bob_moves = MoveLog.objects.filter(round=round_, player="bob")
    assert bob_moves.exists() and not bob_moves.filter(server_played=False).exists()
    assert not MoveLog.objects.filter(round=round_, player="ann", server_played=True).exists()
    # settled once, by PCR on the recorded scores; bob is unseated with his chips back in the wallet
    wait_for(lambda: Round.objects.get(pk=round_.pk).settled, 10, "settlement")
    round_.refresh_from_db()
    assert round_.transfers == expected_transfers(round_)
    bob_seat = Seat.objects.get(table=table, player=bob)
    assert bob_seat.status == SeatStatus.LEFT and bob_seat.stack_account.balance == 0
    bob_net = sum(t["amount"] for t in round_.transfers if t["to"] == "bob") - sum(
        t["amount"] for t in round_.transfers if t["from"] == "bob"
    )
    assert accounts.get_wallet(user=bob).balance == 10_000 + bob_net
    # alone at the table: no next round
    time.sleep(1)
    assert Game.objects.get(pk=game.pk).status == GameStatus.WAITING
    assert Round.objects.filter(game=game).count() == 1
    assert ann_client.post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    assert_reconciled()


def test_the_worker_puts_a_table_that_cannot_deal_in_error_once(
    celery_worker_process: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    """The issue's table (options from before they were checked): the worker's round start fails, the table
    goes to `error` with every seat cashed out, and nothing tries again."""
    from tournaments.live.models import GameEvent, Table, TableStatus

    table = make_table()
    Table.objects.filter(pk=table.pk).update(options={"time_bank_seconds": 1e308})
    ann, bob = make_player("ann"), make_player("bob")
    for user in (ann, bob):
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}).status_code == 200
    wait_for(lambda: Table.objects.get(pk=table.pk).status == TableStatus.ERROR, 30, "the table to fail")
    game = Game.objects.get(table=table)
    wait_for(lambda: Game.objects.get(pk=game.pk).status == GameStatus.CLOSED, 10, "the game to close")
    assert "time_bank_seconds" in Table.objects.get(pk=table.pk).error
    assert not Round.objects.filter(game=game).exists()
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.LEFT).exists()
    assert accounts.get_wallet(user=ann).balance == accounts.get_wallet(user=bob).balance == 10_000
    # the sweeper finds nothing to retry, and a round start sent anyway changes nothing
    assert tasks.sweep_all(grace_seconds=-60) == 0
    tasks.start_round.delay(game.pk)
    time.sleep(1.5)
    assert list(GameEvent.objects.filter(game=game, kind="table_error").values_list("kind", flat=True)) == [
        "table_error"
    ]
    assert Game.objects.get(pk=game.pk).version == GameEvent.objects.filter(game=game).count()
    assert_reconciled()
