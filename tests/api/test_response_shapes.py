"""One source per response shape (issue 20): the tournament, table and ledger endpoints answer what their serializer
renders from the selectors' model instances and records, and the schema is read off the same serializer.

The conformance check (tests/api/conformance.py, every answer of the suite) closes each object the schema
describes, so no answer carries a field the schema does not declare; these make the other direction hold too:
each field these components declare is required, so no answer may leave one out, and a record that lacks one
cannot be rendered at all."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.tournament.selectors import TableSeat, TournamentTable
from tournaments.tournament.serializers import TournamentTableSerializer

# The components of answers rendered from records (tournaments/tournament, tournaments/multi_table,
# tournaments/live tables, ledger's statement, reconciliation and wallet): their every field is always there
# (null where the schema says nullable).
RENDERED = [
    "Tournament",
    "Entry",
    "Standing",
    "TournamentTable",
    "TournamentSeat",
    "TournamentEvents",
    "TournamentEvent",
    "PayoutReport",
    "Prize",
    "Cancel",
    "CancelTransfer",
    "Leg",
    "Table",
    "TablePlayer",
    "Statement",
    "Reconciliation",
    "Wallet",
]


@pytest.mark.parametrize("name", RENDERED)
def test_every_declared_field_is_answered(published_spec: dict[str, Any], name: str) -> None:
    component = published_spec["components"]["schemas"][name]
    assert set(component["required"]) == set(component["properties"]), name
    assert "additionalProperties" not in component, name


def test_a_record_renders_exactly_the_fields_the_schema_declares(published_spec: dict[str, Any]) -> None:
    row = TournamentTable(
        table=7,
        game=None,
        status="open",
        players=[TableSeat(username="ann", seat=1, chips=None, status="active")],
        level=None,
        pcr=None,
    )
    data = TournamentTableSerializer(row).data
    schemas = published_spec["components"]["schemas"]
    assert set(data) == set(schemas["TournamentTable"]["properties"])
    assert set(data["players"][0]) == set(schemas["TournamentSeat"]["properties"])
    assert data["players"][0] == {
        "username": "ann",
        "seat": 1,
        "chips": None,
        "status": "active",
        "bounty": 0,
    }


def test_a_record_without_a_declared_field_is_not_rendered() -> None:
    class Partial:
        table = 7

    with pytest.raises(AttributeError):
        _ = TournamentTableSerializer(Partial()).data
