"""GET /api/v1/integrity/flags/ (staff, paginated, ?format=csv) and PATCH /api/v1/integrity/flags/{id}/."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from rest_framework.test import APIClient

from integrity.models import Flag
from tests.clients import api_client
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
URL = "/api/v1/integrity/flags/"


@pytest.fixture
def flags(db: None) -> list[Flag]:
    return [
        Flag.objects.create(
            kind="chip_dumping",
            subject="ann|bob",
            players=["bob", "ann"],
            score=5.0,
            evidence={"rounds": [1, 2], "transfers": [10], "tables": [3], "net": 900},
        ),
        Flag.objects.create(
            kind="shared_address",
            subject="table:3|203.0.113.9",
            players=["ann", "bob"],
            score=2.0,
            evidence={"tables": [3], "address": "203.0.113.9"},
        ),
    ]


def test_staff_list_flags_newest_first_with_their_evidence(
    staff_client: APIClient, flags: list[Flag]
) -> None:
    body = staff_client.get(URL).json()
    assert body["count"] == 2
    first = body["results"][0]
    assert first["id"] == flags[1].pk and first["kind"] == "shared_address"
    dumping = body["results"][1]
    assert {k: dumping[k] for k in ("kind", "players", "score", "evidence", "status")} == {
        "kind": "chip_dumping",
        "players": ["bob", "ann"],
        "score": 5.0,
        "evidence": {"rounds": [1, 2], "transfers": [10], "tables": [3], "net": 900},
        "status": "open",
    }
    assert dumping["created_at"]


def test_filters_and_their_bad_values(staff_client: APIClient, flags: list[Flag]) -> None:
    assert [f["kind"] for f in staff_client.get(URL, {"kind": "chip_dumping"}).json()["results"]] == [
        "chip_dumping"
    ]
    assert staff_client.get(URL, {"status": "dismissed"}).json()["count"] == 0
    bad = staff_client.get(URL, {"status": "maybe"})
    assert bad.status_code == 400 and bad.json()["error"]["code"]


def test_csv_export(staff_client: APIClient, flags: list[Flag]) -> None:
    response = staff_client.get(URL, {"format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["kind"] for r in rows] == ["shared_address", "chip_dumping"]
    assert rows[1]["players"] == '["bob","ann"]'


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_only_staff_read_or_decide(who: str, flags: list[Flag]) -> None:
    client = api_client() if who == "anonymous" else api_client(UserFactory.create())
    assert client.get(URL).status_code in (401, 403)
    response = client.patch(f"{URL}{flags[0].pk}/", {"status": "confirmed"})
    assert response.status_code in (401, 403)
    flags[0].refresh_from_db()
    assert flags[0].status == "open"


def test_staff_decide_with_a_note_in_the_admin_log(
    staff_client: APIClient, staff: Any, flags: list[Flag]
) -> None:
    response = staff_client.patch(f"{URL}{flags[0].pk}/", {"status": "confirmed", "note": "same household"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["note"], body["decided_by"]) == ("confirmed", "same household", "warden")
    entry = LogEntry.objects.get(object_id=str(flags[0].pk))
    assert entry.user == staff and entry.get_change_message()
    assert staff_client.get(f"{URL}{flags[0].pk}/").json()["status"] == "confirmed"


@pytest.mark.parametrize(
    # An empty body is no bad decision: it changes nothing and answers 200 (tests/api/test_schema_agreement.py).
    "body",
    [{"status": "maybe"}, {"status": "open", "note": "x" * 2001}, {"status": ["open"]}, {"note": 0}],
)
def test_bad_decisions_are_refused_and_change_nothing(
    staff_client: APIClient, flags: list[Flag], body: Any
) -> None:
    response = staff_client.patch(f"{URL}{flags[0].pk}/", body)
    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "details"}
    flags[0].refresh_from_db()
    assert (flags[0].status, flags[0].note) == ("open", "")
    assert not LogEntry.objects.exists()


def test_an_unknown_flag_is_404(staff_client: APIClient) -> None:
    response = staff_client.patch(f"{URL}999999/", {"status": "dismissed"})
    assert response.status_code == 404 and response.json()["error"]["code"]
    assert staff_client.get(f"{URL}999999/").status_code == 404
