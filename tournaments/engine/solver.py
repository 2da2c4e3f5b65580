"""Exact best arrangement of a Rummy hand into melds.

`best_arrangement(hand, rules)` splits a hand into sets and runs (jokers included) so that the value of
the cards placed on the table minus the penalty of the cards left in hand is as high as possible. It is
exact: the search is a memoised set packing over precomputed candidate melds, which is what lets the
greedy bot, the benchmark and any hint feature trust its answer.

Why it is fast enough: cards are small integers and every candidate meld is a bitmask over the hand's
natural cards plus a joker count. Placing a meld adds, for each of its cards, the table value *and* the
hand penalty it saves, so maximising "placed - in hand" is a maximum-weight packing of candidate melds.
The search always branches on the lowest remaining card (leave it in hand, or put it in one of the melds
that contain it), so each sub-problem is a (remaining mask, jokers left, still-owes-a-discard) triple
and is solved once. Suit-major card order keeps the number of such sub-problems small; identical cards of
two decks are handled by leaving all copies of a card together.

Scope: the hand alone. Lay-offs onto melds already on the table are the caller's business (the greedy
bot lays off what the solver leaves in hand).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product

from tournaments.engine.cards import (
    JOKER,
    NATURAL_CARDS,
    RANKS,
    SUITS,
    ValueRules,
    card_sort_key,
    hand_value,
    rank_of,
    suit_of,
    table_value,
)

__all__ = [
    "Arrangement",
    "CardValues",
    "best_arrangement",
    "card_values",
    "discard_values",
    "hand_penalty",
]

_SUIT_OF = {ch: i for i, ch in enumerate(SUITS)}
# Natural card -> suit * 16 + rank (rank 1..13); the joker -> 0 (read once through the cards accessors).
_CODE_NUMBER = {JOKER: 0, **{c: _SUIT_OF[suit_of(c)] * 16 + rank_of(c) for c in NATURAL_CARDS}}


@dataclass(frozen=True, slots=True)
class CardValues:
    """The parts of a ruleset the solver needs.

    `table[r]` / `hand[r]` are indexed by rank 1..13 (index 0 unused); `table[1]` is the ace's value on the
    table everywhere except at the low end of a run (`ace_low_run`). `joker_table` is None when a joker on the
    table is worth the card it stands for (Rummy 500), else a fixed value (household: 15).
    """

    ace_high: bool = True
    round_the_corner: bool = False
    table: tuple[int, ...] = (0, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    hand: tuple[int, ...] = (0, 15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    ace_low_run: int = 1
    joker_table: int | None = None
    joker_hand: int = 15
    min_naturals: int = 2

    def __post_init__(self) -> None:
        if len(self.table) != 14 or len(self.hand) != 14:
            raise ValueError("table and hand values are indexed by rank 1..13 (14 entries, index 0 unused)")
        if self.min_naturals < 1:
            raise ValueError("a meld needs at least one natural card")


RUMMY500_VALUES = CardValues()


def card_values(rules: ValueRules | CardValues) -> CardValues:
    """The solver's view of a ruleset: a `Ruleset` (or any `cards.ValueRules`, with `ace_high` and
    `round_the_corner` read when present, else Rummy 500's defaults) or a `CardValues` as is."""
    if isinstance(rules, CardValues):
        return rules
    cached = _VALUES_CACHE.get(id(rules))
    if cached is not None and cached[0] is rules:
        return cached[1]
    values = CardValues(
        ace_high=bool(getattr(rules, "ace_high", True)),
        round_the_corner=bool(getattr(rules, "round_the_corner", False)),
        table=(0, *(table_value(RANKS[r] + "S", rules) for r in range(13))),
        hand=(0, *(hand_value(RANKS[r] + "S", rules) for r in range(13))),
        ace_low_run=table_value("AS", rules, ace_low=True),
        joker_table=rules.joker_table_value,
        joker_hand=rules.joker_hand_value,
        min_naturals=int(getattr(rules, "min_natural", 2)),
    )
    if len(_VALUES_CACHE) > 256:
        _VALUES_CACHE.clear()
    # Keyed by identity and holding the ruleset itself, so a reused id can never hit a stale entry.
    _VALUES_CACHE[id(rules)] = (rules, values)
    return values


