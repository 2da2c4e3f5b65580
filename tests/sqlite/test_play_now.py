"""Play now and the lobby's filters on SQLite (docs/tables.md "Play now"): the server seats a player at the table
where another waits, a second ask answers the same table, a stake with no table is refused and changes nothing, and
the table list filters by game, stake and free seats; the ledger reconciles."""

from __future__ import annotations

import pytest

from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Site

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

TABLE = {"game": "rummy500", "seats": 4, "pcr": 2, "min_buy_in": 100, "max_buy_in": 2000}


def test_play_now_and_the_filters_on_sqlite(sqlite_site: Site) -> None:
    site = sqlite_site
    admin = site.admin()
    empty = admin.call("POST", "/tables/", TABLE, expect=201)["id"]
    waiting = admin.call("POST", "/tables/", TABLE, expect=201)["id"]
    basic = admin.call("POST", "/tables/", {**TABLE, "game": "basic", "pcr": 1}, expect=201)["id"]
    ann = site.player("ann", chips=1000, admin=admin)
    ann.post(f"/tables/{waiting}/sit/", {"buy_in": 300})
    zoe = site.player("zoe", chips=1000, admin=admin)

    assert [t["id"] for t in zoe.get("/tables/?game=rummy500&stake=2")["results"]] == [empty, waiting]
    assert [t["id"] for t in zoe.get("/tables/?free_seats=4")["results"]] == [empty, basic]
    refused = zoe.call("POST", "/tables/play-now/", {"game": "rummy500", "stake": 9}, expect=409)
    assert refused["error"]["code"] == "table.none_open"
    assert zoe.get("/wallet/")["balance"] == 1000

    seated = zoe.call("POST", "/tables/play-now/", {"game": "rummy500", "stake": 2}, expect=201)
    assert seated["id"] == waiting and {p["username"] for p in seated["players"]} == {"ann", "zoe"}
    again = zoe.call("POST", "/tables/play-now/", {"game": "rummy500"}, expect=200)
    assert again["id"] == waiting
    assert zoe.get("/wallet/")["balance"] == 900
    assert_reconciled()
