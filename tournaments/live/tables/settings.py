"""What a table may be: the one check of a table's game, options and fields, for the API, the admin and the
round start (a stored table that no longer passes is not dealt), its ruleset (`build_rules`) and its clock options
(`CLOCK_OPTIONS`, `clocks_for`). Ranges are listed in docs/tables.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournaments import engine
from tournaments.engine import Ruleset
from tournaments.errors import InvalidRequest, PlayCode
from tournaments.live.models import Table

MIN_SEATS = 2
# pcr x multiplier x a round's points stays far inside a 64-bit integer, as does any stack (<= MAX_BUY_IN).
MAX_PCR = 10**6
MAX_MULTIPLIER = 1000
MAX_BUY_IN = 10**12


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
    # The reconnection allowance (docs/rules.md "Presence and reconnection"); its default is the site's
    # (`RAMINO_RECONNECT_SECONDS`), 0 is none.
    "reconnect_seconds": ClockOption(default=60, minimum=0, maximum=600),
}
CLOCK_DEFAULTS: dict[str, int] = {name: spec.default for name, spec in CLOCK_OPTIONS.items()}


@dataclass(frozen=True)
class Clocks:
    turn_seconds: float
    time_bank_seconds: float
    max_timeouts: int
    max_timeouts_per_round: int
    reconnect_seconds: float = 0.0


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
    merged = {
        **CLOCK_DEFAULTS,
        "reconnect_seconds": int(settings.RAMINO_RECONNECT_SECONDS),
        **split_options(options)[1],
    }
    return Clocks(
        turn_seconds=float(merged["turn_seconds"]),
        time_bank_seconds=float(merged["time_bank_seconds"]),
        max_timeouts=int(merged["max_timeouts"]),
        max_timeouts_per_round=int(merged["max_timeouts_per_round"]),
        reconnect_seconds=float(merged["reconnect_seconds"]),
    )


@dataclass(frozen=True)
class TableSettings:
    game: str
    options: dict[str, Any]
    seats: int
    pcr: int
    min_buy_in: int
    max_buy_in: int
    multiplier: int


def _integer(field: str, value: Any, low: int, high: int, code: PlayCode) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRequest(
            "%(field)s must be an integer from %(low)s to %(high)s.",
            params={"field": field, "low": low, "high": high},
            code=code,
            details={"field": field, "minimum": low, "maximum": high},
        )
    return int(value)


def validate(
    *,
    game: Any,
    options: Any,
    seats: Any,
    pcr: Any,
    min_buy_in: Any,
    max_buy_in: Any,
    multiplier: Any,
) -> TableSettings:
    """The settings, checked; else `InvalidRequest` (400) whose `details["field"]` names the culprit."""
    if not isinstance(game, str):
        raise InvalidRequest(
            "game must be a preset name.", code=PlayCode.TABLE_INVALID_OPTIONS, details={"field": "game"}
        )
    if not isinstance(options, Mapping):
        raise InvalidRequest(
            "options must be an object.", code=PlayCode.TABLE_INVALID_OPTIONS, details={"field": "options"}
        )
    rules = build_rules(game, options)
    most = rules.max_players
    seats = _integer("seats", seats, MIN_SEATS, most, PlayCode.TABLE_INVALID_SEATS)
    pcr = _integer("pcr", pcr, 1, MAX_PCR, PlayCode.TABLE_INVALID_PCR)
    multiplier = _integer("multiplier", multiplier, 1, MAX_MULTIPLIER, PlayCode.TABLE_INVALID_PCR)
    min_buy_in = _integer("min_buy_in", min_buy_in, 1, MAX_BUY_IN, PlayCode.TABLE_INVALID_BUY_IN)
    max_buy_in = _integer("max_buy_in", max_buy_in, min_buy_in, MAX_BUY_IN, PlayCode.TABLE_INVALID_BUY_IN)
    return TableSettings(
        game=game,
        options=dict(options),
        seats=seats,
        pcr=pcr,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        multiplier=multiplier,
    )


def max_seats(*, game: str, options: Mapping[str, Any]) -> int:
    """The most players the preset with these options seats (the engine says); the game and options must have
    passed `validate`."""
    return build_rules(game, options).max_players


def check_stored(table: Table) -> None:
    """A stored table still passes (rows written before a check existed, or by hand, may not)."""
    validate(
        game=table.game,
        options=table.options,
        seats=table.seats,
        pcr=table.pcr,
        min_buy_in=table.min_buy_in,
        max_buy_in=table.max_buy_in,
        multiplier=table.multiplier,
    )