_VALUES_CACHE: dict[int, tuple[object, CardValues]] = {}


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A hand split into melds (canonical codes, jokers as `JK:<card>`) and cards left in hand."""

    melds: tuple[tuple[str, ...], ...]
    leftover: tuple[str, ...]
    placed: int
    penalty: int

    @property
    def value(self) -> int:
        """Placed value minus the penalty of the cards left in hand."""
        return self.placed - self.penalty


def _parse(code: str) -> int:
    """Natural card → suit * 16 + rank (rank 1..13); the joker → 0."""
    try:
        return _CODE_NUMBER[code]
    except KeyError:
        raise ValueError(f"not a card in hand: {code!r}") from None


def _code(card: int) -> str:
    return RANKS[(card & 15) - 1] + SUITS[card >> 4]


def hand_penalty(cards: Iterable[str], rules: ValueRules | CardValues) -> int:
    """The in-hand value of `cards` under `rules`."""
    values = card_values(rules)
    total = 0
    for code in cards:
        card = _parse(code)
        total += values.joker_hand if card == 0 else values.hand[card & 15]
    return total


# A candidate meld: (natural mask, jokers used, weight = table value + saved penalty, table value, codes).
_Cand = tuple[int, int, int, int, tuple[str, ...]]


def _run_windows(values: CardValues) -> list[tuple[int, ...]]:
    """Every allowed run as its ranks in order (1..13), the same runs `melds.is_valid_run` accepts."""
    windows: list[tuple[int, ...]] = []
    for start in range(1, 14):
        for length in range(3, 14):
            end = start + length - 1
            if end <= 13 or (end == 14 and values.ace_high) or values.round_the_corner:
                windows.append(tuple((start - 1 + k) % 13 + 1 for k in range(length)))
    return windows


@lru_cache(maxsize=16)
def _windows(values: CardValues) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Run windows as (ranks, table values, rank bitmask); an ace is low when a 2 follows it (`melds.card_values`)."""
    out = []
    for ranks in _run_windows(values):
        worth = tuple(
            (values.ace_low_run if i + 1 < len(ranks) and ranks[i + 1] == 2 else values.table[1])
            if r == 1
            else values.table[r]
            for i, r in enumerate(ranks)
        )
        mask = 0
        for r in ranks:
            mask |= 1 << r
        out.append((ranks, worth, mask))
    return tuple(out)


def _candidates(naturals: list[int], jokers: int, values: CardValues) -> list[_Cand]:
    """Every meld the hand can form, deduplicated by (mask, jokers) keeping the most valuable reading."""
    where: dict[int, list[int]] = {}
    for pos, card in enumerate(naturals):
        where.setdefault(card, []).append(pos)
    best: dict[tuple[int, int], _Cand] = {}
    min_nat = values.min_naturals
    jt = values.joker_table
    jh = values.joker_hand

    def offer(
        positions_per_card: list[list[int]], n_jokers: int, table: int, penalty: int, codes: tuple[str, ...]
    ) -> None:
        weight = table + penalty
        for choice in product(*positions_per_card):
            mask = 0
            for p in choice:
                mask |= 1 << p
            key = (mask, n_jokers)
            old = best.get(key)
            if old is None or weight > old[2]:
                best[key] = (mask, n_jokers, weight, table, codes)

    # Sets: 3 or 4 cards of one rank, no suit twice; jokers take the first missing suits in S H D C order.
    for rank in range(1, 14):
        suits = [s for s in range(4) if s * 16 + rank in where]
        if len(suits) < min_nat:
            continue
        jt_rank = values.table[rank] if jt is None else jt
        for size in range(min_nat, min(4, len(suits)) + 1):
            for chosen in combinations(suits, size):
                for total in (3, 4):
                    nj = total - size
                    if nj < 0 or nj > jokers:
                        continue
                    missing = [s for s in range(4) if s not in chosen][:nj]
                    codes = tuple(
                        RANKS[rank - 1] + SUITS[s]
                        if s in chosen
                        else JOKER + ":" + RANKS[rank - 1] + SUITS[s]
                        for s in sorted((*chosen, *missing))
                    )
                    offer(
                        [where[s * 16 + rank] for s in chosen],
                        nj,
                        size * values.table[rank] + nj * jt_rank,
                        size * values.hand[rank] + nj * jh,
                        codes,
                    )

    # Runs: a window of consecutive slots in one suit; slots without a chosen natural are jokers.
    held = [0] * 4  # per suit, bit r set when the hand holds rank r
    for card in where:
        held[card >> 4] |= 1 << (card & 15)
    for suit in range(4):
        base = suit * 16
        suit_held = held[suit]
        if suit_held.bit_count() < min_nat:
            continue
        for ranks, worth, rank_mask in _windows(values):
            length = len(ranks)
            n_present = (rank_mask & suit_held).bit_count()
            gaps = length - n_present
            if gaps > jokers or n_present < min_nat:
                continue
            present = [i for i, r in enumerate(ranks) if suit_held >> r & 1]
            for drop in range(0, jokers - gaps + 1):
                if len(present) - drop < min_nat:
                    break
                for dropped in combinations(present, drop):
                    used = [i for i in present if i not in dropped]
                    used_set = set(used)
                    table = 0
                    penalty = 0
                    codes_l: list[str] = []
                    for i, r in enumerate(ranks):
                        code = RANKS[r - 1] + SUITS[suit]
                        if i in used_set:
                            table += worth[i]
                            penalty += values.hand[r]
                            codes_l.append(code)
                        else:
                            table += worth[i] if jt is None else jt
                            penalty += jh
                            codes_l.append(JOKER + ":" + code)
                    offer([where[base + ranks[i]] for i in used], gaps + drop, table, penalty, tuple(codes_l))
    return list(best.values())


