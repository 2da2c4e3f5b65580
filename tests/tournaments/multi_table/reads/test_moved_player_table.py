"""A player the tournament moves reads where they play on: a tournament table's view names the caller's table in
that tournament now (`tournament.my_table`), at the table they left and at the one they play at, closed or not
(issue 31, defect 13: the player's page stayed on the broken table)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.clients import api_client
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.live.models import Table, TableStatus
from tournaments.multi_table import seating
from tournaments.tournament.models import TournamentEntry

pytestmark = pytest.mark.django_db


def _my_table(user: Any, table: Table) -> Any:
    answer = api_client(user).get(f"/api/v1/tables/{table.pk}/")
    assert answer.status_code == 200, answer.content
    return answer.json()["tournament"]["my_table"]


def test_a_moved_player_reads_their_new_table_at_the_table_they_left() -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    people = {name: make_user(name) for name in ("ann", "bob", "cid", "dan")}
    for person in people.values():
        funded_wallet(person, 1000)
    t = multi.multi_tournament(boss, name="Moves")
    multi.register_all(t, list(people.values()))
    one, two = multi.start(t, sizes=[2, 2])
    stranger = make_user("eve")
    assert _my_table(people["ann"], one) == one.pk
    assert _my_table(people["ann"], two) == one.pk  # watching another table: hers is still #one
    assert _my_table(stranger, one) is None

    # The tournament breaks table one: ann moves to table two, the table closes.
    entry = TournamentEntry.objects.get(tournament=t, player=people["ann"])
    seating.move_entrant(
        tournament=t, entry=entry, destination=two, number=3, key=f"tournament:{t.pk}:entry:{entry.pk}:move:1"
    )
    Table.objects.filter(pk=one.pk).update(status=TableStatus.CLOSED)
    assert _my_table(people["ann"], one) == two.pk
    assert _my_table(people["ann"], two) == two.pk
    assert _my_table(people["bob"], one) is None  # bob's table closed under him (not moved): no table now
    assert _my_table(people["cid"], one) == two.pk
    ring = api_client(people["ann"]).get("/api/v1/tables/")
    assert ring.status_code == 200
    assert_reconciled()
