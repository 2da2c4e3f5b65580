"""Schemathesis hooks of the fuzz test (tests/api/test_fuzz.py), loaded by the `st` process it starts
(`SCHEMATHESIS_HOOKS`). Only what a client must do to authenticate lives here: nothing filters or rewrites
the generated requests, so every request the schema allows reaches the server as generated.

Each operation is called by the seeded user whose role it is for (an admin's actions by the admin, the ledger's
reads by staff, the rest by a player seated at the table), logged in over `POST /auth/token/` with the password
the test gives in `RAMINO_FUZZ_PASSWORD`; a 401 (the fuzzer's own `POST /auth/logout/` revoked the token)
logs in again and replays the request.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import requests
import schemathesis

_ADMIN = re.compile(
    r"^(POST /api/v1/ledger/adjustments/|POST /api/v1/tables/|POST /api/v1/tables/\{table_id\}/close/"
    r"|POST /api/v1/tournaments/|POST /api/v1/tournaments/\{tournament_id\}/(start|pause|resume|cancel)/)$"
)
_STAFF = re.compile(r"^(GET|POST) /api/v1/(ledger/|tournaments/\{tournament_id\}/payouts/)")


def role(method: str, path: str) -> str:
    """The seeded user who calls `method path`: `admin`, `staff` or `player`."""
    operation = f"{method.upper()} {path}"
    if _ADMIN.match(operation):
        return "admin"
    return "staff" if _STAFF.match(operation) else "player"


def _role_of(case: Any, context: Any) -> str:
    return role(context.operation.method, context.operation.path)


@schemathesis.auth(cache_by_key=_role_of)
class TokenLogin:
    def get(self, case: Any, context: Any) -> str:
        base = os.environ["RAMINO_FUZZ_BASE_URL"]
        username = json.loads(os.environ["RAMINO_FUZZ_USERS"])[_role_of(case, context)]
        response = requests.post(
            f"{base}/api/v1/auth/token/",
            json={"username": username, "password": os.environ["RAMINO_FUZZ_PASSWORD"]},
            timeout=30,
        )
        response.raise_for_status()
        token: str = response.json()["token"]
        return token

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Token {data}"}


# What a schema cannot say: a request it allows that the server refuses, 400, for a reason only the state or
# several fields together decide. For these operations (and only these) `positive_data_acceptance` takes a
# 400 (tests/api/test_fuzz.py), and this check holds each such refusal to its documented codes and fields,
# so that any other 400 (a bound the schema forgot, a type it got wrong) still fails.
KNOWN_REFUSALS: dict[str, dict[str, set[str] | None]] = {
    # A taken or malformed username (letters and digits of any alphabet, `_ . -`: no JSON Schema pattern says
    # "a letter of any alphabet"), one mixing look-alike letters of several alphabets, one reading as a taken
    # one, holding characters that show nothing or reading as a guest's or a bot's, a common or all-numeric
    # password, or one too like the username.
    "POST /api/v1/auth/register/": {
        "request.invalid": {"username", "password", "date_of_birth", "non_field_errors"},
        # A date of birth less than 18 years ago (docs/rules.md "Responsible play").
        "player.underage": None,
        "username.confusable": None,
        "username.lookalike": None,
        "username.invisible": None,
        "username.reserved": None,
    },
    # Wrong credentials (docs/api.md: 400, not 401).
    "POST /api/v1/auth/token/": {"request.invalid": {"non_field_errors"}},
    # The options a preset takes, its seat count, and min_buy_in <= max_buy_in (docs/tables.md, "Settings").
    "POST /api/v1/tables/": {
        "table.invalid_options": None,
        "table.invalid_seats": None,
        "table.invalid_buy_in": None,
        "table.invalid_pcr": None,
        "request.invalid": {"max_buy_in"},
    },
    # Each kind's own settings and their relations (docs/tournaments.md, "Scheduling and templates").
    # The game and its options are checked as a table's (docs/api.md, "Tournaments").
    "POST /api/v1/tournaments/": {
        "tournament.invalid": None,
        "tournament.invalid_payouts": None,
        "table.invalid_options": None,
    },
    # A card or tile code of the right shape that names no card of this game.
    # A move type of another game family (the body's schema lists every family's moves; the game decides which).
    "POST /api/v1/games/{game_id}/moves/": {
        "card.unknown": None,
        "card.malformed": None,
        "move.unknown_type": None,
    },
    # A cursor is the server's to hand out (in `next`/`previous`); `to` before `from`.
    "GET /api/v1/ledger/transfers/": {"request.invalid_parameter": {"cursor"}},
    "GET /api/v1/wallet/transfers/": {"request.invalid_parameter": {"cursor"}},
    "GET /api/v1/ledger/accounts/{id}/statement/": {
        "request.invalid_parameter": {"cursor"},
        "request.invalid": {"from", "to", "at"},
    },
}


def _named(error: dict[str, Any]) -> set[str]:
    details = error.get("details") or {}
    if "parameter" in details:
        return {details["parameter"]}
    return set(details.get("fields", {}))


@schemathesis.check
def positive_refusals_are_known(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    operation = f"{case.operation.method.upper()} {case.operation.path}"
    known = KNOWN_REFUSALS.get(operation)
    if known is None:
        return None  # positive_data_acceptance itself fails it
    error = response.json()["error"]
    if error["code"] not in known:
        raise AssertionError(f"{operation}: a schema-valid request refused with {error['code']}: {error}")
    names = known[error["code"]]
    if names is not None and not _named(error) <= names:
        raise AssertionError(f"{operation}: a schema-valid request refused for {_named(error)}: {error}")
    return None
