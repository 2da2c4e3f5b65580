"""After the draw (docs/rules.md "Basic Rummy family"): melds, lay-offs and joker swaps within the family's
limits (``gates``), and the turn-completion check those limits call for.

The shared placements apply a move and the shared turn search (docs/rules.md "Turn-completion invariant")
keeps a turn completable; here, a placement or a pile draw is also refused when it would leave the player
holding only cards that may not be discarded this turn with no placement the family's limits allow to get rid
of them (``can_finish``). ``legal_moves`` lists exactly what ``apply_move`` accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import JOKER
from ...errors import IllegalMove, RuleCode
from ...hands import remove
from ...listing import play_moves
from ...melds import MeldError, read_meld
from ...moves import LayOffMove, MeldMove, MoveJson, SwapJokerMove, meld_index, parse_move
from ...placements import lay_off_move, meld, meld_groups, swap_joker
from ...state import RoundState
from ...turn import Turn, can_end, placed_obligations, turn_of
from .book import Book, book_of, placed
from .gates import (
    Group,
    check_lay_off,
    check_meld,
    check_swap,
    combinations,
    meld_order,
    opening,
    opening_ok,
)
from .presets import options_of

PlacementMove = MeldMove | LayOffMove | SwapJokerMove


def _groups(move: MeldMove, state: RoundState) -> list[Group]:
    """The melds of a ``meld`` move, canonical, in canonical order."""
    groups = []
    for g in meld_groups(move):
        try:
            groups.append(read_meld(g, state.rules, min_natural=state.rules.min_natural))
        except MeldError as exc:
            raise IllegalMove(exc.code, exc.message) from None
    return sorted(groups, key=meld_order)


def place(state: RoundState, move: PlacementMove, *, check: bool = True) -> tuple[RoundState, PlacementMove]:
    """A meld, lay-off or joker swap of the player in turn; ``check``: refuse one that leaves the turn
    impossible to finish (``turn.cannot_complete``)."""
    player = state.players[state.turn]
    logged: PlacementMove
    if isinstance(move, MeldMove):
        groups = _groups(move, state)
        rest = remove(state.hands[state.turn], [c for g in groups for c in g])
        if rest is not None:  # else the shared placement says which card is missing
            check_meld(state, player, groups, len(rest))
        shared = MeldMove(cards=groups[0]) if len(groups) == 1 else MeldMove(melds=tuple(groups))
        new, logged = meld(state, shared)
        new = placed(new, player, len(groups))
    elif isinstance(move, LayOffMove):
        i = meld_index(state, move.meld, RuleCode.LAYOFF_UNKNOWN_MELD)
        check_lay_off(state, player, state.melds[i].owner)
        new, logged = lay_off_move(state, move)
        new = placed(new, player, 0)
    else:
        check_swap(state, player)
        new, logged = swap_joker(state, move)
        new = placed(new, player, 0)
    if check and not can_finish(new):
        raise IllegalMove(
            RuleCode.TURN_CANNOT_COMPLETE,
            "After this move the turn could not be completed: no card could be discarded and nothing placed.",
        )
    return new, logged


def can_finish(state: RoundState) -> bool:
    """Whether the player in turn can still end the turn: a card that may be discarded, going out, or a
    chain of placements the family allows that leads there.

    No depth cut: every placement lowers ``turn.measure``, so every chain ends. The search runs only on a
    hand of cards that may not be discarded (the chosen pile card and the jokers retrieved this turn),
    which is small; a position reached in two orders is judged once."""
    return _can_finish(state, {})


def _can_finish(state: RoundState, seen: dict[tuple[Turn, Book], bool]) -> bool:
    t = turn_of(state)
    if not t.hand or can_end(t, state.rules):
        return True
    # What the family's limits read of a position besides the cards: its book (opened, melds this turn).
    key = (t, book_of(state))
    known = seen.get(key)
    if known is not None:
        return known
    found = False
    for move in _candidates(state):
        try:
            after, _ = place(state, _placement(move), check=False)
        except IllegalMove:
            continue
        if _can_finish(after, seen):
            found = True
            break
    seen[key] = found
    return found


def _placement(move: MoveJson) -> PlacementMove:
    """A listed placement as the typed move ``place`` takes."""
    typed = parse_move(move)
    assert isinstance(typed, MeldMove | LayOffMove | SwapJokerMove), typed
    return typed


def _candidates(state: RoundState) -> list[MoveJson]:
    """The placements the shared listing and the family's limits allow, before the finishing check."""
    player = state.players[state.turn]
    rule = opening(state, player)
    own_meld = any(m.owner == player for m in state.melds)
    out: list[MoveJson] = []
    for move in play_moves(state):
        mtype = move["type"]
        if mtype == "discard":
            continue
        if mtype == "meld":
            try:
                left = len(state.hands[state.turn]) - len(move["cards"])
                check_meld(state, player, [tuple(move["cards"])], left)
            except IllegalMove:
                continue
        elif rule is not None or (mtype == "lay_off" and not _lay_off_ok(state, player, move, own_meld)):
            continue
        out.append(move)
    if rule is not None:
        out += _openings(state, player, rule)
    return out


def _lay_off_ok(state: RoundState, player: str, move: MoveJson, own_meld: bool) -> bool:
    if own_meld or not options_of(state.rules).lay_off_requires_own_meld:
        return True
    return next(m.owner for m in state.melds if m.id == move["meld"]) == player


def _openings(state: RoundState, player: str, rule: str) -> list[MoveJson]:
    """The several-meld moves that meet the opening rule (singles come from the shared listing)."""
    hand = state.hands[state.turn]
    final = state.rules.final_discard_required

    def accept(groups: Sequence[Group], left: int) -> bool:
        return not (final and left == 0) and opening_ok(state, rule, groups, left)

    return [
        {"type": "meld", "melds": [list(g) for g in combo]} for combo in combinations(hand, state, accept)
    ]


def listed_placements(state: RoundState) -> list[MoveJson]:
    """Every legal placement: the candidates after which the turn can still be finished."""
    t = turn_of(state)
    out = []
    for move in _candidates(state):
        cards = _placed_cards(state, move)
        rest = remove(t.hand, cards)
        if rest is None:
            continue
        _mu, reserved, _jtm = placed_obligations(t, cards)
        if move["type"] == "swap_joker":
            rest, reserved = (*rest, JOKER), (*reserved, JOKER)
        if not rest or any(c not in reserved for c in rest):
            out.append(move)
            continue
        try:
            place(state, _placement(move))
        except IllegalMove:
            continue
        out.append(move)
    return out


def _placed_cards(state: RoundState, move: MoveJson) -> list[str]:
    if move["type"] == "swap_joker":
        return [move["card"]]
    if "melds" in move:
        return [c for g in move["melds"] for c in g]
    return list(move["cards"])


def legal_play(state: RoundState) -> list[MoveJson]:
    """Placements (single melds, several-meld openings, lay-offs, swaps), then the discards."""
    moves = listed_placements(state)
    # nothing is ever owed in this family (no deep draw, no joker that must be melded): any card but the
    # ones taken this turn may go
    discards: list[MoveJson] = [
        {"type": "discard", "card": c}
        for c in dict.fromkeys(state.hands[state.turn])
        if c not in state.reserved
    ]
    # single melds, then several-meld moves, then lay-offs and swaps: canonical
    order = {"meld": 0, "lay_off": 2, "swap_joker": 3}
    moves.sort(key=lambda m: order[m["type"]] + (1 if "melds" in m else 0))
    return moves + discards
