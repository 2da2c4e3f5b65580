"""The entry rules' decision on plain values (docs/rules.md "Entry rules"): no database, no Django."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

RATING_BAND = "rating_band"
NEWCOMERS = "newcomers"
PRIVATE = "private"
RULES = (RATING_BAND, NEWCOMERS, PRIVATE)


@dataclass(frozen=True)
class EntryRules:
    min_rating: int | None = None
    max_rating: int | None = None
    max_rated_results: int | None = None

    @property
    def asks_ratings(self) -> bool:
        return (
            self.min_rating is not None or self.max_rating is not None or self.max_rated_results is not None
        )


@dataclass(frozen=True)
class Refusal:
    rule: str
    details: dict[str, Any]


def refusal(rules: EntryRules, *, rating: int, rated_results: int) -> Refusal | None:
    """The rule refusing a player of `rating` with `rated_results` rated results in the tournament's family
    (a player with no rating has the starting rating and 0 results), or None when every rule admits them. The
    band is inclusive at both ends; newcomers have fewer rated results than `max_rated_results`."""
    low, high = rules.min_rating, rules.max_rating
    if (low is not None and rating < low) or (high is not None and rating > high):
        return Refusal(RATING_BAND, {"min_rating": low, "max_rating": high, "rating": rating})
    if rules.max_rated_results is not None and rated_results >= rules.max_rated_results:
        return Refusal(
            NEWCOMERS, {"max_rated_results": rules.max_rated_results, "rated_results": rated_results}
        )
    return None
