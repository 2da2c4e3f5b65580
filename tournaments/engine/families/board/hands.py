"""What a close pays (the Hands of docs/rules.md "Board Rummy"): the highest-paying row, with the joker
reductions per tier.

A reading's own row (``arrangement``) is lifted by how the player closed: by discarding a joker
("closed with a joker") and by the jokers they threw during the round. Every row of a tier pays the
same: small 250, big 500, special 1000, less 50 (small) or 100 (big, special) for each joker among
the 14 shown tiles, three or more counting as two. The closer collects the points from each opponent.
"""

from __future__ import annotations

from dataclasses import dataclass

from .arrangement import BIG, SMALL, SPECIAL, Arrangement

__all__ = ["ROWS", "TIER_NAMES", "Hand", "classify", "points"]

# Every row of the Hands of docs/rules.md "Board Rummy" in its order: (row, tier). A hand that qualifies for
# several rows is named by the first of the highest tier.
ROWS: tuple[tuple[str, int], ...] = (
    ("simple", SMALL),
    ("mosaic", SMALL),
    ("bicolour", BIG),
    ("minor", BIG),
    ("major", BIG),
    ("joker_close", BIG),  # simple or mosaic, closed with a joker or after throwing a joker
    ("doubles", SPECIAL),
    ("grand", SPECIAL),
    ("monocolour", SPECIAL),
    ("big_joker_close", SPECIAL),  # bicolour, minor or major closed with a joker
    ("thrown_and_joker_close", SPECIAL),  # any hand after throwing a joker and closing with a joker
    ("two_jokers_thrown", SPECIAL),  # any hand after throwing two jokers
)
TIER_NAMES = {SMALL: "small", BIG: "big", SPECIAL: "special"}
_BASE = {SMALL: 250, BIG: 500, SPECIAL: 1000}
_PER_JOKER = {SMALL: 50, BIG: 100, SPECIAL: 100}
_ORDER = {row: i for i, (row, _) in enumerate(ROWS)}
_TIER = dict(ROWS)


@dataclass(frozen=True)
class Hand:
    """A classified close: the ``row`` paid, its ``tier`` and ``points``, and every row that applied."""

    row: str
    tier: int
    points: int
    rows: tuple[str, ...]
    jokers: int
    closed_with_joker: bool
    thrown: int


def points(tier: int, jokers: int) -> int:
    """A row's points with ``jokers`` among the shown tiles (three or more count as two)."""
    return _BASE[tier] - _PER_JOKER[tier] * min(jokers, 2)


def classify(reading: Arrangement, *, closed_with_joker: bool, thrown: int) -> Hand:
    """The row ``reading`` pays when closed (with a joker discarded or not) after throwing ``thrown``."""
    rows = [reading.row]
    if reading.tier == SMALL and (closed_with_joker or thrown >= 1):
        rows.append("joker_close")
    if reading.tier == BIG and closed_with_joker:
        rows.append("big_joker_close")
    if thrown >= 1 and closed_with_joker:
        rows.append("thrown_and_joker_close")
    if thrown >= 2:
        rows.append("two_jokers_thrown")
    rows.sort(key=lambda r: (-_TIER[r], _ORDER[r]))
    tier = _TIER[rows[0]]
    return Hand(
        row=rows[0],
        tier=tier,
        points=points(tier, reading.jokers),
        rows=tuple(rows),
        jokers=reading.jokers,
        closed_with_joker=closed_with_joker,
        thrown=thrown,
    )
