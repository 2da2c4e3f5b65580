"""A finished round's result as live play stores it (`Round.result`) and as the tournaments read it back: who
went out and each player's melded-and-built value (a multi-table tournament's tie-breaks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments import engine
from tournaments.engine import Result, Ruleset


def result_dict(res: Result) -> dict[str, Any]:
    """A round's result as stored and shown: the engine's `Result.to_dict` without the deck and salt (the round
    keeps those apart, hidden until it is over)."""
    data = res.to_dict()
    del data["deck"], data["salt"]
    return data


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
