"""Rebuys, the add-on and knockouts over HTTP (docs/api.md "Tournaments"): the options created and shown, what
a player may buy now, a rebuy and the add-on, refusals with their codes, bounties in the standings and at the
tables."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import fixed_result, seated
from tests.tournaments.multi_table.rebuys.helpers import fund_bounties, job, play
from tests.tournaments.multi_table.setup.helpers import multi_settings
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db

OPTIONS = {
    "rebuy_levels": 2,
    "rebuy_cost": 100,
    "rebuy_fee": 10,
    "rebuy_chips": 1500,
    "max_rebuys": 3,
    "addon_cost": 100,
    "addon_fee": 10,
    "addon_chips": 2000,
    "addon_seconds": 90,
    "bounty_share": 50,
}


def _body(**overrides: Any) -> dict[str, Any]:
    body = multi_settings(**overrides)
    body["starts_at"] = body["starts_at"].isoformat()
    return body


def test_an_admin_creates_a_rebuy_knockout_tournament_and_everyone_sees_its_options(
    admin_user: Any, client_for: Any
) -> None:
    answer = client_for(admin_user).post("/api/v1/tournaments/", _body(**OPTIONS), format="json")
    assert answer.status_code == 201, answer.content
    shown = client_for(None).get(f"/api/v1/tournaments/{answer.json()['id']}/").json()
    assert {k: shown[k] for k in OPTIONS} == OPTIONS
    assert Tournament.objects.get(pk=shown["id"]).bounty_share == 50


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rebuy_levels": 9}, "rebuy_levels"),  # past the PCR schedule's levels
        ({"bounty_share": 101}, "bounty_share"),
        ({"rebuy_levels": 0, "rebuy_cost": 5}, "rebuy_cost"),  # no period, no rebuy options
        ({"rebuy_chips": 0}, "rebuy_chips"),
        ({"addon_fee": -1}, "addon_fee"),
    ],
)
def test_bad_options_are_400_naming_the_field(
    admin_user: Any, client_for: Any, change: dict[str, Any], field: str
) -> None:
    answer = client_for(admin_user).post(
        "/api/v1/tournaments/", _body(**{**OPTIONS, **change}), format="json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["details"]["field"] == field


def test_one_table_tournaments_take_no_rebuy_options(admin_user: Any, client_for: Any) -> None:
    body = {"name": "sng", "kind": "single", "game": "rummy500", "buy_in": 10, "max_entrants": 2}
    answer = client_for(admin_user).post(
        "/api/v1/tournaments/", {**body, "target_score": 50, "bounty_share": 10}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["error"]["details"]["field"] == "bounty_share"


def test_a_player_sees_what_they_may_buy_rebuys_and_is_refused_with_the_rules_code(
    admin_user: Any, make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables, entries = seated(
        admin_user,
        make_player,
        [[2000, 200, 1000]],
        rebuy_levels=1,
        rebuy_cost=100,
        rebuy_fee=10,
        max_rebuys=1,
        bounty_share=50,
    )
    fund_bounties(tournament, entries, 50)
    player = client_for(entries["t0p1"].player)
    url = f"/api/v1/tournaments/{tournament.pk}/rebuy/"
    now = player.get(url).json()
    assert now["can_rebuy"] and not now["can_addon"] and now["rebuy_price"] == 110 and now["bounty"] == 50
    done = player.post(url, HTTP_IDEMPOTENCY_KEY="rb-1")
    assert done.status_code == 200, done.content
    assert done.json()["rebuys"] == 1 and done.json()["chips"] == 1200 and not done.json()["can_rebuy"]
    again = player.post(url, HTTP_IDEMPOTENCY_KEY="rb-1")  # the same key: the first answer, nothing more
    assert again.status_code == 200 and again.json()["rebuys"] == 1
    refused = player.post(url, HTTP_IDEMPOTENCY_KEY="rb-2")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "tournament.rebuy_limit"
    addon = player.post(f"/api/v1/tournaments/{tournament.pk}/addon/")
    assert addon.status_code == 409 and addon.json()["error"]["code"] == "tournament.addon_closed"
    assert client_for(None).post(url).status_code in (401, 403)
    # Bounties: on each head in the standings and at the tables, won after a knockout.
    round_ = play(monkeypatch, tables[0], fixed_result({"t0p0": 150, "t0p1": -5000, "t0p2": 0}))
    # Out at once; the entrants counted (the seated helper registers nobody).
    Tournament.objects.filter(pk=tournament.pk).update(rebuy_levels=0, entrants=3)
    job(tournament, tables[0], round_.pk)
    rows = {
        r["username"]: r
        for r in client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["results"]
    }
    assert rows["t0p0"]["bounty"] == 50 + 25 and rows["t0p0"]["bounties_won"] == 25
    assert rows["t0p1"]["bounty"] == 0 and rows["t0p1"]["rebuys"] == 1
    seats = (
        client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/tables/").json()["results"][0]["players"]
    )
    assert {s["username"]: s["bounty"] for s in seats} == {"t0p0": 75, "t0p2": 50}
    assert_reconciled()
