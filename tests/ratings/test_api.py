"""GET /api/v1/players/{username}/, its history, and GET /api/v1/leaderboards/ (docs/api.md, "Players and leaderboards")."""

from __future__ import annotations

from typing import Any

import pytest

from ratings import services
from ratings.models import Rating
from ratings.serializers import LeaderboardRowSerializer
from tests.clients import api_client
from tests.factories import MultiTournamentFactory, StaffFactory
from tests.ratings.conftest import finish_round
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(make_player: Any, make_table: Any, settings: Any) -> dict[str, Any]:
    """ann beats bob in three Rummy 500 rounds; cid played one Basic round with them."""
    settings.RAMINO_RATINGS_PROVISIONAL_GAMES = 3
    users = {name: make_player(name) for name in ("ann", "bob", "cid")}
    table = make_table()
    for _ in range(3):
        finish_round(table, {"ann": 40, "bob": -20})
    finish_round(make_table(game="basic"), {"ann": 0, "bob": -5, "cid": -30})
    services.update_ratings()
    return users


def test_a_profile_shows_ratings_recent_games_and_tournaments(rated: dict[str, Any]) -> None:
    tournament = MultiTournamentFactory.create(name="Sunday multi")
    for user in rated.values():
        registration.register(user=user, tournament_id=tournament.pk)
    TournamentEntry.objects.filter(tournament=tournament, player=rated["ann"]).update(
        place=1, prize=270, status="finished"
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)

    body = api_client(None).get("/api/v1/players/ann/").json()
    assert set(body) == {"username", "joined", "ratings", "recent", "tournaments"}
    assert body["username"] == "ann"
    ratings = {r["game"]: r for r in body["ratings"]}
    assert set(ratings) == {"rummy500", "basic"}
    stored = Rating.objects.get(player=rated["ann"], family="rummy500")
    assert ratings["rummy500"] == {
        "game": "rummy500",
        "rating": stored.rating,
        "mu": stored.mu,
        "sigma": stored.sigma,
        "games": 3,
        "provisional": False,
    }
    assert ratings["basic"]["games"] == 1 and ratings["basic"]["provisional"] is True
    assert [r["game"] for r in body["recent"]] == ["basic", "rummy500", "rummy500", "rummy500"]
    assert all(r["place"] == 1 and r["tournament"] is None and r["table"] for r in body["recent"])
    # the prize: to the player and staff only
    assert body["tournaments"] == [{"id": tournament.pk, "name": "Sunday multi", "place": 1, "prize": None}]
    own = api_client(rated["ann"]).get("/api/v1/players/ann/").json()
    assert own["tournaments"][0]["prize"] == 270
    assert (
        api_client(StaffFactory.create()).get("/api/v1/players/ann/").json()["tournaments"][0]["prize"] == 270
    )
    assert api_client(rated["bob"]).get("/api/v1/players/ann/").json()["tournaments"][0]["prize"] is None


def test_an_unknown_player_is_404(rated: dict[str, Any]) -> None:
    response = api_client(None).get("/api/v1/players/nobody/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "player.not_found"


def test_the_history_lists_the_rating_after_each_result(rated: dict[str, Any]) -> None:
    body = api_client(None).get("/api/v1/players/bob/history/?game=rummy500").json()
    points = body["results"]
    assert [p["games"] for p in points] == [1, 2, 3]
    assert points[-1]["rating"] == Rating.objects.get(player=rated["bob"], family="rummy500").rating
    assert all(p["place"] == 2 for p in points)
    # a preset names its family
    assert api_client(None).get("/api/v1/players/bob/history/?game=romme").json()["count"] == 1


def test_the_leaderboard_ranks_established_players_best_first(rated: dict[str, Any]) -> None:
    body = api_client(None).get("/api/v1/leaderboards/?game=rummy500").json()
    rows = body["results"]
    assert all(set(row) == set(LeaderboardRowSerializer().fields) for row in rows)
    assert [(r["rank"], r["username"], r["games"]) for r in rows] == [(1, "ann", 3), (2, "bob", 3)]
    assert rows[0]["rating"] > rows[1]["rating"]
    # the Basic family: everyone is still provisional there
    assert api_client(None).get("/api/v1/leaderboards/?game=basic").json()["results"] == []
    # ranks run on across pages
    first = api_client(None).get("/api/v1/leaderboards/?game=rummy500&page_size=1").json()
    assert first["previous"] is None and "page=2" in first["next"]
    second = api_client(None).get("/api/v1/leaderboards/?game=rummy500&page=2&page_size=1").json()
    assert [(r["rank"], r["username"]) for r in second["results"]] == [(2, "bob")]
    assert second["next"] is None and second["previous"] is not None
    # past the end: an empty page, not an error (no count is kept)
    assert api_client(None).get("/api/v1/leaderboards/?game=rummy500&page=9").json()["results"] == []


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?game=",
        "?game=chess",
        "?game=rummy500&page=0",
        "?game=rummy500&page=x",
        "?game=basic&page_size=501",
    ],
)
def test_a_bad_leaderboard_query_is_a_400(rated: dict[str, Any], query: str) -> None:
    response = api_client(None).get(f"/api/v1/leaderboards/{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "request.invalid_parameter" and error["details"]["parameter"] in (
        "game",
        "page",
        "page_size",
    )
