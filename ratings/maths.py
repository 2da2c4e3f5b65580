"""The rating maths, on plain values: a game result is a ranking of players (place 1 best, ties share a
place), and each player's skill is a Weng-Lin (Plackett-Luce) belief (mu, sigma) updated by `openskill`.

No Django here: the service loads ratings, calls `rate`, saves (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's defaults (a new player is mu 25, sigma 25/3; tau 25/300 keeps a rating able to move), with sigma never
# growing from a result: tau alone could raise a settled player's sigma, and so lower a winner's mu - 3 sigma.
MODEL = PlackettLuce(limit_sigma=True)
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
# The shown rating: the conservative estimate mu - 3 sigma (0 for a newcomer), scaled so a newcomer shows 1000
# and one point of mu is 40 points, the size of step players know from Elo-style ladders.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def rating(self) -> int:
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def places_from_scores(scores: Mapping[str, int]) -> dict[str, int]:
    """Higher score, better place; equal scores share the better place (competition ranking: 1, 2, 2, 4)."""
    return {
        player: 1 + sum(1 for other in scores.values() if other > score) for player, score in scores.items()
    }


def rate(skills: Mapping[str, Skill], places: Mapping[str, int]) -> dict[str, Skill]:
    """Every ranked player's skill after one result. `places` names at least two players; a player missing from
    `skills` starts from the default."""
    if len(places) < 2:
        raise ValueError("a rated result ranks at least two players")
    order: Sequence[str] = sorted(places, key=lambda p: (places[p], p))
    teams = [[MODEL.rating(mu=skills.get(p, Skill()).mu, sigma=skills.get(p, Skill()).sigma)] for p in order]
    rated = MODEL.rate(teams, ranks=[float(places[p]) for p in order])
    return {
        player: Skill(mu=team[0].mu, sigma=team[0].sigma) for player, team in zip(order, rated, strict=True)
    }
