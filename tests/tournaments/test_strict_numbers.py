"""Chips and counts are JSON integers in every request body (issue 19, defect 6): `"100"`, `100.0`, `1e3` and
`true` are refused with 400 `request.invalid` naming the field in `details.fields`, and nothing is created and no
chip moves. A tournament's `starts_at` lies within the documented horizon (docs/api.md, "Numbers and dates")."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from api.fields import MAX_DAYS_AHEAD
from ledger.models import Transfer
from tests.factories import FAST
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Seat, Table
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db

# Each bad form as it is written in the JSON text (1e3 is a float to every JSON reader).
BAD_FORMS = ['"100"', "100.0", "1e3", "true"]
SENTINEL = "__the_bad_value__"

TABLE: dict[str, Any] = {
    "game": "rummy500",
    "options": {"turn_seconds": 20},
    "seats": 4,
    "pcr": 2,
    "min_buy_in": 100,
    "max_buy_in": 1000,
    "multiplier": 1,
}
SINGLE: dict[str, Any] = {
    "name": "Strict sit and go",
    "kind": "single",
    "game": "rummy500",
    "options": FAST,
    "buy_in": 100,
    "fee": 5,
    "guarantee": 0,
    "max_entrants": 3,
    "min_entrants": 2,
    "target_score": 100,
    "tiebreak_rounds": 5,
    "multiplier": 1,
    "payouts": [100],
}


def multi(**overrides: Any) -> dict[str, Any]:
    return {
        "name": "Strict multi",
        "kind": "multi",
        "game": "rummy500",
        "options": FAST,
        "buy_in": 100,
        "fee": 10,
        "max_entrants": 40,
        "min_entrants": 4,
        "seats": 4,
        "starting_stack": 1500,
        "pcr_schedule": [1, 2, 3],
        "rounds_per_level": 2,
        "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        "late_registration_levels": 1,
        "payouts": [100],
        **overrides,
    }


def raw_body(body: dict[str, Any], path: tuple[str | int, ...], form: str) -> str:
    """`body` as JSON text with the value at `path` written as `form`, literally."""
    copy = json.loads(json.dumps(body))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = SENTINEL
    return json.dumps(copy).replace(f'"{SENTINEL}"', form)


def post(client: Any, url: str, text: str, **headers: Any) -> Any:
    return client.post(url, data=text, content_type="application/json", **headers)


def assert_refused(response: Any, field: str) -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "request.invalid", error
    assert field in error["details"]["fields"], error


TABLE_FIELDS = ["seats", "pcr", "min_buy_in", "max_buy_in", "multiplier"]


@pytest.mark.parametrize("form", BAD_FORMS)
@pytest.mark.parametrize("field", TABLE_FIELDS)
def test_table_settings_are_json_integers(admin_user: Any, client_for: Any, field: str, form: str) -> None:
    response = post(client_for(admin_user), "/api/v1/tables/", raw_body(TABLE, (field,), form))
    assert_refused(response, field)
    assert not Table.objects.exists()


@pytest.mark.parametrize("form", BAD_FORMS)
def test_table_options_are_json_integers(admin_user: Any, client_for: Any, form: str) -> None:
    response = post(
        client_for(admin_user), "/api/v1/tables/", raw_body(TABLE, ("options", "turn_seconds"), form)
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "table.invalid_options"
    assert not Table.objects.exists()


def test_the_same_table_with_integers_is_created(admin_user: Any, client_for: Any) -> None:
    response = post(client_for(admin_user), "/api/v1/tables/", json.dumps(TABLE))
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("form", [*BAD_FORMS, "300.5", "[300]", '{"n": 300}', "null"])
def test_a_sit_buy_in_is_a_json_integer(
    make_table: Any, make_player: Any, client_for: Any, form: str
) -> None:
    table = make_table()
    ann = make_player("ann", chips=5_000)
    transfers = Transfer.objects.count()
    response = post(
        client_for(ann),
        f"/api/v1/tables/{table.pk}/sit/",
        raw_body({"buy_in": 300}, ("buy_in",), form),
        HTTP_IDEMPOTENCY_KEY=f"sit-{form}",
    )
    assert_refused(response, "buy_in")
    assert not Seat.objects.filter(table=table).exists()
    assert Transfer.objects.count() == transfers
    good = post(client_for(ann), f"/api/v1/tables/{table.pk}/sit/", '{"buy_in": 300}')
    assert good.status_code == 200, good.content
    assert_reconciled()


@pytest.mark.parametrize("form", BAD_FORMS)
def test_a_join_buy_in_is_a_json_integer(
    make_table: Any, make_player: Any, client_for: Any, form: str
) -> None:
    table = make_table(private=True)
    ann = make_player("ann", chips=5_000)
    transfers = Transfer.objects.count()
    body = raw_body({"code": table.code, "buy_in": 300}, ("buy_in",), form)
    assert_refused(post(client_for(ann), "/api/v1/tables/join/", body), "buy_in")
    assert not Seat.objects.filter(table=table).exists()
    assert Transfer.objects.count() == transfers


TOURNAMENT_FIELDS = [
    "buy_in",
    "fee",
    "guarantee",
    "max_entrants",
    "min_entrants",
    "target_score",
    "tiebreak_rounds",
    "multiplier",
]
MULTI_FIELDS = ["seats", "starting_stack", "rounds_per_level", "late_registration_levels"]


@pytest.mark.parametrize("form", BAD_FORMS)
@pytest.mark.parametrize("field", TOURNAMENT_FIELDS)
def test_tournament_numbers_are_json_integers(
    admin_user: Any, client_for: Any, field: str, form: str
) -> None:
    response = post(client_for(admin_user), "/api/v1/tournaments/", raw_body(SINGLE, (field,), form))
    assert_refused(response, field)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("form", BAD_FORMS)
@pytest.mark.parametrize("field", MULTI_FIELDS)
def test_multi_table_numbers_are_json_integers(
    admin_user: Any, client_for: Any, field: str, form: str
) -> None:
    response = post(client_for(admin_user), "/api/v1/tournaments/", raw_body(multi(), (field,), form))
    assert_refused(response, field)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("form", BAD_FORMS)
@pytest.mark.parametrize("field", ["pcr_schedule", "payouts"])
def test_lists_of_numbers_hold_json_integers(admin_user: Any, client_for: Any, field: str, form: str) -> None:
    response = post(client_for(admin_user), "/api/v1/tournaments/", raw_body(multi(), (field, 0), form))
    assert_refused(response, field)
    assert not Tournament.objects.exists()


def test_the_same_tournaments_with_integers_are_created(admin_user: Any, client_for: Any) -> None:
    for body in (SINGLE, multi()):
        response = post(client_for(admin_user), "/api/v1/tournaments/", json.dumps(body))
        assert response.status_code == 201, response.content


@pytest.mark.parametrize(
    "starts_at",
    [
        "9999-12-31",
        "9999-12-31T23:59:59Z",
        (timezone.now() + timedelta(days=MAX_DAYS_AHEAD + 1)).isoformat(),
    ],
    # Fixed names: every parallel process (pytest-xdist) must collect the same tests, and the third's value
    # is read from the clock.
    ids=["year-9999", "year-9999-instant", "a-day-past-the-horizon"],
)
def test_a_start_past_the_horizon_is_refused(admin_user: Any, client_for: Any, starts_at: str) -> None:
    response = post(client_for(admin_user), "/api/v1/tournaments/", json.dumps(multi(starts_at=starts_at)))
    assert response.status_code == 400, response.content
    assert_refused(response, "starts_at")
    assert not Tournament.objects.exists()


def test_a_start_within_the_horizon_is_accepted(admin_user: Any, client_for: Any) -> None:
    starts_at = timezone.now() + timedelta(days=MAX_DAYS_AHEAD - 1)
    response = post(
        client_for(admin_user), "/api/v1/tournaments/", json.dumps(multi(starts_at=starts_at.isoformat()))
    )
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("form", BAD_FORMS)
def test_an_adjustment_amount_is_a_json_integer(
    admin_user: Any, make_player: Any, client_for: Any, form: str
) -> None:
    make_player("ann", chips=0)
    transfers = Transfer.objects.count()
    body = raw_body({"username": "ann", "amount": 100, "reason": "goodwill"}, ("amount",), form)
    response = post(
        client_for(admin_user), "/api/v1/ledger/adjustments/", body, HTTP_IDEMPOTENCY_KEY=f"adj-{form}"
    )
    assert_refused(response, "amount")
    assert Transfer.objects.count() == transfers
