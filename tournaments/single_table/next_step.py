"""What comes after a settled round of a one-table tournament (docs/rules.md): another round, tie-breaker rounds
among the players tied at the top, or the end with every player's place. Plain values in, plain values out: no
database, no Django. `progress` feeds it what the rounds recorded."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.tournament.payouts import place_by_keys


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
    # Play stops when the players tied at the top are at most this: 1, or a satellite's seats (every one of them
    # wins a ticket, so no tie-breaker is played; docs/rules.md "Tickets and satellites").
    stop_at: int = 1


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
    """What follows a settled round (docs/tournaments.md "Lifecycle"): more rounds; tie-breaker rounds among those tied at the top
    (everyone else is out); or the end, with every player's place."""
    if not progress.tied:
        if not main_over(progress):
            return Decision(Next.DEAL)
        top = max(progress.totals.values())
        tied = tuple(p for p, total in progress.totals.items() if total == top)
        if progress.stop_at >= len(tied) > 1:
            return Decision(Next.FINISH, tied=tied, places=_final_places(progress))
        if len(tied) > 1 and progress.tiebreak_rounds > 0:
            return Decision(Next.TIEBREAK, tied=tied)
        return Decision(Next.FINISH, tied=tied, places=_final_places(progress))
    best = max(progress.tiebreak_totals.get(p, 0) for p in progress.tied)
    leaders = [p for p in progress.tied if progress.tiebreak_totals.get(p, 0) == best]
    if len(leaders) == 1 or progress.tiebreaks_played >= progress.tiebreak_rounds:
        return Decision(Next.FINISH, tied=tuple(progress.tied), places=_final_places(progress))
    return Decision(Next.TIEBREAK, tied=tuple(progress.tied))
