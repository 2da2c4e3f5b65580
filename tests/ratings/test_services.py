"""Results recorded once and applied in order; a rebuild reproduces every stored number (ratings/services.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from ratings import services
from ratings.maths import Skill, places_from_scores, rate
from ratings.models import RatedResult, Rating, RatingChange
from tests.clients import api_client
from tests.factories import MultiTournamentFactory
from tests.ledger.utils import assert_reconciled
from tests.ratings.conftest import finish_round
from tests.tournaments.live import test_play as play
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.tournament import registration
from tournaments.tournament.models import TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def ratings_of(family: str = "rummy500") -> dict[str, tuple[float, float, int, int]]:
    return {
        r.player.username: (r.mu, r.sigma, r.rating, r.games)
        for r in Rating.objects.filter(family=family).select_related("player")
    }


def test_a_round_played_at_a_ring_table_rates_its_players(make_player: Any, make_table: Any) -> None:
    table = make_table(pcr=2)
    users = {name: make_player(name) for name in ("ann", "bob")}
    clients = {n: api_client(u) for n, u in users.items()}
    for client in clients.values():
        assert client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500}).status_code == 200
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = play.play_round_over_http({"table": table, "game": game, "users": users, "clients": clients})

    assert services.update_ratings() == 1
    result = RatedResult.objects.get(round=round_)
    assert result.family == "rummy500" and result.game == "rummy500" and result.table_id == table.pk
    assert round_.scores is not None
    places = places_from_scores(round_.scores)
    assert result.places == {str(users[name].pk): place for name, place in places.items()}
    expected = rate({}, places)
    assert ratings_of() == {
        name: (expected[name].mu, expected[name].sigma, expected[name].rating, 1) for name in ("ann", "bob")
    }
    assert RatingChange.objects.filter(result=result).count() == 2
    # running the job again (a duplicated task, the next beat) changes nothing
    before = ratings_of()
    assert services.update_ratings() == 0
    assert ratings_of() == before and RatedResult.objects.count() == 1
    assert_reconciled()


def test_household_rummy_500_shares_the_rummy_500_rating(make_player: Any, make_table: Any) -> None:
    for name in ("ann", "bob"):
        make_player(name)
    finish_round(make_table(game="rummy500_household"), {"ann": 30, "bob": -10})
    services.update_ratings()
    assert set(ratings_of("rummy500")) == {"ann", "bob"}
    assert RatedResult.objects.get().game == "rummy500_household"


def test_private_tables_tournament_tables_and_redeals_are_not_rated(
    make_player: Any, make_table: Any, settings: Any
) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    private = make_table(private=True, creator=ann)
    finish_round(private, {"ann": 50, "bob": -50})
    board = make_table(game="board")
    finish_round(board, {"ann": 0, "bob": 0}, redeal=True)
    assert services.update_ratings() == 0 and not Rating.objects.exists()
    # an admin may rate private tables; the next round there is rated
    settings.RAMINO_RATINGS_PRIVATE_TABLES = True
    finish_round(private, {"ann": 20, "bob": 10})
    assert services.update_ratings() >= 1
    assert set(ratings_of()) == {"ann", "bob"} and bob.pk


def test_a_finished_tournament_rates_its_entrants_by_place(make_player: Any) -> None:
    tournament = MultiTournamentFactory.create()
    users = [make_player(name) for name in ("ann", "bob", "cid", "dan")]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    for user, place in zip(users, (2, 1, 3, 3), strict=True):
        TournamentEntry.objects.filter(tournament=tournament, player=user).update(
            place=place, status="busted"
        )
    # not final yet: nothing is rated while it runs
    assert services.update_ratings() == 0
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    assert services.update_ratings() == 1
    result = RatedResult.objects.get(tournament=tournament)
    assert result.places == {str(u.pk): p for u, p in zip(users, (2, 1, 3, 3), strict=True)}
    rated = ratings_of()
    assert rated["bob"][2] > rated["ann"][2] > rated["cid"][2] == rated["dan"][2]
    assert_reconciled()


def test_the_rebuild_command_reproduces_the_stored_ratings(make_player: Any, make_table: Any) -> None:
    for name in ("ann", "bob", "cid"):
        make_player(name)
    table = make_table()
    for scores in ({"ann": 10, "bob": 5, "cid": -1}, {"ann": -3, "bob": 8, "cid": 8}, {"ann": 1, "cid": 0}):
        finish_round(table, scores)
        services.update_ratings()
    stored = ratings_of()
    history = list(
        RatingChange.objects.order_by("sequence", "player_id").values_list("rating_after", flat=True)
    )
    call_command("rebuild_ratings", "--check")
    call_command("rebuild_ratings")
    assert ratings_of() == stored
    assert (
        list(RatingChange.objects.order_by("sequence", "player_id").values_list("rating_after", flat=True))
        == history
    )
    # a stored rating that no longer matches its results is caught
    Rating.objects.filter(player__username="ann").update(rating=1)
    with pytest.raises(CommandError):
        call_command("rebuild_ratings", "--check")


results_strategy = st.lists(
    st.dictionaries(
        st.sampled_from(["ann", "bob", "cid", "dan"]), st.integers(-100, 100), min_size=2, max_size=4
    ),
    min_size=1,
    max_size=12,
)


@hsettings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(results=results_strategy, batches=st.integers(1, 4))
def test_incremental_updates_equal_the_rebuild_and_the_pure_replay(
    results: list[dict[str, int]],
    batches: int,
    make_player: Callable[..., Any],
    make_table: Any,
    settings: Any,
) -> None:
    # Each example starts from no ratings; the scan starts after the earlier examples' rounds.
    settings.RAMINO_RATINGS_EVENT_MARGIN = 0
    services.update_ratings()
    RatingChange.objects.all().delete()
    RatedResult.objects.all().delete()
    Rating.objects.all().delete()
    for name in ("ann", "bob", "cid", "dan"):
        if not get_user_model().objects.filter(username=name).exists():
            make_player(name)
    table = make_table()
    for i, scores in enumerate(results):
        finish_round(table, scores)
        if i % batches == 0:
            services.update_ratings()
    services.update_ratings()
    incremental = ratings_of()
    # the pure maths over the same results in the same order
    skills: dict[str, Skill] = {}
    games: dict[str, int] = {}
    for scores in results:
        skills.update(rate({p: skills[p] for p in scores if p in skills}, places_from_scores(scores)))
        for p in scores:
            games[p] = games.get(p, 0) + 1
    assert incremental == {p: (s.mu, s.sigma, s.rating, games[p]) for p, s in skills.items()}
    assert services.differences() == []
    services.rebuild()
    assert ratings_of() == incremental
