"""The schema and the server agree (what schemathesis found, docs/api.md "Numbers and dates"): a string field
takes JSON strings only (never `0` stored as "0", nor a name sent as the number 12345); every integer has a
maximum in the schema and the server refuses past it with a range error, also past 2^64 - 1, which the JSON
parser reads as a float; a PATCH of a flag takes any subset of its fields, the empty one included; a query
parameter's number is finite (`wait=1e309` is refused like `wait=inf`)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from api.fields import MAX_INTEGER
from integrity.models import Flag, FlagStatus
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

PAST_64_BITS = 2**64  # 18446744073709551616: orjson reads it as a float
STRING_REFUSED = ["Must be a JSON string."]


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


def _post(client: APIClient, path: str, body: bytes, **headers: Any) -> Any:
    """The body as raw JSON text: a number past 64 bits cannot be written by Python's encoder for us."""
    return client.post(path, body, content_type="application/json", **headers)


def _fields(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "request.invalid"
    fields: dict[str, Any] = error["details"]["fields"]
    return fields


@pytest.fixture
def admin() -> Any:
    return UserFactory.create(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def flag() -> Flag:
    return Flag.objects.create(
        kind="shared_address",
        subject="table:3|203.0.113.9",
        players=["ann", "bob"],
        score=2.0,
        evidence={"tables": [3]},
        note="first look",
    )


# --- strings -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [12345, 0, 1.5, True])
def test_a_username_sent_as_a_number_is_refused(value: Any) -> None:
    answer = _client().post(
        "/api/v1/auth/register/",
        {"username": value, "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
        format="json",
    )
    assert _fields(answer)["username"] == STRING_REFUSED
    token = _client().post("/api/v1/auth/token/", {"username": value, "password": "x"}, format="json")
    assert _fields(token)["username"] == STRING_REFUSED
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.exists()


def test_a_note_sent_as_a_number_is_refused_and_stored_nowhere(admin: Any, flag: Flag) -> None:
    answer = _client(admin).patch(f"/api/v1/integrity/flags/{flag.pk}/", {"note": 0}, format="json")
    assert _fields(answer)["note"] == STRING_REFUSED
    flag.refresh_from_db()
    assert flag.note == "first look"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/api/v1/tables/",
            {"game": 5, "seats": 4, "pcr": 10, "min_buy_in": 100, "max_buy_in": 1000},
            "game",
        ),
        ("/api/v1/tables/join/", {"code": 123456, "buy_in": 100}, "code"),
        ("/api/v1/ledger/adjustments/", {"username": "root", "amount": 5, "reason": 0}, "reason"),
        ("/api/v1/ledger/adjustments/", {"username": 7, "amount": 5, "reason": "x"}, "username"),
        (
            "/api/v1/tournaments/",
            {"name": 7, "kind": "single", "game": "rummy500", "buy_in": 0, "max_entrants": 2},
            "name",
        ),
        ("/api/v1/practice/", {"game": 1, "bots": 1, "level": "easy"}, "game"),
    ],
)
def test_every_string_field_takes_strings_only(
    admin: Any, path: str, body: dict[str, Any], field: str
) -> None:
    answer = _client(admin).post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="strict-strings")
    assert _fields(answer)[field] == STRING_REFUSED


# --- a flag's PATCH: every field optional --------------------------------------------------------------


