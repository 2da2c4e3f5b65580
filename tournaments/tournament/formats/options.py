"""The options of the rebuy, add-on and progressive-knockout formats (docs/rules.md "Rebuys and the add-on",
"Progressive knockout"), checked for `setup.validate`: multi-table tournaments only; a one-table tournament
leaves them out (or at their neutral values, which it stores)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.errors import InvalidRequest, PlayCode
from tournaments.live import MAX_BUY_IN

MAX_REBUYS = 100
MAX_ADDON_SECONDS = 600
# Each option and its neutral value (off).
NEUTRAL: dict[str, Any] = {
    "rebuy_levels": 0,
    "rebuy_cost": 0,
    "rebuy_fee": 0,
    "rebuy_chips": None,
    "max_rebuys": 0,
    "addon_cost": 0,
    "addon_fee": 0,
    "addon_chips": 0,
    "addon_seconds": 60,
    "bounty_share": 0,
}
FIELDS = tuple(NEUTRAL)


def _invalid(field_name: str, message: str, **details: Any) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TOURNAMENT_INVALID, details={"field": field_name, **details})


def _integer(field_name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _invalid(
            field_name, f"{field_name} must be an integer from {low} to {high}.", minimum=low, maximum=high
        )
    return int(value)


def check(values: Mapping[str, Any], *, multi: bool, levels: int) -> dict[str, Any]:
    """The options (None: their neutral value), checked; `levels`: the PCR schedule's length (the rebuy period
    lasts at most that many levels)."""
    given = {name: (NEUTRAL[name] if values.get(name) is None else values[name]) for name in FIELDS}
    if not multi:
        for name, value in given.items():
            if value != NEUTRAL[name]:
                raise _invalid(name, f"{name} applies to multi-table tournaments only; leave it out.")
        return given
    checked: dict[str, Any] = {
        "rebuy_levels": _integer("rebuy_levels", given["rebuy_levels"], 0, levels),
        "max_rebuys": _integer("max_rebuys", given["max_rebuys"], 0, MAX_REBUYS),
        "addon_seconds": _integer("addon_seconds", given["addon_seconds"], 0, MAX_ADDON_SECONDS),
        "bounty_share": _integer("bounty_share", given["bounty_share"], 0, 100),
        "rebuy_chips": None
        if given["rebuy_chips"] is None
        else _integer("rebuy_chips", given["rebuy_chips"], 1, MAX_BUY_IN),
    }
    for name in ("rebuy_cost", "rebuy_fee", "addon_cost", "addon_fee", "addon_chips"):
        checked[name] = _integer(name, given[name], 0, MAX_BUY_IN)
    if checked["rebuy_levels"] == 0:
        for name in (
            "rebuy_cost",
            "rebuy_fee",
            "rebuy_chips",
            "max_rebuys",
            "addon_cost",
            "addon_fee",
            "addon_chips",
        ):
            if checked[name] != NEUTRAL[name]:
                raise _invalid(name, f"{name} needs a rebuy period: set rebuy_levels first.")
    return checked
