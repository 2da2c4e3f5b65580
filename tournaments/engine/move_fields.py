"""What a move's fields may hold, defined once: each field's JSON Schema (``families.move_fields`` lists every
family's move types with their fields).

The API checks a move's body against these schemas (``check_field``: a small reader of the JSON Schema
keywords used here, in step with ``jsonschema`` by a test) and publishes them in its OpenAPI schema, one
component per move type. Whether the cards exist and the move is legal is the family's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_CARD = {
    "type": "string",
    "minLength": 1,
    "maxLength": 8,
    "description": "A card code: rank and suit (`7H`, `TS`, `AS`) or `JK`.",
}
_CARD_LIST = {"type": "array", "items": {"type": "string"}, "maxItems": 200}
# A meld's number: at most a signed 64-bit integer, as every integer the API takes (docs/api.md).
MAX_MELD_ID = 2**63 - 1
_GROUPS = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "maxItems": 50}

FIELD_SCHEMAS: Mapping[str, Mapping[str, Any]] = {
    "source": {"type": "string", "enum": ["stock", "discard"], "description": "Where a draw takes from."},
    "card": _CARD,
    "discard": {**_CARD, "description": "The card discarded with the move."},
    "index": {
        "type": "integer",
        "minimum": 0,
        "maximum": 999,
        "description": "A position in the discard pile, 0 at the bottom.",
    },
    "cards": {**_CARD_LIST, "description": "Card codes; a placed joker may name its card (`JK:7H`)."},
    "melds": {**_GROUPS, "description": "Several melds at once, each a list of card codes."},
    "groups": {**_GROUPS, "description": "The hand arranged in groups, each a list of card codes."},
    "meld": {
        "oneOf": [{"type": "integer", "maximum": MAX_MELD_ID}, {"type": "string", "maxLength": 64}],
        "description": "The id of a meld on the table (`m1`).",
    },
}


def check_field(schema: Mapping[str, Any], value: object) -> bool:
    """Whether ``value`` matches ``schema`` (the keywords of ``FIELD_SCHEMAS`` only)."""
    if "oneOf" in schema:
        return sum(check_field(option, value) for option in schema["oneOf"]) == 1
    kind = schema.get("type")
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return bool(schema.get("minimum", value) <= value <= schema.get("maximum", value))
    if kind == "string":
        if not isinstance(value, str):
            return False
        if "enum" in schema and value not in schema["enum"]:
            return False
        return bool(schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)))
    if kind == "array":
        if not isinstance(value, list) or len(value) > schema.get("maxItems", len(value)):
            return False
        return all(check_field(schema["items"], item) for item in value)
    raise ValueError(f"no reader for the schema {dict(schema)!r}")
