"""The lobby's reads on a read replica (database/replica.py): with `RAMINO_LOBBY_READS_DB = "replica"` the lobby's
views read through the `replica` alias (the test settings' second connection to the same database, as a real
replica would be: docs/operations.md "Read replicas") and answer what they answer on the default one; writes and
reads inside a transaction stay on the default database; an unknown alias changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext

from database.replica import ReplicaRouter, lobby_alias, lobby_reads
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "replica"])


def _lobby(client: Any, tournament: Tournament, table: int) -> dict[str, Any]:
    base = f"/api/v1/tournaments/{tournament.pk}"
    found = {}
    for path in ("/", "/standings/", "/tables/", f"/tables/{table}/", "/events/?after=0"):
        answer = client.get(base + path)
        assert answer.status_code == 200, (path, answer.content)
        found[path] = answer.json()
    return found


def test_the_lobby_reads_go_to_the_replica_alias_once_named(
    admin_user: Any, make_player: Any, client_for: Any, settings: Any
) -> None:
    tournament = multi.multi_tournament(admin_user)
    multi.register_all(tournament, [make_player() for _ in range(4)])
    tables = multi.start(tournament, sizes=[2, 2])
    anyone = client_for(None)
    with CaptureQueriesContext(connections["replica"]) as replica:
        on_default = _lobby(anyone, tournament, tables[0].pk)
    assert replica.captured_queries == []
    settings.RAMINO_LOBBY_READS_DB = "replica"
    with (
        CaptureQueriesContext(connections["replica"]) as replica,
        CaptureQueriesContext(connections["default"]) as default,
    ):
        on_replica = _lobby(anyone, tournament, tables[0].pk)
    assert on_replica == on_default
    assert len(replica.captured_queries) >= len(on_replica)
    assert [
        q["sql"] for q in default.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")
    ] == []


def test_writes_and_reads_in_a_transaction_stay_on_the_default_database(settings: Any) -> None:
    router = ReplicaRouter()
    settings.RAMINO_LOBBY_READS_DB = "replica"
    assert router.db_for_read(Tournament) is None  # outside the lobby's reads
    with lobby_reads():
        assert router.db_for_read(Tournament) == "replica"
        assert router.db_for_write(Tournament) == "default"
        with transaction.atomic():
            assert router.db_for_read(Tournament) is None  # read your own writes
    assert router.allow_migrate("replica", "tournaments") is False
    assert router.allow_migrate("default", "tournaments") is True
    settings.RAMINO_LOBBY_READS_DB = "nowhere"
    assert lobby_alias() == "default"
    with lobby_reads():
        assert router.db_for_read(Tournament) is None
