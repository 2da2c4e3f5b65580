"""One open practice table per player, kept by the database (issue 31, defect 3): 20 concurrent starts by one
player leave exactly one open practice table, and every start that lost is told so (409
`practice.already_started`, naming the table that won), never a misleading `seat.not_seated`."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from tests.clients import api_client
from tests.factories import PlayerFactory
from tournaments.live.models import Seat, SeatStatus, Table, TableStatus
from tournaments.practice.models import PracticeTable

pytestmark = [pytest.mark.django_db(transaction=True)]

STARTS = 20


def test_concurrent_starts_leave_one_open_practice_table() -> None:
    ann = PlayerFactory.create(username="ann")
    barrier = threading.Barrier(STARTS)

    def start(_: int) -> tuple[int, dict[str, Any]]:
        try:
            client = api_client(ann)
            barrier.wait(timeout=30)
            answer = client.post("/api/v1/practice/", {"game": "board", "bots": 3, "level": "hard"})
            return answer.status_code, answer.json()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=STARTS) as pool:
        answers = list(pool.map(start, range(STARTS)))
    open_tables = list(
        Table.objects.filter(practice=True, status=TableStatus.OPEN).values_list("pk", flat=True)
    )
    assert len(open_tables) == 1, (open_tables, answers)
    assert list(
        PracticeTable.objects.filter(player=ann, current=True).values_list("table_id", flat=True)
    ) == (open_tables)
    # Only the open table's bots are seated.
    assert Seat.objects.filter(table__practice=True).exclude(status=SeatStatus.LEFT).count() == 4
    statuses = {status for status, _ in answers}
    assert statuses <= {201, 409}, answers
    assert any(status == 201 for status, _ in answers)
    for status, body in answers:
        if status == 409:
            assert body["error"]["code"] == "practice.already_started", body
            assert body["error"]["details"]["table"] is None or isinstance(
                body["error"]["details"]["table"], int
            )
    # The table that won is among the answers, either as created or as the one named to a loser.
    named = {body["table"] for status, body in answers if status == 201}
    named |= {body["error"]["details"]["table"] for status, body in answers if status == 409}
    assert open_tables[0] in named
