"""One-table tournaments on SQLite from registration to payout, over HTTP: a quick game and a sit-and-go,
created by an admin, registered by the players (the last entry starts it), played by greedy bots through the
move endpoint while the worker's task bodies run in process; one place each, prizes summing to the pool, fees
to the house, chips conserved, the ledger reconciled."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Transfer
from tests.ledger.utils import assert_reconciled
from tests.sqlite.conftest import Sides
from tests.sqlite.harness import Site
from tournaments.live.models import Game
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

BUY_IN, FEE, CHIPS = 300, 20, 1000


@pytest.mark.parametrize(
    ("kind", "extra"),
    [("quick", {"rounds": 2}), ("single", {"target_score": 60, "tiebreak_rounds": 2})],
    ids=["quick-game", "sit-and-go"],
)
def test_a_one_table_tournament_is_played_from_registration_to_payout(
    sqlite_site: Site, vendor_sides: Sides, kind: str, extra: dict[str, Any]
) -> None:
    site = sqlite_site
    admin = site.admin()
    names = ["ann", "bob", "cid"]
    players = {name: site.player(name, chips=CHIPS, admin=admin) for name in names}
    created = admin.call(
        "POST",
        "/tournaments/",
        {
            "name": f"sqlite {kind}",
            "kind": kind,
            "game": "rummy500",
            "options": {"turn_seconds": 30, "time_bank_seconds": 0},
            "buy_in": BUY_IN,
            "fee": FEE,
            "max_entrants": len(names),
            "payouts": [70, 30],
            **extra,
        },
        expect=201,
    )
    tid = created["id"]
    for player in players.values():
        player.post(f"/tournaments/{tid}/register/", expect=201)
    assert admin.get(f"/tournaments/{tid}/")["status"] == "running"

    site.play(
        lambda: Game.objects.filter(table__tournament_id=tid),
        until=lambda: Tournament.objects.get(pk=tid).status != TournamentStatus.RUNNING,
    )
    site.run_messages()

    detail = admin.get(f"/tournaments/{tid}/")
    assert detail["status"] == "finished", detail
    assert site.moves > 0
    standings = admin.get(f"/tournaments/{tid}/standings/")["results"]
    assert sorted(s["username"] for s in standings) == names
    assert all(s["place"] is not None for s in standings)
    pool = BUY_IN * len(names)
    assert sum(s["prize"] for s in standings) == pool
    report = admin.get(f"/tournaments/{tid}/payouts/")
    assert (report["entrants"], report["buy_ins"], report["fees"], report["prize_pool"]) == (
        len(names),
        pool,
        FEE * len(names),
        pool,
    )
    assert sum(p["amount"] for p in report["prizes"]) == pool
    wallets = {name: p.get("/wallet/")["balance"] for name, p in players.items()}
    assert sum(wallets.values()) == (CHIPS - FEE) * len(names)
    kinds = set(Transfer.objects.filter(tournament_id=tid).values_list("kind", flat=True))
    assert kinds == {"tournament_buy_in", "payout"}
    table = admin.get(f"/tournaments/{tid}/tables/")["results"][0]
    assert table["status"] == "closed" and table["players"] == []
    reconciliation = admin.get("/ledger/reconciliation/")
    assert reconciliation["ok"] is True and reconciliation["problems"] == []
    assert_reconciled()
    assert vendor_sides.ran("sqlite:move_context:keyed") == site.moves
    assert vendor_sides.pg() == {}
