"""The Basic family's limits on what a player may place (docs/rules.md "Basic Rummy family"), on top of the
shared meld rules.

- one meld per turn unless ``multiple_melds_per_turn``;
- ``lay_off_requires_own_meld``: no lay-off on another player's meld before one's own meld is down;
- Rommé: a player's first placement is one ``meld`` move worth ``opening_minimum`` (ace 11, 1 in
  ``A-2-3``; J, Q, K 10; numbers face; a joker as its card), and nothing else comes before it;
- Wrotham, deals 4-6: a player's first placement is one ``meld`` move that leaves at most one card.

``opening`` names the rule a player still has to meet; ``combinations`` lists the several-meld moves
that meet it (docs/rules.md "A turn": several melds in one move are listed only where a rule judges them as a
whole).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ...cards import JOKER, card_sort_key, is_joker
from ...errors import IllegalMove, RuleCode
from ...melds import enumerate_melds, meld_value
from ...state import RoundState
from .book import book_of
from .presets import WROTHAM_ALL_AT_ONCE_FROM, WROTHAM_DEALS, options_of

Group = tuple[str, ...]


def meld_order(group: Sequence[str]) -> tuple[tuple[int, int, int], ...]:
    """Canonical order of the melds of one move."""
    return tuple(card_sort_key(c) for c in group)


def late_deal(state: RoundState) -> bool:
    """Whether this is a Wrotham deal 4-6 (of every six, for a table that keeps dealing)."""
    return (state.round_number - 1) % WROTHAM_DEALS + 1 >= WROTHAM_ALL_AT_ONCE_FROM


def opening(state: RoundState, player: str) -> str | None:
    """``"minimum"`` (Rommé) or ``"all_at_once"`` (Wrotham deals 4-6) while ``player`` has placed
    nothing this round and such a rule applies; else None."""
    own = options_of(state.rules)
    if player in book_of(state).opened:
        return None
    if own.opening_minimum:
        return "minimum"
    if own.all_at_once_late_deals and late_deal(state):
        return "all_at_once"
    return None


def opening_ok(state: RoundState, rule: str, groups: Sequence[Group], left: int) -> bool:
    if rule == "minimum":
        return sum(meld_value(g, state.rules) for g in groups) >= options_of(state.rules).opening_minimum
    return left <= 1


def check_meld(state: RoundState, player: str, groups: Sequence[Group], left: int) -> None:
    """Refuse a meld move the family's limits forbid (``left``: cards the hand keeps after it)."""
    rule = opening(state, player)
    if rule == "minimum" and not opening_ok(state, rule, groups, left):
        raise IllegalMove(
            RuleCode.MELD_OPENING_MINIMUM,
            f"A first placement is melds worth at least {options_of(state.rules).opening_minimum} points,"
            " laid down in one move.",
        )
    if rule == "all_at_once" and not opening_ok(state, rule, groups, left):
        raise IllegalMove(
            RuleCode.MELD_ALL_AT_ONCE,
            "In deals 4-6 the first placement is one meld move that leaves at most one card.",
        )
    if not options_of(state.rules).multiple_melds_per_turn and book_of(state).turn_melds + len(groups) > 1:
        raise IllegalMove(RuleCode.MELD_ONE_PER_TURN, "One meld per turn (multiple_melds_per_turn is off).")


def check_lay_off(state: RoundState, player: str, meld_owner: str) -> None:
    if opening(state, player) is not None:
        raise IllegalMove(RuleCode.PLAY_NOT_OPENED, _not_opened(state, player))
    if (
        options_of(state.rules).lay_off_requires_own_meld
        and meld_owner != player
        and not any(m.owner == player for m in state.melds)
    ):
        raise IllegalMove(
            RuleCode.LAYOFF_OWN_MELD_FIRST,
            "Lay off on another player's meld only once a meld of yours is down.",
        )


def check_swap(state: RoundState, player: str) -> None:
    if opening(state, player) is not None:
        raise IllegalMove(RuleCode.PLAY_NOT_OPENED, _not_opened(state, player))


def _not_opened(state: RoundState, player: str) -> str:
    if opening(state, player) == "minimum":
        return "Open first: no lay-off or joker swap before your opening melds."
    return "In deals 4-6 nothing is laid off or swapped before your first (all-at-once) meld move."


def combinations(
    hand: Sequence[str], state: RoundState, accept: Callable[[Sequence[Group], int], bool]
) -> list[list[Group]]:
    """Every multiset of two or more melds the hand can lay down together that ``accept`` takes
    (given the melds and the cards left), each once, melds in canonical order."""
    rules = state.rules
    cands = sorted(enumerate_melds(hand, rules, min_natural=rules.min_natural), key=meld_order)
    needs = [Counter(JOKER if is_joker(c) else c for c in m) for m in cands]
    counts = Counter(hand)
    out: list[list[Group]] = []
    chosen: list[Group] = []

    def walk(start: int, left: int) -> None:
        if len(chosen) >= 2 and accept(chosen, left):
            out.append(list(chosen))
        for i in range(start, len(cands)):
            need = needs[i]
            if all(counts[c] >= n for c, n in need.items()):
                counts.subtract(need)
                chosen.append(cands[i])
                walk(i, left - len(cands[i]))
                chosen.pop()
                counts.update(need)

    walk(0, len(hand))
    return out
