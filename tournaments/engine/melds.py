"""Sets and runs: validity, joker readings, canonical form, values, lay-offs and enumeration.

A meld is a tuple of card codes in canonical order: a set in suit order S H D C, a run in rank order
(a run around the corner ``K-A-2`` is written in that order). Jokers in a meld are always written with
the card they stand for (``JK:7H``); a bare ``JK`` is accepted in input only where one reading exists
(a set: the first missing suit in S H D C order; a run: refused when two readings exist).

Run positions: the low ace is 1, 2..K are 2..13, the high ace (``Q-K-A`` with ``ace_high``) is 14.
Around the corner (``round_the_corner``) positions continue 14 = A, 15 = 2, ... A run never holds
the same rank twice, so it has at most 13 cards.

Functions taking ``rules`` need only its ``ace_high`` and ``round_the_corner`` fields (a ``Ruleset``,
or ``MeldOptions`` below).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from .cards import (
    JOKER,
    JOKER_PREFIX,
    RANKS,
    SUITS,
    CardError,
    ValueRules,
    is_joker,
    is_natural,
    natural_of,
    rank_char,
    rank_of,
    stands_for,
    suit_of,
    table_value,
)
from .errors import RuleCode

MAX_SET = 4
MIN_MELD = 3
MAX_RUN = 13


class MeldRules(Protocol):
    """The ruleset fields meld validity depends on."""

    @property
    def ace_high(self) -> bool: ...

    @property
    def round_the_corner(self) -> bool: ...


@dataclass(frozen=True)
class MeldOptions:
    """A plain ``MeldRules`` (tests, the solver)."""

    ace_high: bool = True
    round_the_corner: bool = False


class MeldError(ValueError):
    """Why cards do not form a meld or a lay-off; ``code`` is an IllegalMove code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _rank_char(position: int) -> str:
    return RANKS[(position - 1) % 13]


def _run_ok(start: int, length: int, rules: MeldRules) -> bool:
    """Whether positions start..start+length-1 (start 1..13) form an allowed run."""
    if length < MIN_MELD or length > MAX_RUN:
        return False
    end = start + length - 1
    if end <= 13:
        return True
    if end == 14 and rules.ace_high:
        return True
    return rules.round_the_corner


def _run_cards(suit: str, start: int, length: int) -> list[str]:
    return [_rank_char(start + i) + suit for i in range(length)]


def meld_kind(cards: Sequence[str]) -> str:
    """``"set"`` or ``"run"`` for a canonical meld (every joker written ``JK:<card>``)."""
    first = rank_char(cards[0])
    return "set" if all(rank_char(c) == first for c in cards) else "run"


def is_valid_set(cards: Sequence[str]) -> bool:
    """3 or 4 cards of one rank, no suit twice; jokers must be written ``JK:<card>``."""
    if not MIN_MELD <= len(cards) <= MAX_SET:
        return False
    if any(c == JOKER or not is_natural(natural_of(c)) for c in cards):
        return False
    nats = [natural_of(c) for c in cards]
    return len({rank_char(n) for n in nats}) == 1 and len({suit_of(n) for n in nats}) == len(nats)


def is_valid_run(cards: Sequence[str], rules: MeldRules) -> bool:
    """3+ consecutive cards of one suit in the given order (jokers written ``JK:<card>``)."""
    if not MIN_MELD <= len(cards) <= MAX_RUN:
        return False
    if any(c == JOKER or not is_natural(natural_of(c)) for c in cards):
        return False
    nats = [natural_of(c) for c in cards]
    suit = suit_of(nats[0])
    if any(suit_of(n) != suit for n in nats):
        return False
    start = rank_of(nats[0])
    for i, n in enumerate(nats):
        if rank_of(n) != (start + i - 1) % 13 + 1:
            return False
    return _run_ok(start, len(nats), rules)


def is_valid_meld(cards: Sequence[str], rules: MeldRules) -> bool:
    """A canonical-or-ordered set or run (jokers written out)."""
    return is_valid_set(cards) or is_valid_run(cards, rules)


def natural_count(cards: Sequence[str]) -> int:
    """Number of natural (non-joker) cards."""
    return sum(1 for c in cards if not is_joker(c))


def _set_readings(fixed: Sequence[str], bare: int) -> list[tuple[str, ...]]:
    nats = [natural_of(c) for c in fixed]
    if not nats or len({rank_char(n) for n in nats}) != 1:
        return []
    suits = [suit_of(n) for n in nats]
    if len(set(suits)) != len(suits):
        return []
    total = len(fixed) + bare
    if not MIN_MELD <= total <= MAX_SET:
        return []
    rank = rank_char(nats[0])
    missing = [s for s in SUITS if s not in suits]
    by_suit = {suit_of(c): c for c in fixed}
    for s in missing[:bare]:
        by_suit[s] = JOKER_PREFIX + rank + s
    return [tuple(by_suit[s] for s in SUITS if s in by_suit)]


