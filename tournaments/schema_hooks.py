"""OpenAPI post-processing that needs every app: the closed set of error codes (`ErrorCode`).

Every code the API answers is a member of one app's enum (docs/api.md, "Errors"; tests/test_error_codes.py), or
an engine rule code a refused move answers (docs/rules.md), written as a literal at its raise in the engine
(tests/engine/test_architecture.py holds it to that): the schema lists them all, so a client can switch on
`error.code` exhaustively."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import Any

from accounts.errors import AccountCode
from api.errors import ApiCode
from ledger.errors import LedgerCode
from ratings.errors import RatingsCode
from tournaments.errors import PlayCode

_ENGINE = Path(__file__).resolve().parent / "engine"
# The engine's rule codes: a family prefix and a dotted name (the same reading as its documentation test).
_RULE_CODE = re.compile(
    r"^(move|card|turn|round|draw|meld|layoff|hand|play|swap|discard|end_round|claims|deal|close|ruleset)"
    r"\.[a-z_]+$"
)


@cache
def rule_codes() -> tuple[str, ...]:
    """Every rule code written in the engine's source."""
    found: set[str] = set()
    for path in sorted(_ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _RULE_CODE.match(node.value)
            ):
                found.add(node.value)
    return tuple(sorted(found))


def error_codes() -> list[str]:
    apps = [
        member.value for enum in (ApiCode, AccountCode, LedgerCode, PlayCode, RatingsCode) for member in enum
    ]
    return sorted(set(apps) | set(rule_codes()))


def error_code_enum(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result["components"]["schemas"]
    schemas["ErrorCode"] = {
        "type": "string",
        "enum": error_codes(),
        "description": 'Every code the API answers (docs/api.md, "Errors"; a rule\'s codes: docs/rules.md).',
    }
    code = schemas["Error"]["properties"]["code"]
    schemas["Error"]["properties"]["code"] = {"$ref": "#/components/schemas/ErrorCode"}
    schemas["ErrorCode"]["description"] += " " + code.get("description", "")
    return result
