"""The pure arithmetic of one-table tournaments (docs/tournaments.md "Prizes"): places from totals, what comes
after a round, the payout table applied to a pool with shared places, and the split of the unpaid pool when an
admin cancels.

Plain values in, plain values out: no database, no Django. `tournament_progress` feeds them what the rounds
recorded and posts what they answer through the ledger.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

PERCENT = 100


def place_by_keys(keys: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking, higher key first: a player's place is 1 + the number of players with a strictly
    better key, so equal keys share a place and the places after a shared one are skipped (1, 2, 2, 4)."""
    ranked = sorted(keys.values(), reverse=True)
    first_index: dict[Any, int] = {}
    for index, key in enumerate(ranked):
        first_index.setdefault(key, index)
    return {player: first_index[key] + 1 for player, key in keys.items()}


def place_by_totals(totals: Mapping[str, int]) -> dict[str, int]:
    return place_by_keys(totals)


def place_amounts(pool: int, payouts: Sequence[int], players: int) -> list[int]:
    """Chips for places 1..`players`: each place its percentage of the pool rounded down; what rounding and
    unfilled places leave over goes to first place, so the amounts always sum to the pool."""
    if pool < 0 or players < 1:
        raise ValueError("a pool is paid to at least one player and is never negative")
    amounts = [pool * pct // PERCENT for pct in list(payouts)[:players]]
    amounts += [0] * (players - len(amounts))
    amounts[0] += pool - sum(amounts)
    return amounts


def split_prizes(
    *, pool: int, payouts: Sequence[int], places: Mapping[str, int], registration_order: Sequence[str]
) -> dict[str, int]:
    """Each player's prize. `k` players sharing place `p` share the amounts of places p .. p+k-1 equally,
    rounded down, the remainder one chip each to the earlier registrations (docs/tournaments.md "Prizes")."""
    amounts = place_amounts(pool, payouts, len(places))
    order = {player: index for index, player in enumerate(registration_order)}
    by_place: dict[int, list[str]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    prizes: dict[str, int] = {}
    for place, sharers in by_place.items():
        sharers.sort(key=lambda p: order[p])
        together = sum(amounts[place - 1 : place - 1 + len(sharers)])
        each, left = divmod(together, len(sharers))
        for index, player in enumerate(sharers):
            prizes[player] = each + (1 if index < left else 0)
    return prizes


def cancel_split(*, pool: int, weights: Mapping[str, int], seat_order: Sequence[str]) -> dict[str, int]:
    """An admin cancels a running tournament: the unpaid pool to the players still in, half equally and half
    in proportion to their weight (tournament chips; at one table, their totals counted from zero up), the
    leftovers to the biggest weight, ties in seat order (docs/tournaments.md "Lifecycle"). With every weight
    zero, all equally."""
    players = list(seat_order)
    if not players:
        raise ValueError("a pool is split among at least one player")
    clamped = {p: max(0, int(weights.get(p, 0))) for p in players}
    whole = sum(clamped.values())
    equal_half = pool // 2 if whole else pool
    proportional_half = pool - equal_half
    shares = {p: equal_half // len(players) for p in players}
    if whole:
        for p in players:
            shares[p] += proportional_half * clamped[p] // whole
    biggest = max(players, key=lambda p: (clamped[p], -players.index(p)))
    shares[biggest] += pool - sum(shares.values())
    return shares


class Next(enum.Enum):
    DEAL = "deal"  # another round of the stage being played
    TIEBREAK = "tiebreak"  # tie-breaker rounds among `Decision.tied`
    FINISH = "finish"  # over: `Decision.places`


@dataclass(frozen=True)
class Decision:
    next: Next
    tied: tuple[str, ...] = ()
    places: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """A one-table tournament after a settled round."""

    kind: str  # "single" or "quick"
    totals: Mapping[str, int]  # main rounds' points
    main_rounds: int  # main rounds played
    target_score: int | None
    rounds: int | None
    tiebreak_rounds: int  # the cap
    tied: Sequence[str] = ()  # the players of the tie-breaker, if one is played
    tiebreak_totals: Mapping[str, int] = field(default_factory=dict)
    tiebreaks_played: int = 0


def _final_places(progress: Progress) -> dict[str, int]:
    # The tied players all hold the top total; among them the tie-breaker's points decide (or share).
    tied = set(progress.tied)
    return place_by_keys(
        {
            p: (total, progress.tiebreak_totals.get(p, 0) if p in tied else 0)
            for p, total in progress.totals.items()
        }
    )


def main_over(progress: Progress) -> bool:
    """The game's end (the engine's `game_over` rule with the tournament's target or rounds)."""
    if progress.kind == "single":
        assert progress.target_score is not None
        return max(progress.totals.values(), default=0) >= progress.target_score
    assert progress.rounds is not None
    return progress.main_rounds >= progress.rounds


def decide(progress: Progress) -> Decision:
    """What follows a settled round (docs/tournaments.md "Lifecycle"): more rounds; tie-breaker rounds among
    those tied at the top (everyone else is out); or the end, with every player's place."""
    if not progress.tied:
        if not main_over(progress):
            return Decision(Next.DEAL)
        top = max(progress.totals.values())
        tied = tuple(p for p, total in progress.totals.items() if total == top)
        if len(tied) > 1 and progress.tiebreak_rounds > 0:
            return Decision(Next.TIEBREAK, tied=tied)
        return Decision(Next.FINISH, tied=tied, places=_final_places(progress))
    best = max(progress.tiebreak_totals.get(p, 0) for p in progress.tied)
    leaders = [p for p in progress.tied if progress.tiebreak_totals.get(p, 0) == best]
    if len(leaders) == 1 or progress.tiebreaks_played >= progress.tiebreak_rounds:
        return Decision(Next.FINISH, tied=tuple(progress.tied), places=_final_places(progress))
    return Decision(Next.TIEBREAK, tied=tuple(progress.tied))
