"""Listing the placements and discards of a turn after the draw (every meld family shares it).

Each candidate meld, lay-off and joker swap is kept only when the turn can still be completed after
it (``turn.feasible``); discards only when nothing is owed. Moves come out canonical, each once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .cards import JOKER, is_joker
from .hands import add, remove
from .melds import enumerate_lay_offs, enumerate_melds, joker_slots
from .moves import MoveJson
from .state import Meld, RoundState
from .turn import Placement, Turn, can_end, feasible, placed_obligations, placements_with, turn_of


def play_moves(state: RoundState) -> list[MoveJson]:
    """Every legal meld, lay-off, joker swap and discard of the player in turn, after the draw."""
    rules = state.rules
    t = turn_of(state)
    hand = t.hand
    moves: list[MoveJson] = []
    # With one pending obligation, most candidates leave some way of meeting it untouched: the
    # placements that meet it now ("witnesses") are found once and reused, so the full search runs
    # only for candidates that collide with every witness.
    witnesses: list[Placement] = []
    if (t.must_use is None) != (t.jokers_to_meld == 0):
        target = t.must_use if t.must_use is not None else JOKER
        witnesses = [
            w
            for w in placements_with(t, target, rules)
            if not (w.swap and rules.swapped_joker_must_be_melded) and not w.after.jokers_to_meld
        ]
    hand_count = Counter(hand)
    witness_counts: list[tuple[Placement, Counter[str]]] = []
    for w in sorted(witnesses, key=lambda w: len(w.placed)):
        wcount = Counter(JOKER if is_joker(c) else c for c in w.placed)
        # a witness using a superset of another's cards (same meld, same kind) adds nothing
        if not any(
            k.meld_index == w.meld_index
            and k.swap == w.swap
            and all(wcount[c] >= n for c, n in kcount.items())
            for k, kcount in witness_counts
        ):
            witness_counts.append((w, wcount))

    def witnessed(placed: Sequence[str], touched: int | None, swap: bool) -> bool:
        used = Counter(JOKER if is_joker(c) else c for c in placed)
        for w, wcount in witness_counts:
            if touched is not None and w.meld_index == touched:
                continue
            if any(used[k] + v > hand_count[k] for k, v in wcount.items()):
                continue
            left = hand_count - used - wcount
            if swap:
                left[JOKER] += 1
            if w.swap:
                left[JOKER] += 1
            mu, res, jtm = placed_obligations(t, [*placed, *w.placed])
            res = (*res, *([JOKER] if swap else []), *([JOKER] if w.swap else []))
            if can_end(Turn(tuple(left.elements()), (), mu, res, jtm), rules):
                return True
        return False

    def ok(
        placed: Sequence[str],
        rest: tuple[str, ...] | None,
        melds: tuple[Meld, ...],
        swap: bool = False,
        touched: int | None = None,
    ) -> bool:
        if rest is None:
            return False
        if rules.final_discard_required and not rest:
            return False
        mu, res, jtm = placed_obligations(t, placed)
        if swap:
            res = (*res, JOKER)
            jtm += 1 if rules.swapped_joker_must_be_melded else 0
        after = Turn(rest, melds, mu, res, jtm)
        if can_end(after, rules):
            return True
        if witnesses and jtm == t.jokers_to_meld and mu == t.must_use and witnessed(placed, touched, swap):
            return True
        return feasible(after, rules)

    for m in enumerate_melds(hand, rules, min_natural=rules.min_natural):
        new = Meld(f"m{len(state.melds) + 1}", "", m, ("",) * len(m))
        if ok(m, remove(hand, m), (*state.melds, new)):
            moves.append({"type": "meld", "cards": list(m)})
    for i, meld in enumerate(state.melds):
        for added, cards in enumerate_lay_offs(hand, meld.cards, rules):
            melds = list(state.melds)
            melds[i] = Meld(meld.id, meld.owner, cards, meld.placers)
            if ok(added, remove(hand, added), tuple(melds), touched=i):
                moves.append({"type": "lay_off", "meld": meld.id, "cards": list(added)})
    if rules.joker_swap:
        for i, meld in enumerate(state.melds):
            for idx, nat in joker_slots(meld.cards):
                if nat in hand:
                    swapped = (*meld.cards[:idx], nat, *meld.cards[idx + 1 :])
                    melds = list(state.melds)
                    melds[i] = Meld(meld.id, meld.owner, swapped, meld.placers)
                    rest = remove(hand, [nat])
                    if ok(
                        [nat],
                        None if rest is None else add(rest, [JOKER]),
                        tuple(melds),
                        swap=True,
                        touched=i,
                    ):
                        moves.append({"type": "swap_joker", "meld": meld.id, "card": nat})
    if state.must_use is None and not state.jokers_to_meld:
        for c in dict.fromkeys(hand):
            if c not in state.reserved:
                moves.append({"type": "discard", "card": c})
    return moves
