"""The one place the apps touch the rules engine: rulesets, (de)serialized states, views, bots.

Keeping the engine's entry points here means the rest of the app never depends on how a state is stored. It is
typed with the engine's own types and adds no rule of its own: every value it answers is the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournaments import engine
from tournaments.engine import IllegalMove, Move, Result, RoundState, Ruleset, bots
from tournaments.engine.moves import DrawMove
from tournaments.errors import InvalidRequest, PlayCode

__all__ = ["DrawMove", "IllegalMove", "Move", "Result", "RoundState", "Ruleset"]


# Clock options of a table (docs/rules.md "Ring tables, clocks and timeouts"): integers (a fraction of a
# second is no use to anyone at a card table) with their defaults and ranges; they are the table's, not the
# ruleset's. The ranges keep every deadline a `timedelta` can hold and a round that people, not the server,
# play (docs/tables.md).
@dataclass(frozen=True)
class ClockOption:
    default: int
    minimum: int
    maximum: int


CLOCK_OPTIONS: dict[str, ClockOption] = {
    "turn_seconds": ClockOption(default=30, minimum=5, maximum=3600),
    "time_bank_seconds": ClockOption(default=60, minimum=0, maximum=3600),
    "max_timeouts": ClockOption(default=3, minimum=1, maximum=20),
    "max_timeouts_per_round": ClockOption(default=6, minimum=1, maximum=100),
}
CLOCK_DEFAULTS: dict[str, int] = {name: spec.default for name, spec in CLOCK_OPTIONS.items()}


@dataclass(frozen=True)
class Clocks:
    turn_seconds: float
    time_bank_seconds: float
    max_timeouts: int
    max_timeouts_per_round: int


def clock_range(name: str) -> tuple[int, int]:
    """(minimum, maximum) of a clock option; `RAMINO_MIN_TURN_SECONDS` may lower the turn's floor (tests)."""
    spec = CLOCK_OPTIONS[name]
    if name == "turn_seconds":
        return min(spec.minimum, max(1, int(settings.RAMINO_MIN_TURN_SECONDS))), spec.maximum
    return spec.minimum, spec.maximum


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(ruleset options, clock options)."""
    rules = {k: v for k, v in options.items() if k not in CLOCK_DEFAULTS}
    clocks = {k: v for k, v in options.items() if k in CLOCK_DEFAULTS}
    return rules, clocks


def check_clock_options(clock_options: Mapping[str, Any]) -> None:
    for key, value in clock_options.items():
        low, high = clock_range(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRequest(
                "Option %(option)s must be an integer from %(low)s to %(high)s, not %(value)s.",
                params={"option": key, "low": low, "high": high, "value": _shown(value)},
                code=PlayCode.TABLE_INVALID_OPTIONS,
                details={"field": "options", "option": key, "minimum": low, "maximum": high},
            )


def build_rules(game: str, options: Mapping[str, Any]) -> Ruleset:
    """The table's ruleset; every option (the ruleset's and the clocks') checked, else `InvalidRequest`."""
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise InvalidRequest(
            "options must be an object.", code=PlayCode.TABLE_INVALID_OPTIONS, details={"field": "options"}
        )
    rule_options, clock_options = split_options(options)
    check_clock_options(clock_options)
    try:
        return engine.Ruleset.preset(game, **rule_options)
    except engine.RulesetError as exc:
        field = "game" if exc.code in ("ruleset.unknown_preset", "ruleset.not_implemented") else "options"
        raise InvalidRequest(
            exc.message, code=PlayCode.TABLE_INVALID_OPTIONS, details={"field": field, "reason": exc.code}
        ) from exc
    except engine.IllegalMove as exc:
        raise InvalidRequest(
            str(exc.message), code=PlayCode.TABLE_INVALID_OPTIONS, details={"field": "options"}
        ) from exc
    except (ValueError, TypeError, KeyError) as exc:
        raise InvalidRequest(
            str(exc) or "Unknown game or option.",
            code=PlayCode.TABLE_INVALID_OPTIONS,
            details={"field": "options"},
        ) from exc


