"""A move as one typed value: one immutable class per move kind, ``parse_move`` to read one from JSON, and
``to_json`` to write it back (docs/api.md "Playing": the same JSON in the engine and over HTTP).

``parse_move`` reads a move once, where it comes in: the envelope (an object whose ``type`` is a move type,
with only the fields that type takes) and each field's JSON type (a string, an integer, a list of strings, a
list of lists of strings). A ``null`` field is an absent one. A refusal is an ``IllegalMove`` with the code
docs/rules.md lists and the field's name in ``details["field"]``.

What a value names is the rules' to judge, when the rule that uses it comes: a card of this game's deck (a
card or a tile: ``card``, ``card_list``), the source of a draw, a meld on the table (``meld_index``), a pile
position (``pile_index``), which of ``cards``/``melds`` a meld move gives. Refusals keep the order the rules
check in (a discard before the draw is ``turn.draw_first`` whatever it names; the golden rounds pin that
order), and each family reads only typed values.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .cards import CardError, parse_card
from .errors import IllegalMove, RuleCode
from .state import RoundState

# A move as JSON: what ``legal_moves`` lists, the bots choose and the log keeps.
MoveJson = dict[str, Any]
Cards = tuple[str, ...]


class BaseMove:
    """What every move kind has: its JSON ``type``, its fields (in JSON order) and ``to_json``."""

    __slots__ = ()
    type: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> MoveJson:
        """The move's JSON: ``type`` and every field given (lists for tuples)."""
        out: MoveJson = {"type": self.type}
        for name in self.fields:
            value = getattr(self, name)
            if value is not None:
                out[name] = _json(value)
        return out


def _json(value: object) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class DrawMove(BaseMove):
    """``draw``: from the ``stock``, or a ``discard`` pile card named by ``card`` and/or ``index`` (0 = bottom)."""

    type: ClassVar[str] = "draw"
    fields: ClassVar[tuple[str, ...]] = ("source", "card", "index")
    source: str | None = None
    card: str | None = None
    index: int | None = None


@dataclass(frozen=True, slots=True)
class MeldMove(BaseMove):
    """``meld``: one meld (``cards``) or several laid down as one move (``melds``)."""

    type: ClassVar[str] = "meld"
    fields: ClassVar[tuple[str, ...]] = ("cards", "melds")
    cards: Cards | None = None
    melds: tuple[Cards, ...] | None = None


@dataclass(frozen=True, slots=True)
class LayOffMove(BaseMove):
    """``lay_off``: ``cards`` added to the table's meld ``meld`` (its id; an integer names none)."""

    type: ClassVar[str] = "lay_off"
    fields: ClassVar[tuple[str, ...]] = ("meld", "cards")
    meld: str | int | None = None
    cards: Cards | None = None


@dataclass(frozen=True, slots=True)
class SwapJokerMove(BaseMove):
    """``swap_joker``: the natural ``card`` replaces the joker standing for it in ``meld``."""

    type: ClassVar[str] = "swap_joker"
    fields: ClassVar[tuple[str, ...]] = ("meld", "card")
    meld: str | int | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class DiscardMove(BaseMove):
    """``discard``: ``card`` to the top of the pile."""

    type: ClassVar[str] = "discard"
    fields: ClassVar[tuple[str, ...]] = ("card",)
    card: str | None = None


@dataclass(frozen=True, slots=True)
class EndRoundMove(BaseMove):
    """``end_round``: instead of a draw, facing an empty stock where the rules allow it."""

    type: ClassVar[str] = "end_round"


@dataclass(frozen=True, slots=True)
class CallRummyMove(BaseMove):
    """``call_rummy`` (a claim window): the pile card (``card`` and/or ``index``) laid off on ``meld``."""

    type: ClassVar[str] = "call_rummy"
    fields: ClassVar[tuple[str, ...]] = ("card", "index", "meld")
    card: str | None = None
    index: int | None = None
    meld: str | int | None = None


