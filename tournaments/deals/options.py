"""The final-table deal's settings of a multi-table tournament (docs/rules.md "The final-table deal"):
taken out of the settings before `tournament.setup` checks the rest, and stored with them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.errors import InvalidRequest, PlayCode

NAMES = ("deal_seconds", "deal_keep")
DEFAULTS = {"deal_seconds": 60, "deal_keep": 10}
LIMITS = {"deal_seconds": (10, 600), "deal_keep": (0, 100)}


def split(settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the settings without the deal's, the deal's checked, defaults for missing ones). A one-table
    tournament has no final-table deal: it takes only the defaults."""
    rest = {k: v for k, v in settings.items() if k not in NAMES}
    checked: dict[str, Any] = {}
    for name in NAMES:
        value = settings.get(name)
        low, high = LIMITS[name]
        if value is None:
            value = DEFAULTS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRequest(
                f"{name} must be an integer from {low} to {high}.",
                code=PlayCode.TOURNAMENT_INVALID,
                details={"field": name, "minimum": low, "maximum": high},
            )
        if settings.get("kind") != "multi" and value != DEFAULTS[name]:
            raise InvalidRequest(
                f"{name} applies to multi-table tournaments only; leave it out.",
                code=PlayCode.TOURNAMENT_INVALID,
                details={"field": name},
            )
        checked[name] = int(value)
    return rest, checked
