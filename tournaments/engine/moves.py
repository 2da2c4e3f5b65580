"""Reading a move's JSON: the envelope every family shares and the field readers its moves use.

Every card in a move is read by ``cards.parse_card``; a refusal is an ``IllegalMove`` with the
card's code. ``check_envelope`` refuses what is not a move of the family at all (HTTP 400).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import CardError, parse_card
from .errors import IllegalMove
from .state import RoundState

Move = dict[str, Any]


def check_envelope(move: object, fields: Mapping[str, frozenset[str]]) -> tuple[Mapping[str, Any], str]:
    """``(move, type)`` when ``move`` is an object whose type is one of ``fields`` and has no other field."""
    if not isinstance(move, Mapping):
        raise IllegalMove("move.malformed", "A move is a JSON object with a 'type'.")
    mtype = move.get("type")
    if not isinstance(mtype, str) or mtype not in fields:
        raise IllegalMove("move.unknown_type", f"Unknown move type {mtype!r}; types: {', '.join(fields)}.")
    extra = set(move) - fields[mtype]
    if extra:
        raise IllegalMove(
            "move.malformed", f"Unexpected fields for {mtype}: {', '.join(sorted(map(str, extra)))}."
        )
    return move, mtype


def log_entry(player: str, move: Mapping[str, Any]) -> tuple[str, str]:
    """A move as the round's log keeps it (canonical JSON)."""
    return (player, json.dumps(move, sort_keys=True, separators=(",", ":")))


def card(value: object, *, placed: bool = False) -> str:
    """One card of a move; ``placed`` allows a joker written with its card (``JK:7H``)."""
    try:
        return parse_card(value, allow_placed_joker=placed)
    except CardError as exc:
        raise IllegalMove(exc.code, exc.message) from None


def card_list(value: object, *, placed: bool = True) -> list[str]:
    if not isinstance(value, list | tuple) or not value:
        raise IllegalMove("move.malformed", "Expected a non-empty list of cards.")
    return [card(v, placed=placed) for v in value]


def integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("move.malformed", f"{name} must be an integer.")
    return value


def meld_index(state: RoundState, value: object, code: str) -> int:
    """The position of the meld a move names by id; ``code`` when there is none."""
    if not isinstance(value, str):
        raise IllegalMove("move.malformed", "meld must be a meld id such as 'm1'.")
    for i, m in enumerate(state.melds):
        if m.id == value:
            return i
    raise IllegalMove(code, f"There is no meld {value!r} on the table.")


def pile_index(pile: Sequence[str], name_value: object, index: object, code_prefix: str) -> int:
    """The pile position a draw or call names (``card`` and/or ``index``; 0 = bottom)."""
    missing, mismatch, required = (
        ("claims.card_not_in_pile", "claims.index_mismatch", "claims.index_required")
        if code_prefix == "claims"
        else ("draw.card_not_in_pile", "draw.index_mismatch", "draw.index_required")
    )
    if not pile:
        raise IllegalMove("draw.pile_empty", "The discard pile is empty.")
    name = card(name_value) if name_value is not None else None
    if index is not None:
        i = integer(index, "index")
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