def _full_run_start(rules: MeldRules) -> int:
    """The reading of a 13-card run (every rank): ace high (2..A) where allowed, else A..K."""
    return 2 if _run_ok(2, MAX_RUN, rules) else 1


def _run_readings(
    fixed: Sequence[str], bare: int, rules: MeldRules, block: Sequence[str] | None = None
) -> list[tuple[str, ...]]:
    nats = [natural_of(c) for c in fixed]
    if not nats:
        return []
    suit = suit_of(nats[0])
    if any(suit_of(n) != suit for n in nats):
        return []
    ranks = [rank_of(n) for n in nats]
    if len(set(ranks)) != len(ranks):
        return []
    total = len(fixed) + bare
    if not MIN_MELD <= total <= MAX_RUN:
        return []
    by_rank = {rank_of(c): c for c in fixed}
    found: list[tuple[int, tuple[str, ...]]] = []
    for start in range(1, 14):
        if not _run_ok(start, total, rules):
            continue
        covered = [(start + i - 1) % 13 + 1 for i in range(total)]
        if not set(ranks) <= set(covered):
            continue
        run = tuple(by_rank.get(r, JOKER_PREFIX + RANKS[r - 1] + suit) for r in covered)
        if block is not None and not _contains_block(run, block):
            continue
        found.append((start, run))
    if total == MAX_RUN and found:
        # every start covers all 13 ranks: one meld, read in one fixed way
        preferred = [run for start, run in found if start == _full_run_start(rules)]
        return [preferred[0] if preferred else found[0][1]]
    return [run for _, run in found]


def meld_readings(cards: Sequence[str], rules: MeldRules) -> list[tuple[str, ...]]:
    """Every canonical meld the given cards can form (bare ``JK`` filled in; a set's by suit order)."""
    bare = sum(1 for c in cards if c == JOKER)
    fixed = [c for c in cards if c != JOKER]
    if not fixed:
        return []
    return _set_readings(fixed, bare) + _run_readings(fixed, bare, rules)


def read_meld(cards: Sequence[str], rules: MeldRules, *, min_natural: int = 2) -> tuple[str, ...]:
    """The canonical form of a new meld, or ``MeldError`` saying why it is not one.

    ``cards`` may be in any order, jokers bare (``JK``) or written out (``JK:7H``).
    """
    try:
        for c in cards:
            if c != JOKER and not is_natural(natural_of(c)):
                raise CardError(f"'{c}' is not a card.")
    except (CardError, IndexError, KeyError) as exc:
        raise MeldError(RuleCode.MOVE_MALFORMED, f"Not a card in the meld: {exc}") from None
    if len(cards) < MIN_MELD:
        raise MeldError(RuleCode.MELD_TOO_SHORT, "A meld needs at least 3 cards.")
    if natural_count(cards) < min_natural:
        raise MeldError(
            RuleCode.MELD_TOO_FEW_NATURAL, f"A new meld needs at least {min_natural} natural cards."
        )
    readings = meld_readings(cards, rules)
    if not readings:
        raise MeldError(
            RuleCode.MELD_INVALID, f"{' '.join(cards)} is neither a set nor a run under these rules."
        )
    if len(readings) > 1:
        options = ", ".join(" ".join(r) for r in readings)
        raise MeldError(
            RuleCode.MELD_AMBIGUOUS_JOKER,
            f"The joker has several readings ({options}); write it as JK:<card>.",
        )
    return readings[0]


def canonical_meld(cards: Sequence[str], rules: MeldRules) -> tuple[str, ...]:
    """Alias of ``read_meld`` without the natural-card minimum (e.g. a meld on the table)."""
    return read_meld(cards, rules, min_natural=0)


def lay_off(meld: Sequence[str], added: Sequence[str], rules: MeldRules) -> tuple[str, ...]:
    """The canonical meld after laying ``added`` on the canonical ``meld``, or ``MeldError``.

    Cards already on the table keep their reading; new cards go to either end of a run or into a
    set's missing suits. A bare ``JK`` must have exactly one reading.
    """
    if not added:
        raise MeldError(RuleCode.MOVE_MALFORMED, "A lay-off needs at least one card.")
    if any(c != JOKER and not is_natural(natural_of(c)) for c in added):
        raise MeldError(RuleCode.MOVE_MALFORMED, f"Not a card in the lay-off: {' '.join(added)}.")
    kind = meld_kind(meld)
    bare = sum(1 for c in added if c == JOKER)
    fixed = list(meld) + [c for c in added if c != JOKER]
    # on a run the cards already placed stay a contiguous block of the new run, in their order
    readings = _set_readings(fixed, bare) if kind == "set" else _run_readings(fixed, bare, rules, block=meld)
    if not readings:
        raise MeldError(RuleCode.LAYOFF_INVALID, f"{' '.join(added)} cannot be laid off on {' '.join(meld)}.")
    if len(readings) > 1:
        raise MeldError(
            RuleCode.MELD_AMBIGUOUS_JOKER, "The joker has several readings here; write it as JK:<card>."
        )
    return readings[0]


