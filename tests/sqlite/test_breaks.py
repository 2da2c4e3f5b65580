"""A self-excluded player on the embedded default (SQLite), over HTTP (docs/rules.md "Responsible play"): the
seat is left at the round's end with the chips back in the wallet, the registration in a tournament not yet
started is refunded, every stake is refused (403 `player.on_break`, nothing moved), and the player can still cash
out and read the wallet."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Transfer
from ledger.services import accounts, grants
from tests.factories import MultiTournamentFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import site
from tournaments.live.models import Game, GameStatus, Seat, SeatStatus
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def _stakes_refused(ann: Any, *, table: int, tournament: int) -> None:
    for path, body in (
        (f"/tables/{table}/sit/", {"buy_in": 300}),
        (f"/tournaments/{tournament}/register/", None),
        ("/wallet/top-up/", None),
    ):
        refused = ann.post(path, body, expect=403)
        assert refused["error"]["code"] == "player.on_break", refused
        assert refused["error"]["details"]["kind"] == "self_exclusion"


def test_a_self_excluded_player_is_unseated_refunded_refused_and_cashes_out_on_sqlite() -> None:
    grants.configure(enabled=True, welcome_chips=0, daily_floor=1_000_000)
    with site() as s:
        boss = s.admin()
        ann = s.player("ann", chips=5_000, admin=boss)
        bob = s.player("bob", chips=5_000, admin=boss)
        cid = s.player("cid", chips=5_000, admin=boss)
        ring = TableFactory.create(options={"turn_seconds": 30})
        multi = MultiTournamentFactory.create()
        ann.post(f"/tournaments/{multi.pk}/register/", expect=201)
        for player in (ann, bob, cid):
            player.post(f"/tables/{ring.pk}/sit/", {"buy_in": 1_000})
        game = Game.objects.get(table=ring)
        s.play(
            lambda: Game.objects.filter(pk=game.pk),
            until=lambda: Game.objects.get(pk=game.pk).status == GameStatus.PLAYING,
        )
        before = Transfer.objects.count()

        state = ann.post("/me/breaks/", {"kind": "self_exclusion", "days": 30}, expect=201)
        assert state["on_break"] is True and state["kind"] == "self_exclusion"
        # Refunded at once; the seat waits for the round's end.
        entry = TournamentEntry.objects.get(tournament=multi, player__username="ann")
        assert entry.status == EntryStatus.UNREGISTERED
        seat = Seat.objects.get(table=ring, player__username="ann")
        assert seat.status == SeatStatus.LEAVING
        assert Transfer.objects.count() == before + 1

        moved = Transfer.objects.count()
        _stakes_refused(ann, table=TableFactory.create().pk, tournament=MultiTournamentFactory.create().pk)
        assert Transfer.objects.count() == moved

        s.play(
            lambda: Game.objects.filter(pk=game.pk),
            until=lambda: Seat.objects.get(pk=seat.pk).status == SeatStatus.LEFT,
        )
        # Every chip is back in the wallet: nothing of ann's is at the table.
        wallet = ann.get("/wallet/")
        stack = Seat.objects.get(pk=seat.pk).stack_account
        assert stack is not None and stack.balance == 0
        assert wallet["balance"] == accounts.get_wallet(user=Seat.objects.get(pk=seat.pk).player).balance
        assert wallet["balance"] > 0
        # History stays readable.
        assert ann.get("/wallet/transfers/")["results"]
        _stakes_refused(ann, table=ring.pk, tournament=multi.pk)
        # The others play on.
        assert (
            Seat.objects.filter(table=ring, status__in=(SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)).count()
            == 2
        )
    assert_reconciled()


def test_a_player_on_a_break_cashes_out_between_rounds_on_sqlite() -> None:
    with site() as s:
        boss = s.admin()
        ann = s.player("ann", chips=2_000, admin=boss)
        ring = TableFactory.create()
        ann.post(f"/tables/{ring.pk}/sit/", {"buy_in": 500})
        assert ann.get("/wallet/")["balance"] == 1_500
        ann.post("/me/breaks/", {"kind": "cool_off", "days": 1}, expect=201)
        # Nobody else seated, no round: left at once, the buy-in back.
        assert Seat.objects.get(table=ring, player__username="ann").status == SeatStatus.LEFT
        assert ann.get("/wallet/")["balance"] == 2_000
        refused = ann.post(f"/tables/{ring.pk}/sit/", {"buy_in": 500}, expect=403)
        assert refused["error"]["code"] == "player.on_break"
    assert_reconciled()
