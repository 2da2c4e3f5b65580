"""The best reading of a closing board (docs/rules.md "Board Rummy"): ``find_arrangement(tiles)``.

A close shows 14 tiles as (a) a partition into combinations — runs of 3+ consecutive tiles of one
colour (``12-13-1`` and the 14-tile ``1…13-1`` allowed, never ``13-1-2``) and groups of 3-4 tiles of one
number in different colours —, (b) seven pairs of identical tiles (a joker pairs with any tile), or
(c) a mosaic. A joker stands for any tile. The server scores the best reading, so the search is exact:
it tries every partition and every tile a joker may stand for, and stops as soon as no reading left
could reach a higher tier than the best found (``tier_bound``).

A reading's own row (``classify`` adds what the discard and the thrown jokers add): special
(``doubles``, ``grand``, ``monocolour``) > big (``bicolour``, ``minor``, ``major``) > small (``simple``,
``mosaic``). The points of a row depend only on its tier and on the jokers among the 14 tiles, which
every reading shares, so the best reading is the one of the highest tier.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise, product

from ...cards import JOKER, NATURAL_TILES, TILE_COLOURS, is_joker, parse_tile

__all__ = ["BIG", "SMALL", "SPECIAL", "Arrangement", "find_arrangement"]

SMALL, BIG, SPECIAL = 0, 1, 2
# Each tier's rows in the order of the Hands of docs/rules.md "Board Rummy": a reading that qualifies for two
# rows of one tier is named by the first.
READING_ROWS = {
    SMALL: ("simple", "mosaic"),
    BIG: ("bicolour", "minor", "major"),
    SPECIAL: ("doubles", "grand", "monocolour"),
}
MINOR = frozenset(range(1, 8))
MAJOR = frozenset((*range(8, 14), 1))

# A combination in the search: tile indices (0..51, colour R Y B K then number 1..13); a joker standing
# for tile i is ``JOKER_BASE + i``.
JOKER_BASE = 100
Combo = tuple[int, ...]


@dataclass(frozen=True)
class Arrangement:
    """A reading of the shown tiles: ``kind`` (``combinations``, ``pairs``, ``mosaic``), the ``groups``
    (canonical codes, a joker written with the tile it stands for), the reading's own ``row`` and ``tier``,
    and the number of ``jokers`` among the tiles."""

    kind: str
    groups: tuple[tuple[str, ...], ...]
    row: str
    tier: int
    jokers: int


def find_arrangement(tiles: Sequence[str]) -> Arrangement | None:
    """The highest-paying reading of ``tiles`` (14 shown tiles of a close), or None when none is valid.

    Codes as docs/rules.md "Board Rummy" writes them (``R7``, ``JK``; ``JK:R7`` reads as a joker);
    ``CardError`` when bad.
    """
    codes = [parse_tile(t, allow_placed_joker=True) for t in tiles]
    jokers = sum(1 for c in codes if is_joker(c))
    counts = [0] * 52
    for c in codes:
        if not is_joker(c):
            counts[NATURAL_TILES.index(c)] += 1
    if len(codes) == 14:
        pairs = _seven_pairs(counts, jokers)
        if pairs is not None:
            return pairs  # doubles: the top tier
    search = _Search(counts, jokers)
    best = search.run()
    if best is None and len(codes) == 14 and jokers == 0:
        return _mosaic(counts)
    return best


def tier_bound(counts: Sequence[int], jokers: int) -> int:
    """The highest tier a partition of these tiles could reach (the search stops there)."""
    colours = {i // 13 for i, n in enumerate(counts) if n}
    numbers = {i % 13 + 1 for i, n in enumerate(counts) if n}
    if len(colours) <= 1 or _grand_numbers(counts, jokers):
        return SPECIAL
    if len(colours) <= 2 or numbers <= MINOR or numbers <= MAJOR:
        return BIG
    return SMALL


def _grand_numbers(counts: Sequence[int], jokers: int) -> list[int]:
    """Numbers whose eight tiles the naturals and jokers could make up."""
    out = []
    for n in range(13):
        have = sum(min(counts[c * 13 + n], 2) for c in range(4))
        if have + jokers >= 8:
            out.append(n + 1)
    return out


# ---------------------------------------------------------------------- seven pairs and mosaic


def _seven_pairs(counts: Sequence[int], jokers: int) -> Arrangement | None:
    singles = [i for i, n in enumerate(counts) if n % 2]
    spare = jokers - len(singles)
    if spare < 0 or spare % 2:
        return None
    groups: list[tuple[str, ...]] = []
    for i, n in enumerate(counts):
        groups += [(NATURAL_TILES[i], NATURAL_TILES[i])] * (n // 2)
        if n % 2:
            groups.append((NATURAL_TILES[i], f"JK:{NATURAL_TILES[i]}"))
    # Two jokers pair with each other (a joker stands for any tile): they are shown as the first tile.
    groups += [(f"JK:{NATURAL_TILES[0]}",) * 2] * (spare // 2)
    return Arrangement("pairs", tuple(groups), "doubles", SPECIAL, jokers)


def _mosaic(counts: Sequence[int]) -> Arrangement | None:
    """One tile of each number 2..13 and two 1s, read 1-2-…-13-1: the first four tiles of four colours
    and every tile's colour unlike its neighbours' (docs/rules.md "Board Rummy", as written; no joker)."""
    by_number: list[list[int]] = [[] for _ in range(13)]
    for i, n in enumerate(counts):
        by_number[i % 13] += [i // 13] * n
    if len(by_number[0]) != 2 or any(len(by_number[k]) != 1 for k in range(1, 13)):
        return None
    middle = [by_number[k][0] for k in range(1, 13)]
    for first, last in {(by_number[0][0], by_number[0][1]), (by_number[0][1], by_number[0][0])}:
        line = [first, *middle, last]
        if len(set(line[:4])) == 4 and all(a != b for a, b in pairwise(line)):
            tiles = tuple(f"{TILE_COLOURS[c]}{k % 13 + 1}" for k, c in enumerate(line))
            return Arrangement("mosaic", (tiles,), "mosaic", SMALL, 0)
    return None


# ---------------------------------------------------------------------- partitions into combinations


class _Search:
    """Every partition of the tiles into runs and groups, best first found kept, with pruning."""

    def __init__(self, counts: Sequence[int], jokers: int) -> None:
        self.counts = list(counts)
        self.jokers = jokers
        self.grand = _grand_numbers(counts, jokers)
        numbers = {i % 13 + 1 for i, n in enumerate(counts) if n}
        self.colours = len({i // 13 for i, n in enumerate(counts) if n})
        self.nat_minor = numbers <= MINOR
        self.nat_major = numbers <= MAJOR
        self.bound = self._potential(False, False, False)
        self.best: tuple[int, int, tuple[Combo, ...]] | None = None  # (tier, -row rank, combos)
        self.dead = _DEAD  # (tiles left, jokers left) from which no partition exists

    def run(self) -> Arrangement | None:
        if 2 * _lonely(self.counts) > self.jokers:
            return None  # a tile with no partner needs two jokers to make a combination
        self._walk((), self.jokers, False, False, False)
        if self.best is None:
            return None
        tier, rank, combos = self.best
        row = READING_ROWS[tier][-rank]
        groups = tuple(_codes(c) for c in combos)
        return Arrangement("combinations", groups, row, tier, self.jokers)

    def _done(self) -> bool:
        """The best reading found is the best row these tiles could reach."""
        return self.best is not None and self.best[:2] >= self.bound

    def _potential(self, has_group: bool, j_non_minor: bool, j_non_major: bool) -> tuple[int, int]:
        """The best (tier, row rank) a branch could still reach (the naturals are in every reading;
        the combinations so far may hold a group, and jokers standing for numbers out of a range)."""
        if self.grand:
            return SPECIAL, -1
        if self.colours <= 1 and not has_group:
            return SPECIAL, -2
        if self.colours <= 2 and not has_group:
            return BIG, 0
        if self.nat_minor and not j_non_minor:
            return BIG, -1
        if self.nat_major and not j_non_major:
            return BIG, -2
        return SMALL, 0

    def _walk(
        self, combos: tuple[Combo, ...], jokers: int, has_group: bool, j_non_minor: bool, j_non_major: bool
    ) -> bool:
        """Search the partitions that extend ``combos``; False when none exists (so the tiles left are
        dead), True when one was found or the branch was cut short."""
        if self._done():
            return True
        if self.best is not None and self._potential(has_group, j_non_minor, j_non_major) <= self.best[:2]:
            return True
        counts = self.counts
        anchor = _anchor(counts)
        if anchor is None:
            if jokers == 0:
                self._leaf(combos)
                return True
            if jokers >= 3:
                for extra in _joker_only(combos, jokers, self.grand):
                    self._leaf((*combos, extra))
                return True
            return False
        key = (tuple(counts), jokers)
        if key in self.dead:
            return False
        alive = False
        for combo, used, group in _combos_with(anchor, counts, jokers, bool(self.grand)):
            naturals = [t for t in combo if t < JOKER_BASE]
            for t in naturals:
                counts[t] -= 1
            stood = [(t - JOKER_BASE) % 13 + 1 for t in combo if t >= JOKER_BASE]
            alive |= self._walk(
                (*combos, combo),
                jokers - used,
                has_group or group,
                j_non_minor or any(n not in MINOR for n in stood),
                j_non_major or any(n not in MAJOR for n in stood),
            )
            for t in naturals:
                counts[t] += 1
            if self._done():
                return True
        if not alive:
            if len(self.dead) >= _DEAD_LIMIT:
                self.dead.clear()
            self.dead.add(key)
        return alive

    def _leaf(self, combos: tuple[Combo, ...]) -> None:
        tier, row = _reading_row(combos, self.grand)
        rank = -READING_ROWS[tier].index(row)
        if self.best is None or (tier, rank) > self.best[:2]:
            self.best = (tier, rank, combos)


# Positions from which no partition exists are the same whatever board they came from (the 15 readings
# of one board share most of them): remembered across calls, forgotten wholesale when too many.
_DEAD: set[tuple[tuple[int, ...], int]] = set()
_DEAD_LIMIT = 200_000


def _partner_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for i in range(52):
        colour, n0 = divmod(i, 13)
        same_number = [c * 13 + n0 for c in range(4) if c != colour]
        places = [n0 + 1] + ([14] if n0 == 0 else [])
        near = {(q - 1) % 13 for p in places for q in range(p - 2, p + 3) if 1 <= q <= 14 and q != p}
        table.append((*same_number, *(colour * 13 + k for k in sorted(near) if k != n0)))
    return tuple(table)


# Per tile, the tiles that could share a combination with it: its number in another colour, or its
# colour within two places (``12-13-1`` included).
_PARTNERS = _partner_table()


def _partners(counts: Sequence[int], i: int) -> int:
    return sum(counts[j] for j in _PARTNERS[i])


def _lonely(counts: Sequence[int]) -> int:
    """Tiles with no partner: each belongs only to a combination with two jokers."""
    return sum(n for i, n in enumerate(counts) if n and not _partners(counts, i))


def _anchor(counts: Sequence[int]) -> int | None:
    """The tile the next combination is built around: the one with the fewest partners (the most
    constrained, so dead ends show early), the first in tile order among equals."""
    best: int | None = None
    fewest = 99
    for i, n in enumerate(counts):
        if n:
            k = _partners(counts, i)
            if k < fewest:
                best, fewest = i, k
    return best


def _combos_with(
    anchor: int, counts: Sequence[int], jokers: int, grand: bool
) -> Iterator[tuple[Combo, int, bool]]:
    """Every combination holding tile ``anchor``: (combo, jokers used, is a group)."""
    colour, n0 = divmod(anchor, 13)
    # runs first: a partition into runs alone reaches the higher rows, and the search may stop there
    # runs of the anchor's colour through position n0+1 (and 14 for a 1: the end of 12-13-1)
    base = colour * 13
    for p in [n0 + 1] + ([14] if n0 == 0 else []):
        for lo in range(p, max(0, p - 13), -1):
            if _missing(base, lo, p - 1, anchor, counts) > jokers:
                break  # a longer left part misses as many tiles or more
            for hi in range(max(p, lo + 2), min(14, lo + 13) + 1):
                if lo == 1 and hi == 14 and p == 14:
                    continue  # the 14-tile run is found from its first 1
                missing = _missing(base, lo, hi, anchor, counts, skip=p)
                if missing > jokers:
                    break
                yield from _fill_run(base, lo, hi, p, anchor, counts, jokers - missing)
    # groups: one tile of the number in each of 2-3 other colours, natural or joker
    others = [c for c in range(4) if c != colour]
    seen: set[Combo] = set()
    for choice, used in _GROUP_CHOICES:
        if used > jokers:
            continue
        if any(x == 1 and not counts[oc * 13 + n0] for x, oc in zip(choice, others, strict=True)):
            continue
        members = [anchor] + [
            oc * 13 + n0 + (JOKER_BASE if x == 2 else 0) for x, oc in zip(choice, others, strict=True) if x
        ]
        if used and not grand:
            # the colour a joker stands for in a group matters only to grand: name the first missing ones
            natural = [m for m in members if m < JOKER_BASE]
            free = [oc * 13 + n0 for oc in others if oc * 13 + n0 not in natural]
            members = natural + [JOKER_BASE + t for t in free[:used]]
        combo = tuple(sorted(members, key=lambda t: t % JOKER_BASE))
        if combo not in seen:
            seen.add(combo)
            yield combo, used, True


# For the three other colours of a group: 0 absent, 1 the tile held, 2 a joker; with the jokers used.
_GROUP_CHOICES = tuple(
    (choice, choice.count(2)) for choice in product((0, 1, 2), repeat=3) if 3 - choice.count(0) >= 2
)


def _missing(base: int, lo: int, hi: int, anchor: int, counts: Sequence[int], skip: int = 0) -> int:
    """How many places of the run lo..hi (but ``skip``) the tiles held cannot fill."""
    need: dict[int, int] = {}
    for q in range(lo, hi + 1):
        if q != skip:
            t = base + (q - 1) % 13
            need[t] = need.get(t, 0) + 1
    return sum(max(0, k - (counts[t] - (t == anchor))) for t, k in need.items())


def _fill_run(
    base: int, lo: int, hi: int, p: int, anchor: int, counts: Sequence[int], spare: int
) -> Iterator[tuple[Combo, int, bool]]:
    """The run lo..hi with the anchor at ``p``: every way to put jokers in the other places (where a
    tile is missing, and optionally instead of a tile held, which may then serve elsewhere)."""
    left = {t: counts[t] - (t == anchor) for t in range(base, base + 13)}
    natural_slots: list[int] = []
    forced: list[int] = []
    for q in range(lo, hi + 1):
        if q == p:
            continue
        t = base + (q - 1) % 13
        if left[t] > 0:
            left[t] -= 1
            natural_slots.append(q)
        else:
            forced.append(q)
    for k in range(min(spare, len(natural_slots)) + 1):
        for swapped in combinations(natural_slots, k):
            jokered = set(forced) | set(swapped)
            combo = tuple(
                base + (q - 1) % 13 + (JOKER_BASE if q in jokered else 0) for q in range(lo, hi + 1)
            )
            yield combo, len(jokered), False


def _joker_only(combos: tuple[Combo, ...], jokers: int, grand: list[int]) -> Iterator[Combo]:
    """Three or more jokers left over form a combination of their own; the readings worth trying: a run
    of a colour already in runs from 1 (minor) and from 8 (major), and a group of a grand number."""
    run_colours = sorted({(c[0] % JOKER_BASE) // 13 for c in combos if _is_run(c)})
    colour = run_colours[0] if run_colours else 0
    for start in (1, 8):
        if start + jokers - 1 <= 14:
            yield tuple(JOKER_BASE + colour * 13 + (q - 1) % 13 for q in range(start, start + jokers))
    if jokers <= 4:
        for n in grand:
            held: dict[int, int] = {}
            for c in combos:
                for t in c:
                    if (t % JOKER_BASE) % 13 == n - 1:
                        held[(t % JOKER_BASE) // 13] = held.get((t % JOKER_BASE) // 13, 0) + 1
            short = [c for c in range(4) if held.get(c, 0) < 2][:jokers]
            short += [c for c in range(4) if c not in short][: jokers - len(short)]
            yield tuple(JOKER_BASE + c * 13 + n - 1 for c in sorted(short))


def _is_run(combo: Combo) -> bool:
    return len({(t % JOKER_BASE) // 13 for t in combo}) == 1 and len({t % JOKER_BASE for t in combo}) > 1


def _reading_row(combos: Sequence[Combo], grand: list[int]) -> tuple[int, str]:
    """The tier and row of one partition (without the discard and the thrown jokers)."""
    runs_only = all(_is_run(c) for c in combos)
    tiles = [t % JOKER_BASE for c in combos for t in c]
    colours = {t // 13 for t in tiles}
    numbers = {t % 13 + 1 for t in tiles}
    for n in grand:
        per = [0] * 4
        for t in tiles:
            if t % 13 == n - 1:
                per[t // 13] += 1
        if min(per) >= 2:
            return SPECIAL, "grand"
    if runs_only and len(colours) == 1:
        return SPECIAL, "monocolour"
    if runs_only and len(colours) <= 2:
        return BIG, "bicolour"
    if numbers <= MINOR:
        return BIG, "minor"
    if numbers <= MAJOR:
        return BIG, "major"
    return SMALL, "simple"


def _codes(combo: Combo) -> tuple[str, ...]:
    return tuple(
        NATURAL_TILES[t] if t < JOKER_BASE else f"{JOKER}:{NATURAL_TILES[t - JOKER_BASE]}" for t in combo
    )