def _contains_block(run: Sequence[str], block: Sequence[str]) -> bool:
    n = len(block)
    return any(tuple(run[i : i + n]) == tuple(block) for i in range(len(run) - n + 1))


def card_values(meld: Sequence[str], rules: ValueRules) -> tuple[int, ...]:
    """Table value of each card of a canonical meld (an ace is low when the 2 follows it in a run)."""
    if meld_kind(meld) == "set":
        return tuple(table_value(c, rules) for c in meld)
    out = []
    for i, c in enumerate(meld):
        low = rank_of(c) == 1 and i + 1 < len(meld) and rank_of(meld[i + 1]) == 2
        out.append(table_value(c, rules, ace_low=low))
    return tuple(out)


def meld_value(meld: Sequence[str], rules: ValueRules) -> int:
    """Total table value of a canonical meld."""
    return sum(card_values(meld, rules))


def joker_slots(meld: Sequence[str]) -> list[tuple[int, str]]:
    """(index, natural card) of every joker in a canonical meld: the cards a swap may bring."""
    return [(i, nat) for i, c in enumerate(meld) if (nat := stands_for(c)) is not None]


# ---------------------------------------------------------------- enumeration (legal moves, solver)


def _choose_jokers(
    slots: list[tuple[str, bool]], jokers: int, min_natural: int, fixed_naturals: int = 0
) -> Iterator[tuple[str, ...]]:
    """For positions [(natural card, held?)], every choice of naturals/jokers: yields the cards.

    A position not held must be a joker; a held one may be either. At most ``jokers`` jokers and at
    least ``min_natural`` naturals (counting ``fixed_naturals`` already there).
    """
    forced = [i for i, (_, held) in enumerate(slots) if not held]
    if len(forced) > jokers:
        return
    optional = [i for i, (_, held) in enumerate(slots) if held]
    free = jokers - len(forced)
    for extra in range(min(free, len(optional)) + 1):
        for chosen in combinations(optional, extra):
            joker_at = set(forced) | set(chosen)
            if len(slots) - len(joker_at) + fixed_naturals < min_natural:
                continue
            yield tuple(JOKER_PREFIX + nat if i in joker_at else nat for i, (nat, _) in enumerate(slots))


def enumerate_melds(
    hand: Mapping[str, int] | Sequence[str],
    rules: MeldRules,
    *,
    min_natural: int = 2,
    containing: str | None = None,
) -> list[tuple[str, ...]]:
    """Every distinct canonical meld that can be formed from ``hand`` (a multiset), each once.

    Every joker reading is a different meld (``QS QH JK:QD`` and ``QS QH JK:QC``); a joker may also
    stand for a card the hand holds. Cost is linear in suits x starts x lengths, not in subsets.
    ``containing``: only the melds holding that natural card (itself, not a joker standing for it).
    """
    if containing is not None and containing != JOKER:
        only = [
            m
            for m in enumerate_melds_in(
                {
                    c: n
                    for c, n in _counts(hand).items()
                    if c == JOKER
                    or rank_char(c) == rank_char(containing)
                    or suit_of(c) == suit_of(containing)
                },
                rules,
                min_natural=min_natural,
                ranks=rank_char(containing),
                suits=suit_of(containing),
            )
            if containing in m
        ]
        return only
    return enumerate_melds_in(hand, rules, min_natural=min_natural)


def enumerate_melds_in(
    hand: Mapping[str, int] | Sequence[str],
    rules: MeldRules,
    *,
    min_natural: int = 2,
    ranks: str = RANKS,
    suits: str = SUITS,
) -> list[tuple[str, ...]]:
    """``enumerate_melds`` restricted to sets of ``ranks`` and runs of ``suits``."""
    counts = _counts(hand)
    jokers = counts.get(JOKER, 0)
    out: list[tuple[str, ...]] = []
    # sets
    for rank in ranks:
        held = [s for s in SUITS if counts.get(rank + s, 0) > 0]
        if len(held) + jokers < MIN_MELD or len(held) < min_natural:
            continue
        for size in range(MIN_MELD, MAX_SET + 1):
            for n_nat in range(max(min_natural, size - jokers), min(size, len(held)) + 1):
                for nat_suits in combinations(held, n_nat):
                    rest = [s for s in SUITS if s not in nat_suits]
                    for jk_suits in combinations(rest, size - n_nat):
                        meld = {s: rank + s for s in nat_suits}
                        meld.update({s: JOKER_PREFIX + rank + s for s in jk_suits})
                        out.append(tuple(meld[s] for s in SUITS if s in meld))
    # runs
    for suit in suits:
        held_ranks = {r for r in range(1, 14) if counts.get(RANKS[r - 1] + suit, 0) > 0}
        if len(held_ranks) < min_natural:
            continue
        for start in range(1, 14):
            missing = 0
            for length in range(1, MAX_RUN + 1):
                pos = (start + length - 2) % 13 + 1
                if pos not in held_ranks:
                    missing += 1
                    if missing > jokers:
                        break
                if length < MIN_MELD or not _run_ok(start, length, rules):
                    continue
                if length == MAX_RUN and start != _full_run_start(rules):
                    continue
                slots = [
                    (_rank_char(start + i) + suit, ((start + i - 1) % 13 + 1) in held_ranks)
                    for i in range(length)
                ]
                out.extend(_choose_jokers(slots, jokers, min_natural))
    return out


