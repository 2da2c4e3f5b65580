"""JSON for database columns: orjson, with the standard library for what orjson leaves out.

The game state (about 3 KB) is written on every move and read on the next; Python's json module took a
visible share of a move's CPU (docs/performance.md). The text differs only in whitespace, which jsonb
does not keep. Values orjson will not take (integers beyond 64 bits, datetimes and dataclasses, which the
standard library refuses too) go to `json`, so what is accepted and refused stays as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_DUMPS_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any) -> bytes | str:
    try:
        return orjson.dumps(value, option=_DUMPS_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    """json.loads, except that integers beyond 64 bits come back as floats (orjson): only for columns that
    cannot hold them (the move path's game rows: cards, scores, stacks)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # e.g. NaN, which json reads; a json.JSONDecodeError as before otherwise
        return json.loads(text)


def from_db_value(value: Any, expression: Any, connection: Any) -> Any:
    """A JSON column's converter (`JSONField.from_db_value` with `loads`; `database.rows` installs it): text
    that is not JSON is returned as it is, as Django's."""
    if value is None or not isinstance(value, str | bytes):
        return value
    try:
        return loads(value)
    except ValueError:
        return value


def loads_array(text: str | None) -> list[Any]:
    """A JSON array built by a statement (`json_agg(...)::text`); NULL (no rows) is an empty list."""
    return list(loads(text)) if text is not None else []
