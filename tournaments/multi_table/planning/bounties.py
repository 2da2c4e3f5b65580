"""The arithmetic of rebuys, the add-on and progressive knockouts (docs/rules.md "Rebuys and the add-on",
"Progressive knockout"). Pure: no database, no Django; every amount an integer number of chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.multi_table.planning.levels import level_of


def starting_bounty(*, buy_in: int, bounty_share: int) -> int:
    """An entry's bounty: floor(buy_in * bounty_share / 100) (the rest of the buy-in goes to the pool)."""
    if buy_in < 0 or not 0 <= bounty_share <= 100:
        raise ValueError("a buy-in is not negative and a share is a percent")
    return buy_in * bounty_share // 100


def in_rebuy_period(*, round_number: int | None, rounds_per_level: int, rebuy_levels: int) -> bool:
    """Is a table whose last round is `round_number` (None: none played yet) in the rebuy period, i.e. did its
    last round play at a level from 1 to `rebuy_levels`? (Between the last round of the period and the next
    deal, a player busted in that round may still rebuy.)"""
    if rebuy_levels <= 0:
        return False
    if round_number is None:
        return True
    return level_of(round_number, rounds_per_level=rounds_per_level) <= rebuy_levels


def at_addon_break(*, round_number: int | None, rounds_per_level: int, rebuy_levels: int) -> bool:
    """Is a table whose last round is `round_number` between its last round of level `rebuy_levels` and its
    first of level `rebuy_levels + 1` (the add-on break)?"""
    if rebuy_levels <= 0 or round_number is None:
        return False
    return (
        level_of(round_number, rounds_per_level=rounds_per_level) == rebuy_levels
        and level_of(round_number + 1, rounds_per_level=rounds_per_level) == rebuy_levels + 1
    )


def share_out(amount: int, winners: Sequence[str]) -> dict[str, int]:
    """`amount` split equally among `winners` (given in seat order from the dealer's left) by integer division,
    the leftover chips one each in that order."""
    if amount < 0 or not winners:
        raise ValueError("a share of a non-negative amount among at least one winner")
    each, left = divmod(amount, len(winners))
    return {name: each + (1 if i < left else 0) for i, name in enumerate(winners)}


def from_dealers_left(players: Sequence[str], dealer: int, among: set[str]) -> list[str]:
    """The players of `among`, in seat order starting at the dealer's left (`players` clockwise, `dealer` an
    index into it)."""
    n = len(players)
    return [players[(dealer + 1 + i) % n] for i in range(n) if players[(dealer + 1 + i) % n] in among]


@dataclass(frozen=True)
class Knockout:
    """One knocked-out bounty's split: `paid` site chips to each winner's wallet, `added` to each winner's
    bounty."""

    bounty: int
    paid: Mapping[str, int]
    added: Mapping[str, int]

    def as_data(self) -> dict[str, object]:
        return {
            "bounty": self.bounty,
            "half_paid": sum(self.paid.values()),
            "paid": dict(self.paid),
            "added": dict(self.added),
        }


def knockout(*, bounty: int, winners: Sequence[str]) -> Knockout:
    """The bounty of a player knocked out by `winners` (the round's winners they paid, in seat order from the
    dealer's left): ⌊bounty / 2⌋ paid at once, the rest added to the winners' bounties; each half shared by the
    tied winners, leftovers one chip each in that order."""
    half = bounty // 2
    return Knockout(bounty=bounty, paid=share_out(half, winners), added=share_out(bounty - half, winners))
