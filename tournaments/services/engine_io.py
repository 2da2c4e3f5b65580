"""The one place the apps touch the rules engine: rulesets, (de)serialized states, views, bots.

Keeping the engine's entry points here means the rest of the app never depends on how a state is stored.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments import engine
from tournaments.errors import InvalidRequest

State = Any
Rules = Any

# Clock options of a table (RULES §5) with their defaults; they are the table's, not the ruleset's.
CLOCK_DEFAULTS: dict[str, int] = {
    "turn_seconds": 30,
    "time_bank_seconds": 60,
    "max_timeouts": 3,
    "max_timeouts_per_round": 6,
}


@dataclass(frozen=True)
class Clocks:
    turn_seconds: float
    time_bank_seconds: float
    max_timeouts: int
    max_timeouts_per_round: int


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(ruleset options, clock options)."""
    rules = {k: v for k, v in options.items() if k not in CLOCK_DEFAULTS}
    clocks = {k: v for k, v in options.items() if k in CLOCK_DEFAULTS}
    return rules, clocks


def build_rules(game: str, options: Mapping[str, Any]) -> Rules:
    rule_options, clock_options = split_options(options)
    for key, value in clock_options.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise InvalidRequest(f"Option {key} must be a non-negative number.", code="table.invalid_options")
        if key.startswith("max_") and (not isinstance(value, int) or value < 1):
            raise InvalidRequest(f"Option {key} must be a positive integer.", code="table.invalid_options")
    try:
        return engine.Ruleset.preset(game, **rule_options)
    except engine.IllegalMove as exc:
        raise InvalidRequest(str(exc.message), code="table.invalid_options") from exc
    except (ValueError, TypeError, KeyError) as exc:
        raise InvalidRequest(str(exc) or "Unknown game or option.", code="table.invalid_options") from exc


def clocks_for(options: Mapping[str, Any]) -> Clocks:
    merged = {**CLOCK_DEFAULTS, **split_options(options)[1]}
    return Clocks(
        turn_seconds=float(merged["turn_seconds"]),
        time_bank_seconds=float(merged["time_bank_seconds"]),
        max_timeouts=int(merged["max_timeouts"]),
        max_timeouts_per_round=int(merged["max_timeouts_per_round"]),
    )


def claim_seconds(state: State) -> float:
    """The "Rummy!" claim window is the ruleset's (RULES §2)."""
    return float(getattr(state.rules, "rummy_call_seconds", 10))


def max_players(rules: Rules) -> int:
    return int(getattr(rules, "max_players", 6))


def new_round(rules: Rules, *, players: Sequence[str], dealer: int, round_number: int) -> State:
    return engine.new_round(rules, players=list(players), dealer=dealer, round_number=round_number)


def dump_state(state: State) -> dict[str, Any]:
    return dict(engine.state_to_dict(state))


def load_state(data: Mapping[str, Any]) -> State:
    return engine.state_from_dict(dict(data))


def apply_move(state: State, player: str, move: Mapping[str, Any]) -> State:
    return engine.apply_move(state, player, dict(move))


def close_claims(state: State) -> State:
    return engine.close_claims(state)


def legal_moves(state: State, player: str) -> list[dict[str, Any]]:
    return list(engine.legal_moves(state, player))


def player_view(state: State, player: str | None) -> dict[str, Any]:
    return dict(engine.player_view(state, player))


def _bots() -> Any:
    return importlib.import_module("tournaments.engine.bots")


def auto_move(state: State, player: str) -> dict[str, Any]:
    return dict(_bots().auto_move(state, player))


def greedy_move(state: State, player: str) -> dict[str, Any]:
    return dict(_bots().greedy_move(state, player))


def phase(state: State) -> str:
    return str(state.phase)


def to_act(state: State) -> str | None:
    player = state.to_act
    return None if player is None else str(player)


def may_act(state: State) -> tuple[str, ...]:
    return tuple(state.may_act)


def result(state: State) -> Any:
    return state.result


def deal_secret(state: State) -> tuple[str, list[str], str]:
    """(commitment, deck, salt) of the state's deal; deck and salt are secret until the round is over."""
    return str(state.commitment), list(state.deck), str(state.salt)


def result_dict(res: Any) -> dict[str, Any]:
    bonuses = [
        dict(b) if isinstance(b, Mapping) else _bonus(b) for b in (getattr(res, "bonuses", None) or [])
    ]
    return {
        "scores": dict(res.scores or {}),
        "game_points": dict(getattr(res, "game_points", None) or {}),
        "bonuses": bonuses,
        "details": _jsonable(getattr(res, "details", None)),
        "redeal": bool(getattr(res, "redeal", False)),
    }


def _bonus(bonus: Any) -> dict[str, Any]:
    return {"player": bonus.player, "points": int(bonus.points), "reason": str(bonus.reason)}


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: _jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return str(value)


def is_illegal_move(exc: BaseException) -> bool:
    return isinstance(exc, engine.IllegalMove)


def is_malformed(exc: BaseException) -> bool:
    """The engine's verdict "not a move at all" (HTTP 400) as opposed to "against the rules" (422)."""
    return getattr(exc, "http_status", 422) == 400
