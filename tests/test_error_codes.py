"""Every code the API answers is a member of one app's enum and is listed in docs/api.md's error table, and
every code the table lists exists (the engine's rule codes, which a refused move answers, are checked
against docs/rules.md by tests/engine/test_architecture.py)."""

from __future__ import annotations

import ast
import re
from enum import StrEnum

from accounts.errors import AccountCode
from api.errors import ApiCode, ServiceError
from chat.errors import ChatCode
from ledger.errors import LedgerCode
from ratings.errors import RatingsCode
from responsible.breaks.errors import BreakCode
from responsible.limits.errors import LimitsCode
from responsible.sessions.errors import SessionCode
from responsible.verification.errors import VerificationCode
from tests.engine.test_architecture import ROOT, _raised_codes
from tournaments.errors import PlayCode

ENUMS: tuple[type[StrEnum], ...] = (
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
SOURCES = ("config", "ledger", "tournaments", "audit", "play", "ratings", "chat", "responsible", "accounts")
CODE = re.compile(r"^[a-z_]+(\.[a-z_]+)*$")


def documented() -> set[str]:
    """The codes in the "typical codes" column of docs/api.md's error table."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text[text.index("## Errors") :]
    section = section[: section.index("\n## ", 1)]
    codes: set[str] = set()
    for line in section.splitlines():
        if re.match(r"^\| [1-5]\d\d \|", line):
            column = line.rstrip(" |").rsplit(" | ", 1)[-1]
            codes |= {
                c for c in re.findall(r"`([^`]+)`", column) if CODE.match(c) and not c.startswith("details.")
            }
    return codes


def _service_errors() -> list[type[ServiceError]]:
    found: list[type[ServiceError]] = []
    pending = [ServiceError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending += cls.__subclasses__()
    return found


def test_each_code_is_in_one_enum() -> None:
    values = [member.value for enum in ENUMS for member in enum]
    assert len(values) == len(set(values)), sorted(v for v in values if values.count(v) > 1)
    assert all(CODE.match(v) for v in values)


def test_every_code_is_in_the_error_table() -> None:
    listed = documented()
    missing = sorted(member.value for enum in ENUMS for member in enum if member.value not in listed)
    assert not missing, f"codes missing from docs/api.md's error table: {missing}"


def test_every_code_in_the_error_table_exists() -> None:
    known = {member.value for enum in ENUMS for member in enum} | _raised_codes()
    unknown = sorted(documented() - known)
    assert not unknown, f"docs/api.md lists codes nothing answers: {unknown}"


def test_every_service_error_answers_a_code_of_an_enum() -> None:
    errors = _service_errors()
    assert {"LedgerError", "PlayError", "LockedOut", "InsufficientFunds", "StaleVersion"} <= {
        cls.__name__ for cls in errors
    }
    for cls in errors:
        assert type(cls.code) in ENUMS, (cls.__name__, cls.code)


def test_every_raise_names_its_code_by_the_enum() -> None:
    """A code written as a string at a raise would escape the enums (and the table): none is."""
    names = {cls.__name__ for cls in _service_errors()}
    offenders = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts or "engine" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name not in names:
                    continue
                for keyword in node.keywords:
                    if keyword.arg == "code" and isinstance(keyword.value, ast.Constant):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {keyword.value.value!r}")
    assert not offenders, offenders
