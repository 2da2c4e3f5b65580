"""The turn-completion search (docs/rules.md "Turn-completion invariant"): can the player in turn still end it
legally?

A move is legal only if, after it, the turn can still be completed: every pending obligation met
(the chosen card of a deep draw, a retrieved joker that must be melded) and a legal ending left (a
card that may be discarded, or going out where no final discard is required). An obligation is met by a
placement that contains it (docs/rules.md "Turn-completion invariant": a meld, a lay-off or a joker swap), so
the search places only cards still owed, in every order, as deep as it takes: a chosen card placed by a joker
swap owes one more joker, and jokers retrieved earlier in the turn may each need a placement of their own.
It needs no depth cut (``measure``: every placement lowers it, so every chain of placements ends) and
judges each position once. Every meld family shares this search; what it reads of the state is a ``Turn``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import JOKER, is_joker, rank_char, stands_for, suit_of
from .hands import add, remove
from .melds import enumerate_lay_offs, enumerate_melds, joker_slots
from .rules import Ruleset
from .state import Meld, RoundState


@dataclass(frozen=True)
class Turn:
    """The part of the state the turn-completion search changes."""

    hand: tuple[str, ...]
    melds: tuple[Meld, ...]
    must_use: str | None
    reserved: tuple[str, ...]
    jokers_to_meld: int


def turn_of(state: RoundState) -> Turn:
    return Turn(state.hands[state.turn], state.melds, state.must_use, state.reserved, state.jokers_to_meld)


def placed_obligations(t: Turn, cards: Sequence[str]) -> tuple[str | None, tuple[str, ...], int]:
    """Obligations (must_use, reserved, jokers_to_meld) after ``cards`` (as placed) leave the hand."""
    must_use, reserved, jtm = t.must_use, list(t.reserved), t.jokers_to_meld
    for c in cards:
        k = JOKER if is_joker(c) else c
        if must_use == k:
            must_use = None
        if k == JOKER and jtm:
            jtm -= 1
        if k in reserved:
            reserved.remove(k)
    return must_use, tuple(reserved), jtm


def can_end(t: Turn, rules: Ruleset) -> bool:
    """Whether the turn may end now: nothing owed, and a card to discard (or out, where allowed)."""
    if t.must_use is not None or t.jokers_to_meld:
        return False
    if not t.hand:
        return not rules.final_discard_required
    return any(c not in t.reserved for c in t.hand)


def focus(hand: Sequence[str], card: str) -> list[str]:
    """The hand cards that can share a meld with ``card``: same rank, same suit, jokers."""
    if card == JOKER:
        return list(hand)
    r, s = rank_char(card), suit_of(card)
    return [c for c in hand if c == JOKER or rank_char(c) == r or suit_of(c) == s]


def may_hold(meld: Sequence[str], card: str) -> bool:
    """Whether ``card`` could ever join ``meld``: a set of its rank or a run of its suit."""
    rank = rank_char(meld[0])
    if rank == rank_char(meld[1]):
        return rank == rank_char(card)
    return suit_of(meld[0]) == suit_of(card)


@dataclass(frozen=True)
class Placement:
    """A placement found by the search: the cards it took from hand, the meld it changed, the result."""

    placed: tuple[str, ...]
    meld_index: int | None  # None: a new meld
    swap: bool
    after: Turn


def placements_with(t: Turn, card: str, rules: Ruleset) -> Iterable[Placement]:
    """Every single meld, lay-off or swap that places ``card`` (``JK``: any joker), applied."""
    near = focus(t.hand, card)

    def has(cards: Sequence[str]) -> bool:
        return any(stands_for(c) is not None for c in cards) if card == JOKER else card in cards

    for m in enumerate_melds(near, rules, min_natural=rules.min_natural, containing=card):
        if has(m):
            rest = remove(t.hand, m)
            if rest is not None:
                mu, res, jtm = placed_obligations(t, m)
                new = Meld(f"m{len(t.melds) + 1}", "", m, ("",) * len(m))
                yield Placement(m, None, False, Turn(rest, (*t.melds, new), mu, res, jtm))
    for i, meld in enumerate(t.melds):
        if card != JOKER and not may_hold(meld.cards, card):
            continue
        for added, cards in enumerate_lay_offs(near, meld.cards, rules):
            if has(added):
                rest = remove(t.hand, added)
                if rest is not None:
                    mu, res, jtm = placed_obligations(t, added)
                    melds = list(t.melds)
                    melds[i] = Meld(meld.id, meld.owner, cards, ("",) * len(cards))
                    yield Placement(added, i, False, Turn(rest, tuple(melds), mu, res, jtm))
    if rules.joker_swap and card != JOKER and card in t.hand:
        for i, meld in enumerate(t.melds):
            for idx, nat in joker_slots(meld.cards):
                if nat == card:
                    rest = remove(t.hand, [card])
                    assert rest is not None
                    mu, res, jtm = placed_obligations(t, [card])
                    swapped = (*meld.cards[:idx], card, *meld.cards[idx + 1 :])
                    melds = list(t.melds)
                    melds[i] = Meld(meld.id, meld.owner, swapped, meld.placers)
                    extra = 1 if rules.swapped_joker_must_be_melded else 0
                    after = Turn(add(rest, [JOKER]), tuple(melds), mu, (*res, JOKER), jtm + extra)
                    yield Placement((card,), i, True, after)


def measure(t: Turn) -> tuple[int, int]:
    """(cards in hand, natural cards in hand): a meld or a lay-off takes at least one card from the hand, a
    joker swap trades a natural card of it for a joker, so every placement lowers this (lexicographically)
    and a chain of placements is never longer than twice the hand."""
    return len(t.hand), sum(1 for c in t.hand if c != JOKER)


def feasible(t: Turn, rules: Ruleset) -> bool:
    """Whether the turn can still be completed: obligations met and a legal ending left."""
    return _feasible(t, rules, None)


def _feasible(t: Turn, rules: Ruleset, seen: dict[Turn, bool] | None) -> bool:
    # ``seen``: positions reached in two orders (two jokers laid off one after the other) are judged once;
    # the position asked about is never reached again, so the memory starts below it (most questions end
    # there, and hashing a position costs about as much as judging a simple one).
    if can_end(t, rules):
        return True
    root = seen is None
    if seen is None:
        seen = {}
    else:
        known = seen.get(t)
        if known is not None:
            return known
    targets: list[str] = []
    if t.must_use is not None:
        targets.append(t.must_use)
    if t.jokers_to_meld:
        targets.append(JOKER)
    if not targets:
        # Every card held may not be discarded. Without a final discard, placing them all goes out. With
        # one, only a card held in more copies than are reserved can be freed: placing the reserved copies
        # (a joker retrieved beside one already held, a second 7H with two decks) leaves one to discard;
        # placements take a card from hand and reserve alike, so no other card ever becomes free.
        targets = sorted(
            c
            for c in set(t.reserved) & set(t.hand)
            if not rules.final_discard_required or t.hand.count(c) > t.reserved.count(c)
        )
    found = False
    for target in targets:
        for placement in placements_with(t, target, rules):
            nxt = placement.after
            if rules.final_discard_required and not nxt.hand:
                continue
            if _feasible(nxt, rules, seen):
                found = True
                break
        if found:
            break
    if not root:
        seen[t] = found
    return found
