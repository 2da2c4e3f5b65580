"""A table says which tournament it plays for (the table page shows a tournament's table as one: no buy-in or
leave, points toward the target or tournament chips); a ring table says null."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import TournamentFactory
from tournaments.live.models import Table
from tournaments.tournament import registration

pytestmark = pytest.mark.django_db


def test_a_ring_table_names_no_tournament(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table()
    body = client_for(make_player()).get(f"/api/v1/tables/{table.pk}/").json()
    assert body["tournament"] is None
    listed = client_for(make_player()).get("/api/v1/tables/").json()
    assert [row["tournament"] for row in listed["results"]] == [None]


@pytest.mark.parametrize(
    ("kind", "target_score", "rounds"), [("single", 500, None), ("quick", None, 3)], ids=["single", "quick"]
)
def test_a_tournament_table_names_its_tournament_and_what_ends_it(
    admin_user: Any, make_player: Any, client_for: Any, kind: str, target_score: Any, rounds: Any
) -> None:
    tournament = TournamentFactory.create(
        created_by=admin_user,
        name="Friday",
        kind=kind,
        target_score=target_score,
        rounds=rounds,
        max_entrants=2,
    )
    ann = make_player("ann")
    for user in (ann, make_player("bob")):
        registration.register(user=user, tournament_id=tournament.pk)
    table = Table.objects.get(tournament=tournament)
    body = client_for(ann).get(f"/api/v1/tables/{table.pk}/").json()
    assert body["tournament"] == {
        "id": tournament.pk,
        "name": "Friday",
        "kind": kind,
        "target_score": target_score,
        "rounds": rounds,
        "my_table": table.pk,  # ann is seated here (issue 31: where a moved player plays on)
    }