def test_an_empty_patch_changes_nothing(admin: Any, flag: Flag) -> None:
    before = Flag.objects.filter(pk=flag.pk).values().get()
    answer = _client(admin).patch(f"/api/v1/integrity/flags/{flag.pk}/", {}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "open" and answer.json()["note"] == "first look"
    assert Flag.objects.filter(pk=flag.pk).values().get() == before
    from django.contrib.admin.models import LogEntry

    assert not LogEntry.objects.exists()


def test_a_field_left_out_keeps_its_value(admin: Any, flag: Flag) -> None:
    client = _client(admin)
    noted = client.patch(
        f"/api/v1/integrity/flags/{flag.pk}/", {"note": "same address, a family"}, format="json"
    )
    assert noted.status_code == 200 and noted.json()["status"] == "open"
    decided = client.patch(f"/api/v1/integrity/flags/{flag.pk}/", {"status": "dismissed"}, format="json")
    assert decided.status_code == 200
    flag.refresh_from_db()
    assert (flag.status, flag.note, flag.decided_by) == (
        FlagStatus.DISMISSED,
        "same address, a family",
        admin,
    )


# --- integers: a maximum, and a range error past it ------------------------------------------------------


@pytest.mark.parametrize("value", [PAST_64_BITS, 2**64 - 1, MAX_INTEGER + 1, 10**30])
def test_an_integer_past_the_maximum_is_a_range_error_not_a_type_error(admin: Any, value: int) -> None:
    body = f'{{"name": "Cup", "kind": "multi", "game": "rummy500", "buy_in": 0, "max_entrants": {value}}}'
    fields = _fields(_post(_client(admin), "/api/v1/tournaments/", body.encode()))
    assert fields["max_entrants"] == [f"Ensure this value is less than or equal to {MAX_INTEGER}."]


def test_a_negative_integer_past_the_minimum_is_a_range_error(admin: Any) -> None:
    body = f'{{"name": "Cup", "kind": "multi", "game": "rummy500", "buy_in": 0, "max_entrants": -{2**64}}}'
    fields = _fields(_post(_client(admin), "/api/v1/tournaments/", body.encode()))
    assert fields["max_entrants"] == [f"Ensure this value is greater than or equal to {-(2**63)}."]


def test_a_field_with_its_own_bounds_answers_them_past_64_bits(admin: Any) -> None:
    body = f'{{"username": "root", "amount": {PAST_64_BITS}, "reason": "x"}}'.encode()
    fields = _fields(_post(_client(admin), "/api/v1/ledger/adjustments/", body, HTTP_IDEMPOTENCY_KEY="k-64"))
    assert fields["amount"] == ["Ensure this value is less than or equal to 1000000000000."]


@pytest.mark.parametrize("value", ["1e3", "100.0", '"100"', "true"])
def test_a_float_or_a_string_is_still_not_an_integer(admin: Any, value: str) -> None:
    body = f'{{"name": "Cup", "kind": "multi", "game": "rummy500", "buy_in": 0, "max_entrants": {value}}}'
    fields = _fields(_post(_client(admin), "/api/v1/tournaments/", body.encode()))
    assert fields["max_entrants"] == ["Must be a JSON integer (not a string, a float or a boolean)."]


@pytest.mark.parametrize("value", [PAST_64_BITS, MAX_INTEGER + 1])
def test_a_move_s_expected_version_past_the_maximum_is_a_range_error(admin: Any, value: int) -> None:
    body = f'{{"type": "draw", "source": "stock", "expected_version": {value}}}'.encode()
    answer = _post(_client(admin), "/api/v1/games/1/moves/", body, HTTP_IDEMPOTENCY_KEY="k-move")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "move.expected_version"
    assert error["message"] == f"expected_version must be at most {MAX_INTEGER}."


def test_every_integer_the_api_takes_has_bounds_in_the_schema(published_spec: dict[str, Any]) -> None:
    missing: list[str] = []

    def walk(schema: dict[str, Any], where: str) -> None:
        if schema.get("type") == "integer" and "maximum" not in schema:
            missing.append(where)
        for name, child in schema.get("properties", {}).items():
            walk(child, f"{where}.{name}")
        if isinstance(schema.get("items"), dict):
            walk(schema["items"], f"{where}[]")
        for child in schema.get("oneOf", []) + schema.get("anyOf", []) + schema.get("allOf", []):
            walk(child, where)

    for name, component in published_spec["components"]["schemas"].items():
        if name.endswith("Request"):
            walk(component, name)
    for path, item in published_spec["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                walk(parameter.get("schema", {}), f"{method} {path} {parameter['name']}")
    assert missing == []


# --- query parameters: finite numbers ----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/games/1/events/", "/api/v1/tournaments/1/events/"])
@pytest.mark.parametrize("wait", ["1e309", "-1e309", "inf", "nan", "1e999"])
def test_a_wait_that_is_not_a_finite_number_is_refused(admin: Any, path: str, wait: str) -> None:
    answer = _client(admin).get(path, {"wait": wait})
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "request.invalid_parameter" and error["details"] == {"parameter": "wait"}


@pytest.mark.parametrize("path", ["/api/v1/games/1/events/", "/api/v1/tournaments/1/events/"])
def test_a_large_finite_wait_is_taken_and_capped(admin: Any, path: str) -> None:
    answer = _client(admin).get(path, {"wait": "1e308"})
    assert answer.status_code == 404, answer.content  # past the parameters: no such game or tournament
    assert answer.json()["error"]["code"] in ("game.not_found", "tournament.not_found")


def test_a_leaderboard_page_past_its_maximum_is_refused(published_spec: dict[str, Any]) -> None:
    (page,) = [
        p
        for p in published_spec["paths"]["/api/v1/leaderboards/"]["get"]["parameters"]
        if p["name"] == "page"
    ]
    maximum = page["schema"]["maximum"]
    assert _client().get("/api/v1/leaderboards/", {"game": "rummy500", "page": maximum}).status_code == 200
    answer = _client().get("/api/v1/leaderboards/", {"game": "rummy500", "page": maximum + 1})
    assert answer.status_code == 400
    assert answer.json()["error"]["details"] == {"parameter": "page"}
