"""What the player client polls to stay live (docs/api.md "Staying live"): the lobby's version with
`If-None-Match` (304 while nothing changed; a sit, a registration or a status change changes it), the
caller's own tournaments (`?registered=true`, with `my_table` once they play), and a tournament's structure and
payout table with amounts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.multi_table.reads import helpers as multi
from tests.tournaments.single_table.helpers import game_of, new_tournament
from tournaments.live.tables import services as tables
from tournaments.tournament import admin_actions, registration

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

VERSION = "/api/v1/lobby/version/"


@pytest.fixture(autouse=True)
def _fresh_digest(settings: Any) -> None:
    settings.RAMINO_LOBBY_DIGEST_SECONDS = 0  # every call computes it (the cache's second is not under test)


def _version(client: Any, etag: str | None = None) -> Any:
    return client.get(VERSION, **({"HTTP_IF_NONE_MATCH": etag} if etag else {}))


def test_the_lobby_version_answers_304_until_a_sit_a_registration_or_a_start(
    make_player: Any, admin_user: Any, make_table: Any, client_for: Any
) -> None:
    anyone = client_for(None)
    first = _version(anyone)
    assert first.status_code == 200 and first["ETag"] == f'"{first.json()["version"]}"'
    etag = first["ETag"]
    unchanged = _version(anyone, etag)
    assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == etag

    table = make_table()
    after_table = _version(anyone, etag)
    assert after_table.status_code == 200
    etag = after_table["ETag"]
    tables.sit(user=make_player("ann"), table_id=table.pk, buy_in=table.min_buy_in)
    after_sit = _version(anyone, etag)
    assert after_sit.status_code == 200 and after_sit["ETag"] != etag
    etag = after_sit["ETag"]

    tournament = new_tournament(admin_user, max_entrants=2)
    etag = _version(anyone)["ETag"]
    registration.register(user=make_player("bob"), tournament_id=tournament.pk)
    after_register = _version(anyone, etag)
    assert after_register.status_code == 200
    etag = after_register["ETag"]
    registration.register(user=make_player("cid"), tournament_id=tournament.pk)  # fills it: it starts
    assert _version(anyone, etag).status_code == 200
    assert _version(anyone, _version(anyone)["ETag"]).status_code == 304


def test_my_tournaments_name_my_table_once_it_starts(
    make_player: Any, admin_user: Any, client_for: Any
) -> None:
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    mine = new_tournament(admin_user, max_entrants=2, name="Ann's")
    new_tournament(admin_user, max_entrants=2, name="Not ann's")
    url = "/api/v1/tournaments/?registered=true&status=registering,running,paused"
    assert client_for(ann).get(url).json()["results"] == []
    registration.register(user=ann, tournament_id=mine.pk)
    listed = client_for(ann).get(url)
    (row,) = listed.json()["results"]
    assert row["name"] == "Ann's" and row["status"] == "registering" and row["my_table"] is None
    assert client_for(ann).get(url, HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304
    # Someone else's registration elsewhere changes nothing for ann.
    other = new_tournament(admin_user, max_entrants=3)
    registration.register(user=cid, tournament_id=other.pk)
    assert client_for(ann).get(url, HTTP_IF_NONE_MATCH=listed["ETag"]).status_code == 304

    registration.register(user=bob, tournament_id=mine.pk)  # full: it starts
    started = client_for(ann).get(url, HTTP_IF_NONE_MATCH=listed["ETag"])
    assert started.status_code == 200
    (row,) = started.json()["results"]
    assert row["status"] == "running" and row["my_table"] == game_of(mine).table_id
    assert client_for(cid).get(url).json()["results"][0]["my_table"] is None  # cid's is still registering
    assert client_for(None).get(url).json()["results"] == []  # anonymous: nobody's


def test_registered_must_be_true_or_false(client_for: Any, make_player: Any) -> None:
    answer = client_for(make_player("ann")).get("/api/v1/tournaments/?registered=yes")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid_parameter"
    assert answer.json()["error"]["details"] == {"parameter": "registered"}


def test_the_structure_and_the_payout_table_with_amounts(
    make_player: Any, admin_user: Any, client_for: Any
) -> None:
    sit_and_go = new_tournament(admin_user, max_entrants=3, payouts=[70, 30], buy_in=100)
    url = f"/api/v1/tournaments/{sit_and_go.pk}/"
    empty = client_for(None).get(url).json()
    assert empty["levels"] == [] and empty["payout_table"] == [{"place": 1, "percent": 100, "amount": 0}]
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=sit_and_go.pk)
    two = client_for(None).get(url).json()
    assert two["payout_table"] == [
        {"place": 1, "percent": 70, "amount": 140},
        {"place": 2, "percent": 30, "amount": 60},
    ]

    sunday = multi.multi_tournament(
        admin_user, payouts=[50, 30, 20], guarantee=1001, pcr_schedule=[1, 2, 3, 5, 8]
    )
    answer = client_for(None).get(f"/api/v1/tournaments/{sunday.pk}/").json()
    assert answer["levels"] == [
        {"level": 1, "pcr": 1, "rounds": 2},
        {"level": 2, "pcr": 2, "rounds": 2},
        {"level": 3, "pcr": 3, "rounds": 2},
        {"level": 4, "pcr": 5, "rounds": 2},
        {"level": 5, "pcr": 8, "rounds": 2},
    ]
    # Nobody yet: the guarantee is the pool, all of it (100 %) to the one place that can be filled.
    assert answer["payout_table"] == [{"place": 1, "percent": 100, "amount": 1001}]
    multi.register_all(sunday, [make_player(n) for n in ("dan", "eve", "fay")])
    three = client_for(None).get(f"/api/v1/tournaments/{sunday.pk}/").json()
    # 50/30/20 of 1001 rounded down; the chip rounding leaves goes to first place.
    assert [p["amount"] for p in three["payout_table"]] == [501, 300, 200]
    assert three["late_registration_open"] is False


def test_a_cancelled_sit_and_go_shows_its_refunds_in_the_list(
    make_player: Any, admin_user: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    tournament = new_tournament(admin_user, max_entrants=3)
    registration.register(user=ann, tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    detail = client_for(ann).get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert detail["status"] == "cancelled" and detail["registered"] is False and detail["my_table"] is None
    events = client_for(ann).get(f"/api/v1/tournaments/{tournament.pk}/events/").json()["events"]
    assert events[-1]["kind"] == "cancelled" and events[-1]["data"]["refunded"] == 1
