"""What must never happen is refused by the database itself, whatever code writes the rows; the status moves
only along the transitions of docs/tournaments.md "Lifecycle"."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.single_table.helpers import new_tournament
from tournaments.errors import Conflict
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus
from tournaments.tournament.status import TRANSITIONS, move_to

pytestmark = pytest.mark.django_db


def refused(**changes: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        for model, pk, fields in changes.values():
            model.objects.filter(pk=pk).update(**fields)


def test_two_live_entries_of_one_player_are_refused(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann")
    TournamentEntry.objects.create(tournament=tournament, player=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentEntry.objects.create(tournament=tournament, player=ann)
    # A refunded entry is history: a new one may follow it.
    TournamentEntry.objects.filter(player=ann).update(status="unregistered")
    TournamentEntry.objects.create(tournament=tournament, player=ann)


def test_a_prize_without_a_place_is_refused(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    entry = TournamentEntry.objects.create(tournament=tournament, player=make_player("ann"))
    refused(e=(TournamentEntry, entry.pk, {"prize": 10}))
    refused(e=(TournamentEntry, entry.pk, {"place": 1}))  # a place only once out
    TournamentEntry.objects.filter(pk=entry.pk).update(status="finished", place=1, prize=10)


@pytest.mark.parametrize("payouts", [[50, 40], [60, 50], [], [100.5], ["100"], {"1": 100}, [0, 100]])
def test_payouts_not_summing_to_100_are_refused(admin_user: Any, payouts: Any) -> None:
    tournament = new_tournament(admin_user)
    refused(t=(Tournament, tournament.pk, {"payouts": payouts}))
    Tournament.objects.filter(pk=tournament.pk).update(payouts=[50, 30, 20])


@pytest.mark.parametrize(
    "fields",
    [
        {"max_entrants": 5},
        {"kind": "quick", "rounds": None},
        {"kind": "quick", "rounds": 4},
        {"target_score": None},
    ],
)
def test_one_table_kinds_keep_their_bounds(admin_user: Any, fields: dict[str, Any]) -> None:
    tournament = new_tournament(admin_user)
    refused(t=(Tournament, tournament.pk, fields))


@pytest.mark.parametrize("current", list(TRANSITIONS))
@pytest.mark.parametrize("to", list(TRANSITIONS))
def test_status_moves_only_along_the_transitions(current: str, to: str) -> None:
    tournament = Tournament(status=current)
    allowed = {
        ("scheduled", "registering"),
        ("scheduled", "cancelled"),
        ("registering", "running"),
        ("registering", "cancelled"),
        ("running", "paused"),
        ("running", "finished"),
        ("running", "cancelled"),
        ("paused", "running"),
        ("paused", "finished"),
        ("paused", "cancelled"),
    }
    if (current, to) in allowed:
        move_to(tournament, to)
        assert tournament.status == to
    else:
        with pytest.raises(Conflict):
            move_to(tournament, to)
        assert tournament.status == current
    assert TournamentStatus(current)