@dataclass(frozen=True, slots=True)
class PassClaimMove(BaseMove):
    """``pass_claim``: no call in this claim window."""

    type: ClassVar[str] = "pass_claim"


@dataclass(frozen=True, slots=True)
class KeepDealMove(BaseMove):
    """``keep_deal`` (Board Rummy, phase ``deal``)."""

    type: ClassVar[str] = "keep_deal"


@dataclass(frozen=True, slots=True)
class RefuseDealMove(BaseMove):
    """``refuse_deal`` (Board Rummy, phase ``deal``): the round is redealt."""

    type: ClassVar[str] = "refuse_deal"


@dataclass(frozen=True, slots=True)
class CloseMove(BaseMove):
    """``close`` (Board Rummy): ``discard`` and keep 14 tiles that close; ``groups`` optionally shows them."""

    type: ClassVar[str] = "close"
    fields: ClassVar[tuple[str, ...]] = ("discard", "groups")
    discard: str | None = None
    groups: tuple[Cards, ...] | None = None


Move = (
    DrawMove
    | MeldMove
    | LayOffMove
    | SwapJokerMove
    | DiscardMove
    | EndRoundMove
    | CallRummyMove
    | PassClaimMove
    | KeepDealMove
    | RefuseDealMove
    | CloseMove
)
KINDS: dict[str, type[Move]] = {
    kind.type: kind
    for kind in (
        DrawMove,
        MeldMove,
        LayOffMove,
        SwapJokerMove,
        DiscardMove,
        EndRoundMove,
        CallRummyMove,
        PassClaimMove,
        KeepDealMove,
        RefuseDealMove,
        CloseMove,
    )
}


def fields_of(*kinds: type[Move]) -> dict[str, frozenset[str]]:
    """A family's ``move_fields`` from the kinds it plays, in the order given (``type`` included)."""
    return {kind.type: frozenset({"type", *kind.fields}) for kind in kinds}


ALL_FIELDS: dict[str, frozenset[str]] = fields_of(*KINDS.values())


# ---------------------------------------------------------------------- parsing


def parse_move(data: object, types: Mapping[str, Collection[str]] = ALL_FIELDS) -> Move:
    """The typed move ``data`` (a JSON object, or already a move) is; ``types``: the move types accepted with
    their fields (a family's ``move_fields``; every kind by default). ``IllegalMove`` when it is not one."""
    if isinstance(data, BaseMove):
        if data.type not in types:
            raise _unknown_type(data.type, types)
        return data  # type: ignore[return-value]  # every BaseMove is one of the kinds of Move
    if not isinstance(data, Mapping):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, "A move is a JSON object with a 'type'.")
    mtype = data.get("type")
    if not isinstance(mtype, str) or mtype not in types:
        raise _unknown_type(mtype, types)
    allowed = types[mtype]
    extra = [k for k in data if k not in allowed]
    if extra:
        names = sorted(map(str, extra))
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED,
            f"Unexpected fields for {mtype}: {', '.join(names)}.",
            {"field": names[0]},
        )
    kind = KINDS[mtype]
    values: dict[str, Any] = {}
    for name in kind.fields:
        value = data.get(name)
        if value is not None:
            values[name] = _READERS[name](value, name)
    return kind(**values)


def _unknown_type(mtype: object, types: Mapping[str, Collection[str]]) -> IllegalMove:
    return IllegalMove(
        RuleCode.MOVE_UNKNOWN_TYPE,
        f"Unknown move type {_shown(mtype)}; types: {', '.join(types)}.",
        {"field": "type"},
    )


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, f"{name} must be a string.", {"field": name})
    return value


def _card_code(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise IllegalMove(
            RuleCode.CARD_MALFORMED,
            f"{name}: a card must be a string such as '7H' or 'JK', not {_shown(value)}.",
            {"field": name},
        )
    return value


def _integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, f"{name} must be an integer.", {"field": name})
    return value


