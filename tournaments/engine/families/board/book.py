"""Board Rummy's bookkeeping in ``RoundState.own`` (seat numbers, JSON-like, read-only).

- ``trump``: the tile turned up after the deal; ``trump_seat``: the seat dealt its twin (None: in the stock).
- ``thrown``: per seat, the jokers that player discarded during play ("thrown", docs/rules.md "Board Rummy").
- ``deal_qualified``: the seats dealt three or more identical pairs; in phase ``deal``,
  ``deal_pending`` (the seats still to answer, read by ``RoundState.may_act``) and ``deal_kept``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...state import RoundState, freeze


def trump(state: RoundState) -> str:
    return str(state.own["trump"])


def trump_seat(state: RoundState) -> int | None:
    seat = state.own.get("trump_seat")
    return None if seat is None else int(seat)


def thrown(state: RoundState, seat: int) -> int:
    return int(state.own["thrown"][seat])


def seats(state: RoundState, key: str) -> tuple[int, ...]:
    return tuple(int(s) for s in state.own.get(key, ()))


def names(state: RoundState, key: str) -> list[str]:
    return [state.players[s] for s in seats(state, key)]


def with_own(state: RoundState, **changes: Any) -> RoundState:
    """``state`` with these bookkeeping keys changed (a value None removes the key)."""
    own = {k: _plain(v) for k, v in state.own.items()}
    for key, value in changes.items():
        if value is None:
            own.pop(key, None)
        else:
            own[key] = value
    return replace(state, own=freeze(own))


def add_thrown(state: RoundState, seat: int) -> RoundState:
    counts = list(state.own["thrown"])
    counts[seat] += 1
    return with_own(state, thrown=counts)


def initial(
    trump_tile: str, twin_seat: int | None, qualified: Sequence[int], n_players: int
) -> dict[str, Any]:
    own: dict[str, Any] = {"trump": trump_tile, "trump_seat": twin_seat, "thrown": [0] * n_players}
    if qualified:
        own |= {"deal_qualified": list(qualified), "deal_pending": list(qualified), "deal_kept": []}
    return own


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return {k: _plain(v) for k, v in value.items()}
