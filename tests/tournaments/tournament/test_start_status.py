"""`POST /tournaments/{id}/start/` is refused for the tournament's status before its entrants are counted:
only a registering tournament starts (docs/api.md: `tournament.invalid_transition`, or `tournament.over` once
finished or cancelled; `tournament.too_few_entrants` only while registering), for both kinds alike."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db

S = TournamentStatus
EXPECTED: dict[str, str] = {
    S.SCHEDULED: "tournament.invalid_transition",
    S.REGISTERING: "tournament.too_few_entrants",
    S.RUNNING: "tournament.invalid_transition",
    S.PAUSED: "tournament.invalid_transition",
    S.FINISHED: "tournament.over",
    S.CANCELLED: "tournament.over",
}


def _tournament(kind: str, admin: Any) -> Tournament:
    return new_multi(admin) if kind == "multi" else new_tournament(admin)


@pytest.mark.parametrize("kind", ["single", "multi"])
@pytest.mark.parametrize("status", list(EXPECTED))
def test_start_answers_the_code_of_the_status(
    kind: str, status: str, admin_user: Any, client_for: Any
) -> None:
    tournament = _tournament(kind, admin_user)
    # No entrant is registered: once a tournament runs its entrants are playing, busted or paid, never
    # registered, which is what made a running one answer "too few entrants" (entrants: 0).
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    answer = client_for(admin_user).post(f"/api/v1/tournaments/{tournament.pk}/start/")
    assert answer.status_code == 409, answer.content
    error = answer.json()["error"]
    assert error["code"] == EXPECTED[status], error
    if status != S.REGISTERING:
        assert error["details"] == {"status": status, "to": S.RUNNING}
    tournament.refresh_from_db()
    assert tournament.status == status and tournament.started_at is None
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
