"""docs/rules.md "Tickets and satellites": a satellite's settings (`satellites.settings`, through the one check
`setup.validate`), and the section's rule → test map names tests that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.errors import InvalidRequest
from tournaments.tournament import admin_actions, setup

ROOT = Path(__file__).resolve().parents[3]


def _settings(**more: Any) -> dict[str, Any]:
    return {
        "name": "satellite",
        "kind": "quick",
        "game": "rummy500",
        "options": {},
        "buy_in": 10,
        "max_entrants": 2,
        "rounds": 1,
        **more,
    }


@pytest.mark.django_db
def test_a_satellite_names_one_target_with_a_face_value_and_never_loops(admin_user: Any) -> None:
    target = new_multi(admin_user)
    checked = setup.validate(**_settings(satellite_target_id=target.pk, tickets_only=True))
    assert checked.satellite_target_id == target.pk and checked.tickets_only is True
    free = new_multi(admin_user, buy_in=0, fee=0)
    over = new_tournament(admin_user)
    admin_actions.cancel(tournament_id=over.pk)
    for bad, field in (
        ({"satellite_target_id": free.pk}, "satellite_target"),
        ({"satellite_target_id": over.pk}, "satellite_target"),
        ({"satellite_target_id": 10**9}, "satellite_target"),
        ({"satellite_template_id": 10**9}, "satellite_template"),
        ({"tickets_only": "yes"}, "tickets_only"),
    ):
        with pytest.raises(InvalidRequest) as refused:
            setup.validate(**_settings(**bad))
        assert refused.value.details["field"] == field
    # steps go one way: the target's own satellite cannot become its target
    step = setup.create_tournament(user=admin_user, settings=_settings(satellite_target_id=target.pk))
    with pytest.raises(InvalidRequest):
        setup.validate(**_settings(satellite_target_id=step.pk), own_id=target.pk)


def test_the_rule_map_of_tickets_and_satellites_names_existing_tests() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    start = doc.index("## Tickets and satellites")
    section = doc[start : doc.index("\n## ", start)]
    named = re.findall(r"`((?:\w+/)*test_\w+\.py)::(test_\w+)`", section)
    assert len(named) >= 15
    for filename, test in named:
        tree = ast.parse((ROOT / "tests" / "tournaments" / filename).read_text())
        assert test in {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}, (filename, test)