def best_arrangement(
    hand: Iterable[str],
    rules: ValueRules | CardValues = RUMMY500_VALUES,
    *,
    keep: Iterable[str] = (),
    leave_one: bool = False,
    discardable: Collection[str] | None = None,
) -> Arrangement:
    """The arrangement of `hand` into melds that maximises placed value - hand penalty.

    `rules` is a `Ruleset` (any `cards.ValueRules`) or a `CardValues`. `keep` lists cards that must stay
    in hand (one entry per copy). `leave_one` requires at least one card left in hand that is in
    `discardable` (default: any card) — a player who must finish the turn with a discard. When no such
    arrangement exists (the hand holds no discardable card) a `ValueError` is raised.
    Ties between arrangements of equal value are broken deterministically.
    """
    values = card_values(rules)
    cards = list(hand)
    kept: list[str] = []
    pending_keep = list(keep)
    for code in pending_keep:
        if code not in cards:
            raise ValueError(f"keep card {code!r} is not in the hand")
        cards.remove(code)
        kept.append(code)
    # Suit-major order (the natural integer order). Measured against rank-major order, it keeps far fewer
    # distinct sub-problems on long hands (28 cards of two suits + 2 jokers: 0.08 s against 2 s).
    parsed = sorted(_parse(c) for c in cards)
    jokers = parsed.count(0)
    naturals = tuple(c for c in parsed if c)
    # Only whether the discardable cards are held matters; normalise so equal questions share a cache entry.
    allowed = None if discardable is None else frozenset(c for c in discardable if c in cards or c in kept)
    return _solve_cached(naturals, jokers, tuple(sorted(kept)), values, leave_one, allowed)


@lru_cache(maxsize=4096)
def _solve_cached(
    naturals: tuple[int, ...],
    jokers: int,
    kept: tuple[str, ...],
    values: CardValues,
    leave_one: bool,
    discardable: frozenset[str] | None,
) -> Arrangement:
    # Bots and hint features ask about the same hands again and again (every candidate discard, every
    # move of a turn); results are immutable, so they are shared.
    return _solve(naturals, jokers, kept, values, leave_one, discardable)


_IMPOSSIBLE = -(10**9)

_Gain = Callable[[int, int, bool], int]
_Index = list[list[tuple[int, int, int, int]]]


