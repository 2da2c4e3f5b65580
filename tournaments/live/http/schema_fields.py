"""Fields whose schema names a closed set the service checks itself.

A table's or a tournament's `game` is one of the presets (docs/rules.md), but an unknown one is refused by the
service with its own code (`table.invalid_options`, `tournament.invalid`, `details.field = "game"`; docs/api.md),
not DRF's choice error: the field takes any string and the schema shows the enum (`GameEnum`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import StrictCharField
from tournaments.engine.rules import PRESETS


@extend_schema_field(serializers.ChoiceField(choices=PRESETS))
class PresetField(StrictCharField):
    """A game preset's name (`rummy500`, `board`, ...): a JSON string."""


def _object(properties: dict[str, Any], *, required: list[str] | None = None) -> dict[str, Any]:
    """A closed object: the engine writes exactly these keys."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def _per_player(value: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": value, "description": "By player."}


_INT: dict[str, Any] = {"type": "integer"}
_STR: dict[str, Any] = {"type": "string"}
_CARDS: dict[str, Any] = {"type": "array", "items": _STR}
_WENT_OUT: dict[str, Any] = {"type": "string", "nullable": True, "description": "Null: nobody went out."}

# One shape per family (tournaments/engine/families/*/scoring.py) and the drawn result of an instant round
# (tournaments/live/rounds/instant.py). They carry no key naming the family, so the schema is an
# `anyOf` (the table's game says which); the per-player entries tell them apart.
BASIC_DETAILS = _object(
    {
        "reason": {"type": "string", "enum": ["out", "stall", "end_round"]},
        "went_out": _WENT_OUT,
        "going_rummy": {"type": "boolean"},
        "scoring": {"type": "string", "description": "The table's `scoring` option."},
        "winners": {"type": "array", "items": _STR},
        "restocks": _INT,
        "players": _per_player(_object({"hand": _CARDS, "hand_value": _INT, "placed": _CARDS})),
    }
)
RUMMY500_DETAILS = _object(
    {
        "reason": {"type": "string", "enum": ["out", "stall", "stock", "end_round"]},
        "went_out": _WENT_OUT,
        "players": _per_player(
            _object({"placed": _CARDS, "placed_value": _INT, "hand": _CARDS, "hand_value": _INT})
        ),
    }
)
BOARD_DETAILS = _object(
    {
        "reason": {"type": "string", "enum": ["close", "refused", "stock", "stall"]},
        "trump": _STR,
        "thrown": _per_player({**_INT, "description": "Jokers thrown during the round."}),
        "players": _per_player(_object({"hand": _CARDS})),
        "refused_by": {**_STR, "description": "A refused deal (`reason` `refused`)."},
        "closer": {**_STR, "description": "This and what follows: a close (`reason` `close`)."},
        "discard": _STR,
        "hand": _object(
            {
                "row": _STR,
                "tier": _STR,
                "points": _INT,
                "rows": {"type": "array", "items": _STR},
                "jokers": _INT,
                "closed_with_joker": {"type": "boolean"},
                "thrown": _INT,
            }
        ),
        "arrangement": _object(
            {
                "kind": {"type": "string", "enum": ["combinations", "pairs", "mosaic"]},
                "groups": {"type": "array", "items": _CARDS},
            }
        ),
    },
    required=["reason", "trump", "thrown", "players"],
)
INSTANT_DETAILS = _object(
    {
        "reason": {"type": "string", "enum": ["instant"]},
        "went_out": _WENT_OUT,
        "players": _per_player(_object({"placed_value": _INT})),
    }
)
ROUND_DETAILS_SCHEMA: dict[str, Any] = {
    "anyOf": [BASIC_DETAILS, RUMMY500_DETAILS, BOARD_DETAILS, INSTANT_DETAILS],
    "description": "The round's result details, by game family: Basic, Rummy 500, Board, or an instant round's.",
}


@extend_schema_field(ROUND_DETAILS_SCHEMA)
class RoundDetailsField(serializers.DictField):
    """A finished round's `details`, shown as the engine wrote them."""