def _shown(value: Any) -> str:
    """A refused value as the message quotes it: short (it may be a huge number or a nested object)."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print
        return "a huge number"
    return text if len(text) <= 40 else text[:37] + "..."


def clocks_for(options: Mapping[str, Any]) -> Clocks:
    merged = {**CLOCK_DEFAULTS, **split_options(options)[1]}
    return Clocks(
        turn_seconds=float(merged["turn_seconds"]),
        time_bank_seconds=float(merged["time_bank_seconds"]),
        max_timeouts=int(merged["max_timeouts"]),
        max_timeouts_per_round=int(merged["max_timeouts_per_round"]),
    )


def claim_seconds(state: RoundState) -> float:
    """The "Rummy!" claim window is the ruleset's (docs/rules.md "Rummy 500 household"): only a family with
    claim windows has one, so a claim window of a ruleset without the option is an error, not a default."""
    return float(state.rules.option_values()["rummy_call_seconds"])


def rules_dict(rules: Ruleset) -> dict[str, Any]:
    """A ruleset as a round keeps it (`Round.rules`): {"preset", "options"}."""
    return rules.to_dict()


def max_players(rules: Ruleset) -> int:
    return rules.max_players


def next_dealer(previous: int | None, seats: Sequence[int], *, redeal: bool = False) -> int:
    """The seat that deals next: the engine's one rule (docs/rules.md "Game"; docs/rules.md "Board Rummy" for
    a redeal), the first dealer of a table drawn at random with the CSPRNG, then the next occupied seat
    clockwise, or the same dealer again after a refused deal (Board Rummy's ``result.redeal``) while still
    seated."""
    return engine.next_dealer(previous, seats, redeal=redeal)


def new_round(
    rules: Ruleset,
    *,
    players: Sequence[str],
    dealer: int,
    round_number: int,
    deck: Sequence[str] | None = None,
) -> RoundState:
    """A new round, shuffled by CSPRNG; `deck` (every card, top first) stacks it (a practice table's demo)."""
    return engine.new_round(rules, players=list(players), dealer=dealer, round_number=round_number, deck=deck)


def dump_state(state: RoundState) -> dict[str, Any]:
    return engine.state_to_dict(state)


def load_state(data: Mapping[str, Any]) -> RoundState:
    return engine.state_from_dict(dict(data))


def parse_move(data: Move | Mapping[str, Any]) -> Move:
    """The engine's typed move of a move's JSON (a bot's choice; a typed move is itself); `IllegalMove` when
    it is none."""
    return engine.parse_move(data)


def apply_move(state: RoundState, player: str, move: Move | Mapping[str, Any]) -> RoundState:
    return engine.apply_move(state, player, move)


def close_claims(state: RoundState) -> RoundState:
    return engine.close_claims(state)


def legal_moves(state: RoundState, player: str) -> list[dict[str, Any]]:
    return engine.legal_moves(state, player)


def player_view(state: RoundState, player: str | None) -> dict[str, Any]:
    return engine.player_view(state, player)


def hand(state: RoundState, player: str) -> tuple[str, ...]:
    """A player of the round's cards (server side: hidden information)."""
    return state.hand_of(player)


def auto_move(state: RoundState, player: str) -> dict[str, Any]:
    return bots.auto_move(state, player)


def greedy_move(state: RoundState, player: str) -> dict[str, Any]:
    return bots.greedy_move(state, player)


def phase(state: RoundState) -> str:
    return state.phase


def to_act(state: RoundState) -> str | None:
    return state.to_act


def may_act(state: RoundState) -> tuple[str, ...]:
    return tuple(state.may_act)


def result(state: RoundState) -> Result | None:
    return state.result


def deal_secret(state: RoundState) -> tuple[str, list[str], str]:
    """(commitment, deck, salt) of the state's deal; deck and salt are secret until the round is over."""
    return str(state.commitment), list(state.deck), str(state.salt)


def result_dict(res: Result) -> dict[str, Any]:
    """A round's result as stored and shown: the engine's `Result.to_dict` without the deck and salt (the round
    keeps those apart, hidden until it is over)."""
    data = res.to_dict()
    del data["deck"], data["salt"]
    return data


def is_malformed(exc: IllegalMove) -> bool:
    """The engine's verdict "not a move at all" (HTTP 400) as opposed to "against the rules" (422)."""
    return exc.http_status == 400


def melded_values(result: Mapping[str, Any], rules: Ruleset) -> dict[str, int]:
    """Each player's melded-and-built value of a finished round, from its stored result, whatever the family
    (the first tie-break of a multi-table tournament, docs/tournaments.md "Multi-table tournaments: seating
    and places"): Rummy 500 reports it (`placed_value`); Basic Rummy lists the cards each player placed,
    valued as on the table; Board Rummy has no melds (0 each: the closer is the one who went out)."""
    players = (result.get("details") or {}).get("players") or {}
    values: dict[str, int] = {}
    for player in result.get("scores") or {}:
        mine = players.get(player) or {}
        if "placed_value" in mine:
            values[player] = int(mine["placed_value"])
        else:
            values[player] = sum(engine.table_value(card, rules) for card in mine.get("placed") or ())
    return values


def went_out(result: Mapping[str, Any]) -> str | None:
    """Who went out (closed, at Board Rummy) to end the round, if anyone."""
    details = result.get("details") or {}
    who = details.get("went_out") or details.get("closer")
    return str(who) if who else None
