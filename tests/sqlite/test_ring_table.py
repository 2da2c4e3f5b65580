"""A ring table on SQLite through the move path, over HTTP: three players sit, rounds are dealt by the start
task, every move goes through `POST /games/{id}/moves/` (keyed, replayed, refused and kept, unkeyed), one turn
is played by the clock, the game view, events and a long-poll are read, the rounds are settled, everyone
leaves; chips are conserved and the ledger reconciles. The SQLite side of each vendor branch on that path ran
and no PostgreSQL side did."""

from __future__ import annotations

import time
import uuid

import pytest

from ledger.models import Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.sqlite.conftest import Sides
from tests.sqlite.harness import Site
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.messaging import wakeups
from tournaments.live.models import Game, GameStatus, IdempotentRequest, MoveLog, Round

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

CHIPS = 5000
BUY_IN = 1500
ROUNDS = 2


def _game(table_id: int) -> Game:
    return Game.objects.get(table_id=table_id)


def test_a_ring_table_plays_rounds_through_the_move_path(sqlite_site: Site, vendor_sides: Sides) -> None:
    site = sqlite_site
    admin = site.admin()
    players = {name: site.player(name, chips=CHIPS, admin=admin) for name in ("ann", "bob", "cid")}
    watcher = site.player("dan", chips=0, admin=admin)
    table = admin.call(
        "POST",
        "/tables/",
        {
            "game": "rummy500",
            "options": {"turn_seconds": 30, "time_bank_seconds": 0},
            "seats": 4,
            "pcr": 1,
            "min_buy_in": 100,
            "max_buy_in": 2000,
        },
        expect=201,
    )
    tid = table["id"]

    # A sit and its retry with the same key: one buy-in (the kept answer, read back by its key).
    key = uuid.uuid4().hex
    first = players["ann"].call("POST", f"/tables/{tid}/sit/", {"buy_in": BUY_IN}, key=key)
    again = players["ann"].call("POST", f"/tables/{tid}/sit/", {"buy_in": BUY_IN}, key=key)
    assert first == again
    assert players["ann"].get("/wallet/")["balance"] == CHIPS - BUY_IN
    for name in ("bob", "cid"):
        players[name].post(f"/tables/{tid}/sit/", {"buy_in": BUY_IN})

    site.run_messages()  # the deal
    game = _game(tid)
    assert game.status == GameStatus.PLAYING and Round.objects.filter(game=game).count() == 1
    for name, player in players.items():
        view = player.get(f"/games/{game.pk}/")
        assert view["round"] == 1 and len(view["hand"]) > 0, name
        assert ("legal_moves" in view) == (name == game.turn_player)
    spectator = watcher.get(f"/games/{game.pk}/")
    assert "hand" not in spectator and "legal_moves" not in spectator

    # A keyed move, then its retry: the move log's answer, nothing played twice.
    assert game.state is not None
    state = engine.state_from_dict(game.state)
    mover = game.turn_player
    body = {**engine_bots.greedy_move(state, mover), "expected_version": game.version}
    key = uuid.uuid4().hex
    answer = players[mover].call("POST", f"/games/{game.pk}/moves/", body, key=key)
    assert players[mover].call("POST", f"/games/{game.pk}/moves/", body, key=key) == answer
    assert MoveLog.objects.filter(game=game).count() == 1

    # A refused move (stale version) under a key, then its retry: the kept refusal is answered again.
    game.refresh_from_db()
    stale = {**body, "expected_version": game.version - 1}
    key = uuid.uuid4().hex
    refusal = players[mover].call("POST", f"/games/{game.pk}/moves/", stale, key=key, expect=409)
    assert players[mover].call("POST", f"/games/{game.pk}/moves/", stale, key=key, expect=409) == refusal
    assert refusal["error"]["code"] == "game.stale_version"
    assert IdempotentRequest.objects.filter(key=key).count() == 1

    # A move without a key, and a turn the clock plays.
    site.move(_game(tid), key=None)
    game = _game(tid)
    if game.claims_deadline is None:
        before = game.version
        assert site.fire_turn_clock(game)
        assert _game(tid).version > before
        assert MoveLog.objects.filter(game=game, server_played=True).exists()

    # Events: the whole log, and a long-poll that waits by reading again (no listener on SQLite).
    events = players["bob"].get(f"/games/{game.pk}/events/?after=0")
    assert events["events"] and events["events"][0]["kind"] == "round_started"
    version = _game(tid).version
    assert not wakeups.enabled() and wakeups.current_hub() is None
    started = time.monotonic()
    waited = players["bob"].get(f"/games/{game.pk}/events/?after={version}&wait=1")
    assert waited["events"] == [] and time.monotonic() - started >= 0.9
    assert watcher.get(f"/games/{game.pk}/events/?after=0", expect=403)["error"]["code"]

    site.play(
        lambda: Game.objects.filter(table_id=tid),
        until=lambda: Round.objects.filter(game__table_id=tid, settled=True).count() >= ROUNDS,
    )
    for player in players.values():
        player.post(f"/tables/{tid}/leave/")
    site.run_messages()

    rounds = list(Round.objects.filter(game__table_id=tid, ended_at__isnull=False))
    assert len(rounds) == ROUNDS and all(r.settled for r in rounds)
    for round_ in rounds:
        assert Transfer.objects.filter(kind=TransferKind.SETTLEMENT, round_id=round_.pk).count() == 1
    history = players["ann"].get(f"/games/{game.pk}/rounds/")
    assert [r["number"] for r in history["results"]][:ROUNDS] == [1, 2]
    wallets = [p.get("/wallet/")["balance"] for p in players.values()]
    assert sum(wallets) == 3 * CHIPS
    assert admin.get(f"/tables/{tid}/")["players"] == []
    reconciliation = admin.get("/ledger/reconciliation/")
    assert reconciliation["ok"] is True and reconciliation["problems"] == []
    assert_reconciled()

    assert vendor_sides.ran("sqlite:move_context:keyed") >= 3
    assert vendor_sides.ran("sqlite:move_context:unkeyed") >= 1
    assert vendor_sides.ran("sqlite:ledger_post") >= 3 + ROUNDS + 3
    assert vendor_sides.ran("sqlite:rows_execute_one_by_one") >= site.moves
    assert vendor_sides.pg() == {}