def enumerate_lay_offs(
    hand: Mapping[str, int] | Sequence[str], meld: Sequence[str], rules: MeldRules
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every lay-off from ``hand`` onto canonical ``meld``: (added cards canonical, resulting meld).

    Added cards are listed in the order they appear in the new meld (jokers written out).
    """
    counts = _counts(hand)
    jokers = counts.get(JOKER, 0)
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    if meld_kind(meld) == "set":
        rank = rank_char(meld[0])
        present = {suit_of(c) for c in meld}
        missing = [s for s in SUITS if s not in present]
        for k in range(1, MAX_SET - len(meld) + 1):
            for suits in combinations(missing, k):
                slots = [(rank + s, counts.get(rank + s, 0) > 0) for s in suits]
                for added in _choose_jokers(slots, jokers, 0):
                    merged = {suit_of(c): c for c in (*meld, *added)}
                    out.append((added, tuple(merged[s] for s in SUITS if s in merged)))
        return out
    suit = suit_of(meld[0])
    start = rank_of(meld[0])
    n = len(meld)

    def held(pos: int) -> bool:
        return counts.get(_rank_char(pos) + suit, 0) > 0

    for low in range(0, MAX_RUN - n + 1):
        if (
            low
            and not held(start - low)
            and sum(1 for i in range(1, low + 1) if not held(start - i)) > jokers
        ):
            break
        new_start = start - low
        for high in range(0, MAX_RUN - n - low + 1):
            if low + high == 0:
                continue
            positions = [new_start + i for i in range(low)] + [start + n + i for i in range(high)]
            if sum(1 for p in positions if not held(p)) > jokers:
                break
            norm_start = (new_start - 1) % 13 + 1
            if not _run_ok(norm_start, n + low + high, rules) or not _start_ok(
                new_start, n + low + high, rules
            ):
                continue
            slots = [(_rank_char(p) + suit, held(p)) for p in positions]
            for added in _choose_jokers(slots, jokers, 0):
                if n + low + high == MAX_RUN:
                    # a full run has one reading (see lay_off): list each set of added cards once
                    full = lay_off(meld, added, rules)
                    ordered = tuple(c for c in full if c not in meld)
                    if all(o != ordered for o, _ in out):
                        out.append((ordered, full))
                    continue
                out.append((added, (*added[:low], *meld, *added[low:])))
    return out


def _start_ok(start: int, length: int, rules: MeldRules) -> bool:
    """Extending below the low ace wraps to the king: only around the corner."""
    if start >= 1:
        return True
    return rules.round_the_corner and length <= MAX_RUN


def _counts(hand: Mapping[str, int] | Sequence[str]) -> dict[str, int]:
    if isinstance(hand, Mapping):
        return dict(hand)
    counts: dict[str, int] = {}
    for c in hand:
        k = JOKER if is_joker(c) else c
        counts[k] = counts.get(k, 0) + 1
    return counts


def single_extensions(meld: Sequence[str], rules: MeldRules) -> frozenset[str]:
    """The natural cards that could each be laid off alone on canonical ``meld``."""
    if meld_kind(meld) == "set":
        if len(meld) >= MAX_SET:
            return frozenset()
        rank = rank_char(meld[0])
        present = {suit_of(c) for c in meld}
        return frozenset(rank + s for s in SUITS if s not in present)
    if len(meld) >= MAX_RUN:
        return frozenset()
    suit = suit_of(meld[0])
    start = rank_of(meld[0])
    n = len(meld)
    out = set()
    if _start_ok(start - 1, n + 1, rules) and _run_ok((start - 2) % 13 + 1, n + 1, rules):
        out.add(_rank_char(start - 1) + suit)
    if _run_ok(start, n + 1, rules):
        out.add(_rank_char(start + n) + suit)
    return frozenset(out)
