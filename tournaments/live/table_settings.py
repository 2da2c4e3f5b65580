"""What a table may be: the one check of a table's game, options and fields, for the API, the admin and the
round start (a stored table that no longer passes is not dealt). Ranges are listed in docs/tables.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.errors import InvalidRequest, PlayCode
from tournaments.live import engine_io
from tournaments.live.models import Table

MIN_SEATS = 2
# pcr x multiplier x a round's points stays far inside a 64-bit integer, as does any stack (<= MAX_BUY_IN).
MAX_PCR = 10**6
MAX_MULTIPLIER = 1000
MAX_BUY_IN = 10**12


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
    rules = engine_io.build_rules(game, options)
    most = engine_io.max_players(rules)
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
    return engine_io.max_players(engine_io.build_rules(game, options))


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
