"""Ratings on SQLite: rounds played at a ring table over HTTP are rated by the ratings job, the profile and the
leaderboard answer, and a rebuild reproduces the stored ratings."""

from __future__ import annotations

import pytest

from ratings import services
from tests.ledger.utils import assert_reconciled
from tests.sqlite.harness import Site
from tournaments.live.models import Game, Round

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]

ROUNDS = 2


def test_ring_table_rounds_are_rated_on_sqlite(sqlite_site: Site, settings: object) -> None:
    site = sqlite_site
    settings.RAMINO_RATINGS_PROVISIONAL_GAMES = ROUNDS  # type: ignore[attr-defined]
    admin = site.admin()
    players = {name: site.player(name, chips=3000, admin=admin) for name in ("ann", "bob")}
    table = admin.call(
        "POST",
        "/tables/",
        {
            "game": "rummy500",
            "options": {"turn_seconds": 30},
            "seats": 2,
            "pcr": 1,
            "min_buy_in": 100,
            "max_buy_in": 2000,
        },
        expect=201,
    )
    tid = table["id"]
    for player in players.values():
        player.post(f"/tables/{tid}/sit/", {"buy_in": 1000})
    site.run_messages()
    site.play(
        lambda: Game.objects.filter(table_id=tid),
        until=lambda: Round.objects.filter(game__table_id=tid, settled=True).count() >= ROUNDS,
    )
    for player in players.values():
        player.post(f"/tables/{tid}/leave/")
    site.run_messages()
    settled = Round.objects.filter(game__table_id=tid, settled=True).count()

    assert services.update_ratings() == settled
    assert services.update_ratings() == 0
    profile = players["ann"].get("/players/bob/")
    (rating,) = profile["ratings"]
    assert rating["game"] == "rummy500" and rating["games"] == settled and rating["provisional"] is False
    board = players["ann"].get("/leaderboards/?game=rummy500")
    assert sorted(row["username"] for row in board["results"]) == ["ann", "bob"]
    assert services.differences() == []
    assert_reconciled()
