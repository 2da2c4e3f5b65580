"""What profiles and leaderboards do not tell (issue 31, defect 11): staff and admins have no public profile
and are in no leaderboard; a tournament's prizes are public in its standings while a profile shows a player's
prizes only to the player and staff (docs/api.md "Players and leaderboards", docs/ratings.md "Profiles")."""

from __future__ import annotations

from typing import Any

import pytest

from ratings import services
from tests.clients import api_client
from tests.factories import MultiTournamentFactory, StaffFactory
from tests.ratings.conftest import finish_round
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def privileged(make_player: Any, make_table: Any, settings: Any) -> dict[str, Any]:
    """`admin` (a superuser), `staff` and ann, each rated past the provisional games at Rummy 500."""
    settings.RAMINO_RATINGS_PROVISIONAL_GAMES = 2
    users = {
        "admin": make_player("admin", is_staff=True, is_superuser=True),
        "staff": make_player("staff", is_staff=True),
        "ann": make_player("ann"),
        "bob": make_player("bob"),
    }
    table = make_table()
    for _ in range(3):
        finish_round(table, {"admin": 50, "staff": 30, "ann": 10, "bob": -20})
    services.update_ratings()
    return users


@pytest.mark.parametrize("name", ["admin", "staff"])
def test_staff_and_admins_have_no_public_profile(privileged: dict[str, Any], name: str) -> None:
    for viewer in (None, privileged["ann"], privileged[name]):
        for path in (f"/api/v1/players/{name}/", f"/api/v1/players/{name}/history/?game=rummy500"):
            response = api_client(viewer).get(path)
            assert response.status_code == 404, (path, response.content)
            # exactly as an unknown name answers: nothing tells a privileged name from a free one
            unknown = api_client(viewer).get(path.replace(name, "nobody"))
            assert response.json()["error"]["code"] == unknown.json()["error"]["code"] == "player.not_found"
    assert api_client(None).get("/api/v1/players/ann/").status_code == 200


def test_staff_and_admins_are_in_no_leaderboard(privileged: dict[str, Any]) -> None:
    rows = api_client(None).get("/api/v1/leaderboards/?game=rummy500").json()["results"]
    assert [r["username"] for r in rows] == ["ann", "bob"]
    assert [r["rank"] for r in rows] == [1, 2]


def test_prizes_are_public_in_standings_and_the_profile_shows_them_to_the_player_and_staff(
    privileged: dict[str, Any],
) -> None:
    """The one rule: a finished tournament's places and prizes are its public result (its standings; the prizes
    follow from its public payouts and prize pool anyway); a profile does not total a person's winnings for
    others."""
    ann = privileged["ann"]
    tournament = MultiTournamentFactory.create(name="Sunday multi")
    registration.register(user=ann, tournament_id=tournament.pk)
    TournamentEntry.objects.filter(tournament=tournament, player=ann).update(
        place=1, prize=270, status="finished"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)

    standings = api_client(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["results"]
    assert [(s["username"], s["place"], s["prize"]) for s in standings] == [("ann", 1, 270)]
    shown = {
        "anonymous": api_client(None),
        "another player": api_client(privileged["bob"]),
        "ann": api_client(ann),
        "staff": api_client(StaffFactory.create()),
        "admin": api_client(privileged["admin"]),
    }
    prizes = {
        who: c.get("/api/v1/players/ann/").json()["tournaments"][0]["prize"] for who, c in shown.items()
    }
    assert prizes == {"anonymous": None, "another player": None, "ann": 270, "staff": 270, "admin": 270}
