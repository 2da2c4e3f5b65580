"""The entry rules' settings of a tournament (docs/rules.md "Entry rules"), checked as `tournament.setup`
checks the rest: taken out of the settings before those are checked, and stored with them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.errors import InvalidRequest, PlayCode

NAMES = ("min_rating", "max_rating", "max_rated_results", "private")
MAX_RATING = 100_000
MAX_RESULTS = 1_000_000


def _invalid(field_name: str, message: str, **details: Any) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TOURNAMENT_INVALID, details={"field": field_name, **details})


def _optional_integer(name: str, value: Any, low: int, high: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _invalid(
            name, f"{name} must be empty or an integer from {low} to {high}.", minimum=low, maximum=high
        )
    return int(value)


def split(settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the settings without the entry rules', the entry rules' checked). Missing ones are off."""
    rest = {k: v for k, v in settings.items() if k not in NAMES}
    low = _optional_integer("min_rating", settings.get("min_rating"), -MAX_RATING, MAX_RATING)
    high = _optional_integer("max_rating", settings.get("max_rating"), -MAX_RATING, MAX_RATING)
    if low is not None and high is not None and low > high:
        raise _invalid("max_rating", "max_rating must be at least min_rating.")
    newcomers = _optional_integer("max_rated_results", settings.get("max_rated_results"), 1, MAX_RESULTS)
    private = settings.get("private", False)
    if not isinstance(private, bool):
        raise _invalid("private", "private must be true or false.")
    return rest, {"min_rating": low, "max_rating": high, "max_rated_results": newcomers, "private": private}
