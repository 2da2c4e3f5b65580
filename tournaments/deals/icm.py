"""The final-table deal's amounts (docs/rules.md "The final-table deal"), on plain values: no database, no Django.

`keep` = floor(unpaid * keep_percent / 100) is set aside to play for, where unpaid is the sum of the prizes not yet
paid. The ICM amount (Malmuth-Harville: each player's chance of each place from the current chips) applies the
unpaid prizes each scaled by (unpaid - keep) / unpaid; the chip-count amount shares unpaid - keep in proportion
to chips. Both are rounded down, the leftover chips to the biggest stack (ties: the earliest seat from the
dealer's left, which is the order of `chips`). The maths is exact (fractions), so every rounding is the rule's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

PERCENT = 100
ICM = "icm"
CHIPS = "chips"
METHODS = (ICM, CHIPS)
# The most players the exact Malmuth-Harville sum is taken over (2^n subsets): more than any final table seats.
MAX_PLAYERS = 16


@dataclass(frozen=True)
class Offer:
    """Both amounts of one deal: per player (in seat order from the dealer's left) the ICM and the chip-count
    amount, the prizes they came from, and what is kept to play for."""

    unpaid: int
    keep: int
    prizes: tuple[int, ...]
    chips: dict[str, int]
    icm: dict[str, int]
    by_chips: dict[str, int]
    # Each player's chance of each place (1 first), as exact fractions written "p/q": the computation shown.
    place_chances: dict[str, list[str]]

    def amounts(self, method: str) -> dict[str, int]:
        if method not in METHODS:
            raise ValueError(f"unknown deal method {method!r}")
        return dict(self.icm if method == ICM else self.by_chips)

    def as_record(self) -> dict[str, object]:
        """The computation a deal's transfer carries (plain JSON)."""
        return {
            "unpaid": self.unpaid,
            "keep": self.keep,
            "prizes": list(self.prizes),
            "stacks": dict(self.chips),
            "icm": dict(self.icm),
            "chip_count": dict(self.by_chips),
            "place_chances": {p: list(c) for p, c in self.place_chances.items()},
        }


def keep_of(unpaid: int, keep_percent: int) -> int:
    if unpaid < 0 or not 0 <= keep_percent <= PERCENT:
        raise ValueError("unpaid is never negative and the kept share is a percentage")
    return unpaid * keep_percent // PERCENT


def place_chances(chips: Mapping[str, int]) -> dict[str, list[Fraction]]:
    """Malmuth-Harville: the chance of first place is a player's share of the chips; the chance of each next
    place, given who took the places above, is the share of the chips still in play. Exact, over subsets."""
    players = list(chips)
    n = len(players)
    if not 1 <= n <= MAX_PLAYERS:
        raise ValueError(f"ICM takes 1 to {MAX_PLAYERS} players")
    stacks = [int(chips[p]) for p in players]
    if any(s <= 0 for s in stacks):
        raise ValueError("every player at a deal holds chips")
    total = sum(stacks)
    chances = [[Fraction(0)] * n for _ in range(n)]
    # reach[mask]: the chance that the players in `mask` took the top |mask| places (in any order).
    reach: dict[int, Fraction] = {0: Fraction(1)}
    for size in range(n):
        following: dict[int, Fraction] = {}
        for mask, chance in reach.items():
            left = total - sum(stacks[i] for i in range(n) if mask >> i & 1)
            for i in range(n):
                if mask >> i & 1:
                    continue
                step = chance * Fraction(stacks[i], left)
                chances[i][size] += step
                following[mask | 1 << i] = following.get(mask | 1 << i, Fraction(0)) + step
        reach = following
    return {p: chances[i] for i, p in enumerate(players)}


def _leftover_to_biggest(amounts: dict[str, int], chips: Mapping[str, int], whole: int) -> dict[str, int]:
    players = list(chips)
    biggest = max(players, key=lambda p: (chips[p], -players.index(p)))
    amounts[biggest] += whole - sum(amounts.values())
    return amounts


def offer(*, chips: Mapping[str, int], prizes: Sequence[int], keep_percent: int) -> Offer:
    """The deal on `chips` (player → stack, in seat order from the dealer's left) over the unpaid `prizes`
    (place 1 first; one per player, missing places worth 0)."""
    players = list(chips)
    if len(prizes) > len(players):
        raise ValueError("no more unpaid prizes than players")
    places = [int(p) for p in prizes] + [0] * (len(players) - len(prizes))
    if any(p < 0 for p in places):
        raise ValueError("a prize is never negative")
    unpaid = sum(places)
    keep = keep_of(unpaid, keep_percent)
    shared = unpaid - keep
    chances = place_chances(chips)
    icm: dict[str, int] = {}
    for p in players:
        equity = sum((c * prize for c, prize in zip(chances[p], places, strict=True)), Fraction(0))
        scaled = equity * shared / unpaid if unpaid else Fraction(0)
        icm[p] = scaled.numerator // scaled.denominator
    total = sum(int(chips[p]) for p in players)
    by_chips = {p: shared * int(chips[p]) // total for p in players}
    return Offer(
        unpaid=unpaid,
        keep=keep,
        prizes=tuple(places),
        chips={p: int(chips[p]) for p in players},
        icm=_leftover_to_biggest(icm, chips, shared),
        by_chips=_leftover_to_biggest(by_chips, chips, shared),
        place_chances={p: [f"{c.numerator}/{c.denominator}" for c in chances[p]] for p in players},
    )


def unpaid_prizes(*, place_amounts: Sequence[int], players_left: int) -> list[int]:
    """The prizes not yet paid: those of places 1..`players_left` (the places below belong to the busted)."""
    return [int(a) for a in list(place_amounts)[:players_left]]