def _search(
    naturals: tuple[int, ...],
    jokers: int,
    values: CardValues,
    may_discard: list[bool],
    joker_may_discard: bool,
) -> tuple[_Gain, _Index, list[int], list[_Cand]]:
    """The memoised search over one hand: `gain(mask, jokers, need)` and the tables to walk it back."""
    n = len(naturals)
    cands = _candidates(list(naturals), jokers, values)
    # The search branches on the lowest remaining card; every card below it is gone, so the only melds
    # that can still be placed with it are those whose lowest card it is.
    by_low: _Index = [[] for _ in range(n)]
    for idx, (mask, nj, weight, _table, _codes) in enumerate(cands):
        by_low[(mask & -mask).bit_length() - 1].append((mask, nj, weight, idx))
    for lst in by_low:
        lst.sort(key=lambda t: (-t[2], t[3]))
    # Leaving a card in hand means leaving its identical copies too: a solution that melds a later copy
    # instead is matched by one that melds this copy, which the other branch explores.
    same = [0] * n
    for i in range(n):
        for j in range(n):
            if naturals[j] == naturals[i]:
                same[i] |= 1 << j
    memo: dict[int, int] = {}

    def gain(mask: int, jk: int, need: bool) -> int:
        """Most weight (table value + saved penalty) the naturals in `mask` and `jk` jokers can place;
        with `need`, at least one discardable card must stay in hand."""
        if not mask:
            return _IMPOSSIBLE if need and not (jk and joker_may_discard) else 0
        key = mask << 6 | jk << 1 | need
        got = memo.get(key)
        if got is not None:
            return got
        i = (mask & -mask).bit_length() - 1
        best = gain(mask & ~same[i], jk, need and not may_discard[i])
        for cmask, nj, weight, _idx in by_low[i]:
            if nj <= jk and cmask & mask == cmask:
                v = weight + gain(mask ^ cmask, jk - nj, need)
                if v > best:
                    best = v
        memo[key] = best
        return best

    return gain, by_low, same, cands


def discard_values(hand: Iterable[str], rules: ValueRules | CardValues = RUMMY500_VALUES) -> dict[str, int]:
    """For each distinct card of `hand`, the value of the best arrangement of the hand without it.

    One search answers every candidate discard (the sub-problems are shared), which is what a player
    choosing a discard needs; `discard_values(h, r)[c] == best_arrangement(h minus c, r).value`.
    """
    values = card_values(rules)
    codes = list(hand)
    parsed = sorted(_parse(c) for c in codes)
    jokers = parsed.count(0)
    naturals = tuple(c for c in parsed if c)
    n = len(naturals)
    gain, _by_low, _same, _cands = _search(naturals, jokers, values, [True] * n, True)
    total = sum(values.hand[c & 15] for c in naturals) + jokers * values.joker_hand
    full = (1 << n) - 1
    out: dict[str, int] = {}
    for i, card in enumerate(naturals):
        code = _code(card)
        if code not in out:
            out[code] = gain(full & ~(1 << i), jokers, False) - (total - values.hand[card & 15])
    if jokers:
        out[JOKER] = gain(full, jokers - 1, False) - (total - values.joker_hand)
    return {c: out[c] for c in sorted(out, key=card_sort_key)}


def _solve(
    naturals: tuple[int, ...],
    jokers: int,
    kept: tuple[str, ...],
    values: CardValues,
    leave_one: bool,
    discardable: Collection[str] | None,
) -> Arrangement:
    n = len(naturals)
    # `need`: the arrangement must still leave a discardable card in hand (final discard required).
    may_discard = [discardable is None or _code(c) in discardable for c in naturals]
    joker_may_discard = discardable is None or JOKER in discardable
    need0 = leave_one and not any(discardable is None or k in discardable for k in kept)
    gain, by_low, same, cands = _search(naturals, jokers, values, may_discard, joker_may_discard)

    full = (1 << n) - 1
    if gain(full, jokers, need0) <= _IMPOSSIBLE // 2:
        raise ValueError("no arrangement leaves a discardable card in hand")

    # Walk the memo back to the melds that reach the optimum, preferring to meld on ties.
    chosen: list[int] = []
    mask, jk, need = full, jokers, need0
    left_mask = 0
    while mask:
        i = (mask & -mask).bit_length() - 1
        target = gain(mask, jk, need)
        for cmask, nj, weight, idx in by_low[i]:
            if nj <= jk and cmask & mask == cmask and weight + gain(mask ^ cmask, jk - nj, need) == target:
                chosen.append(idx)
                mask ^= cmask
                jk -= nj
                break
        else:
            left_mask |= mask & same[i]
            need = need and not may_discard[i]
            mask &= ~same[i]
    melds = tuple(cands[idx][4] for idx in chosen)
    placed = sum(cands[idx][3] for idx in chosen)
    leftover = [*kept, *(_code(naturals[i]) for i in range(n) if left_mask >> i & 1), *([JOKER] * jk)]
    penalty = sum(values.joker_hand if c == JOKER else values.hand[_parse(c) & 15] for c in leftover)
    return Arrangement(
        melds=melds,
        leftover=tuple(sorted(leftover, key=card_sort_key)),
        placed=placed,
        penalty=penalty,
    )
