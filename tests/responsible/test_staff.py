"""Staff read every player's limits with their history: the API (JSON and CSV) and the audit player page."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from tests.clients import api_client
from tests.factories import PlayerFactory, StaffFactory
from tests.responsible.helpers import put_limits

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann() -> Any:
    ann = PlayerFactory.create(username="ann")
    put_limits(ann, stakes_day=300, minutes_day=90)
    put_limits(ann, stakes_day=800)
    return ann


def test_staff_list_limit_changes_as_json_and_csv(ann: Any) -> None:
    staff = api_client(StaffFactory.create())
    rows = staff.get("/api/v1/responsible/limits/?player=ann").json()["results"]
    assert [(r["limit"], r["value"], r["kind"]) for r in rows] == [
        ("stakes_day", 800, "raise"),
        ("minutes_day", 90, "new"),
        ("stakes_day", 300, "new"),
    ]
    answer = staff.get("/api/v1/responsible/limits/?player=ann&format=csv")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [row["value"] for row in table] == ["800", "90", "300"]
    one = staff.get("/api/v1/responsible/players/ann/limits/").json()
    assert one["limits"]["stakes_day"]["value"] == 300 and one["limits"]["stakes_day"]["pending"] == 800
    assert len(one["history"]) == 3
    assert staff.get("/api/v1/responsible/players/nobody/limits/").status_code == 404


def test_players_cannot_read_others_limits(ann: Any) -> None:
    bob = api_client(PlayerFactory.create(username="bob"))
    assert bob.get("/api/v1/responsible/limits/").status_code == 403
    assert bob.get("/api/v1/responsible/players/ann/limits/").status_code == 403
    assert bob.get("/api/v1/me/limits/history/").json()["results"] == []


def test_the_audit_player_page_lists_limits_and_their_csv(ann: Any) -> None:
    browser = Client()
    browser.force_login(StaffFactory.create())
    html = browser.get("/audit/players/ann/").content.decode()
    assert 'data-limit="stakes_day"' in html and 'data-limit="minutes_day"' in html
    assert html.count("data-change=") == 3
    answer = browser.get("/audit/players/ann/limits.csv")
    lines = b"".join(answer.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    assert lines[0].startswith("id,username,limit,value,previous") and len(lines) == 4
    assert browser.get("/audit/players/nobody/limits.csv").status_code == 404
    player = Client()
    player.force_login(ann)
    assert player.get("/audit/players/ann/limits.csv").status_code != 200
