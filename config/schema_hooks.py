"""OpenAPI post-processing that needs every app, so it sits with the configuration at the top (nothing imports
it): the closed set of error codes (`ErrorCode`).

Every code the API answers is a member of one app's enum (docs/api.md, "Errors"; tests/test_error_codes.py), or
of the engine's `RuleCode`, the codes a refused move answers (docs/rules.md): the schema lists them all, so a
client can switch on `error.code` exhaustively."""

from __future__ import annotations

from typing import Any

from accounts.errors import AccountCode
from api.errors import ApiCode
from chat.errors import ChatCode
from ledger.errors import LedgerCode
from ratings.errors import RatingsCode
from responsible.breaks.errors import BreakCode
from responsible.limits.errors import LimitsCode
from responsible.sessions.errors import SessionCode
from responsible.verification.errors import VerificationCode
from tournaments.engine import RuleCode
from tournaments.errors import PlayCode


def rule_codes() -> tuple[str, ...]:
    """Every rule code of the engine."""
    return tuple(sorted(code.value for code in RuleCode))


def error_codes() -> list[str]:
    apps = [
        member.value
        for enum in (
            ApiCode,
            AccountCode,
            LedgerCode,
            PlayCode,
            RatingsCode,
            ChatCode,
            LimitsCode,
            SessionCode,
            BreakCode,
            VerificationCode,
        )
        for member in enum
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
