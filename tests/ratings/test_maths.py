"""The rating maths on plain values (ratings/maths.py), and greedy bots against random bots, rated."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from ratings.maths import DISPLAY_BASE, Skill, display_rating, places_from_scores, rate
from tournaments.engine import Ruleset, new_round
from tournaments.engine.bots import GreedyBot, RandomBot, play_round

skills = st.builds(
    Skill, mu=st.floats(min_value=0, max_value=50), sigma=st.floats(min_value=0.5, max_value=9)
)
scores = st.dictionaries(st.sampled_from("abcdef"), st.integers(-300, 300), min_size=2, max_size=6)


def test_a_newcomer_shows_the_base_rating() -> None:
    assert Skill().rating == DISPLAY_BASE == display_rating(25.0, 25.0 / 3)


def test_places_share_ties_and_skip_after_them() -> None:
    assert places_from_scores({"a": 10, "b": 5, "c": 5, "d": -3}) == {"a": 1, "b": 2, "c": 2, "d": 4}
    assert places_from_scores({"a": 0, "b": 0}) == {"a": 1, "b": 1}


@given(scores)
def test_places_follow_scores(result: dict[str, int]) -> None:
    places = places_from_scores(result)
    for p in result:
        for q in result:
            assert (places[p] < places[q]) == (result[p] > result[q])


@hsettings(max_examples=200)
@given(scores, st.dictionaries(st.sampled_from("abcdef"), skills))
def test_the_winner_of_a_round_does_not_lose_rating(result: dict[str, int], before: dict[str, Skill]) -> None:
    places = places_from_scores(result)
    after = rate(before, places)
    winners = [p for p, place in places.items() if place == 1]
    if len(winners) == 1:
        (winner,) = winners
        old = before.get(winner, Skill())
        assert after[winner].mu >= old.mu
        assert after[winner].rating >= old.rating
    # everyone ranked is rated, and sigma never grows from a result
    assert set(after) == set(result)
    assert all(after[p].sigma <= before.get(p, Skill()).sigma + 1e-9 for p in after)


@given(scores, st.dictionaries(st.sampled_from("abcdef"), skills))
def test_rating_is_a_pure_function(result: dict[str, int], before: dict[str, Skill]) -> None:
    places = places_from_scores(result)
    assert rate(before, places) == rate(dict(before), dict(places))


def test_one_player_is_not_a_result() -> None:
    try:
        rate({}, {"a": 1})
    except ValueError:
        return
    raise AssertionError("a one-player result was rated")


# Greedy bots against random bots: 4 of each, 300 Rummy 500 rounds of four players drawn at random from the
# eight, each round rated by its scores. Every greedy bot must end rated above every random bot.
SIM_PLAYERS = [f"greedy{i}" for i in range(4)] + [f"random{i}" for i in range(4)]
SIM_ROUNDS = 300


def simulate(seed: int) -> dict[str, Skill]:
    chooser = random.Random(seed)
    rules = Ruleset.preset("rummy500", target_score=500)
    ratings: dict[str, Skill] = {}
    for n in range(SIM_ROUNDS):
        table = chooser.sample(SIM_PLAYERS, 4)
        bots = {p: GreedyBot() if p.startswith("greedy") else RandomBot(seed * 10_000 + n) for p in table}
        end = play_round(new_round(rules, players=table, dealer=n % 4, seed=seed * 10_000 + n), bots)
        assert end.result is not None
        places = places_from_scores(dict(end.result.scores))
        ratings.update(rate({p: ratings[p] for p in table if p in ratings}, places))
    return ratings


def test_greedy_bots_end_rated_above_random_bots() -> None:
    ratings = simulate(seed=7)
    greedy = [ratings[p].rating for p in SIM_PLAYERS if p.startswith("greedy")]
    random_ = [ratings[p].rating for p in SIM_PLAYERS if p.startswith("random")]
    assert min(greedy) > max(random_), (greedy, random_)