def _meld_id(value: object, name: str) -> str | int:
    # An integer is what the API's schema allows beside an id; it names no meld (``meld_index``).
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, f"{name} must be a meld id such as 'm1'.", {"field": name})
    return value


def _card_codes(value: object, name: str) -> Cards:
    if not isinstance(value, list | tuple):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, f"{name} must be a list of cards.", {"field": name})
    return tuple(_card_code(v, name) for v in value)


def _card_groups(value: object, name: str) -> tuple[Cards, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(g, list | tuple) for g in value):
        raise IllegalMove(
            RuleCode.MOVE_MALFORMED, f"{name} must be a list of lists of cards.", {"field": name}
        )
    return tuple(_card_codes(g, name) for g in value)


_READERS = {
    "source": _string,
    "card": _card_code,
    "discard": _card_code,
    "index": _integer,
    "meld": _meld_id,
    "cards": _card_codes,
    "melds": _card_groups,
    "groups": _card_groups,
}


# ---------------------------------------------------------------------- what the rules read


def log_entry(player: str, move: Move) -> tuple[str, str]:
    """A move as the round's log keeps it (canonical JSON)."""
    return (player, json.dumps(move.to_json(), sort_keys=True, separators=(",", ":")))


def card(value: str | None, *, placed: bool = False) -> str:
    """One card of a move, canonical; ``placed`` allows a joker written with its card (``JK:7H``)."""
    try:
        return parse_card(value, allow_placed_joker=placed)
    except CardError as exc:
        raise IllegalMove(exc.code, exc.message) from None


def card_list(value: Sequence[str] | None, *, placed: bool = True) -> list[str]:
    """The cards of a meld or a lay-off, canonical; there is at least one."""
    if not value:
        raise IllegalMove(RuleCode.MOVE_MALFORMED, "Expected a non-empty list of cards.")
    return [card(v, placed=placed) for v in value]


def meld_index(state: RoundState, value: str | int | None, code: str) -> int:
    """The position of the meld a move names by id; ``code`` when there is none."""
    if not isinstance(value, str):
        raise IllegalMove(RuleCode.MOVE_MALFORMED, "meld must be a meld id such as 'm1'.", {"field": "meld"})
    for i, m in enumerate(state.melds):
        if m.id == value:
            return i
    raise IllegalMove(code, f"There is no meld {value!r} on the table.")


def pile_index(pile: Sequence[str], name_value: str | None, index: int | None, code_prefix: str) -> int:
    """The pile position a draw or call names (``card`` and/or ``index``; 0 = bottom)."""
    missing, mismatch, required = (
        (RuleCode.CLAIMS_CARD_NOT_IN_PILE, RuleCode.CLAIMS_INDEX_MISMATCH, RuleCode.CLAIMS_INDEX_REQUIRED)
        if code_prefix == "claims"
        else (RuleCode.DRAW_CARD_NOT_IN_PILE, RuleCode.DRAW_INDEX_MISMATCH, RuleCode.DRAW_INDEX_REQUIRED)
    )
    if not pile:
        raise IllegalMove(RuleCode.DRAW_PILE_EMPTY, "The discard pile is empty.")
    name = card(name_value) if name_value is not None else None
    if index is not None:
        i = index
        if not 0 <= i < len(pile):
            raise IllegalMove(missing, f"The pile has no card at index {i}.")
        if name is not None and pile[i] != name:
            raise IllegalMove(mismatch, f"The card at index {i} is {pile[i]}, not {name}.")
        return i
    if name is None:
        return len(pile) - 1
    where = [i for i, c in enumerate(pile) if c == name]
    if not where:
        raise IllegalMove(missing, f"{name} is not in the discard pile.")
    if len(where) > 1:
        raise IllegalMove(required, f"The pile holds {name} twice: give its index.")
    return where[0]
