"""One-table tournaments (quick games, sit-and-gos) record their event log like multi-table ones
(docs/tournaments.md "Events of one-table tournaments"): `started`, `round_result` (each settled round's points
and everyone's totals), `tiebreak`, `finished` (places and prizes), `paused`, `resumed`, `cancelled`; and the
after-round job run twice records a round once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import game_of, new_tournament, play_one_round
from tests.tournaments.single_table.test_ties import script
from tournaments.single_table import progress
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import TournamentEvent

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def kinds(tournament: Any) -> list[str]:
    return list(
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("version")
        .values_list("kind", flat=True)
    )


def events_of(tournament: Any, kind: str) -> list[dict[str, Any]]:
    return list(
        TournamentEvent.objects.filter(tournament=tournament, kind=kind)
        .order_by("version")
        .values_list("data", flat=True)
    )


def test_a_sit_and_go_records_its_start_each_round_a_tie_breaker_and_its_finish(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch, client_for: Any
) -> None:
    tournament = new_tournament(admin_user, target_score=50, max_entrants=3, payouts=[70, 30])
    for name in ("ann", "bob", "cid"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    game = game_of(tournament)
    (started,) = events_of(tournament, "started")
    assert started == {"entrants": 3, "table": game.table_id, "game": game.pk}

    script(
        monkeypatch,
        [{"ann": 30, "bob": 20, "cid": 10}, {"ann": 30, "bob": 40, "cid": 0}, {"ann": 5, "bob": 20}],
    )
    first = play_one_round(tournament, by_clock=True)
    (result,) = events_of(tournament, "round_result")
    assert result == {
        "round": first.number,
        "points": {"ann": 30, "bob": 20, "cid": 10},
        "redeal": False,
        "totals": {"ann": 30, "bob": 20, "cid": 10},
        "tiebreak_totals": {},
        "tiebreak": False,
    }
    # The job sent again for the same round (a redelivered message) records nothing more.
    before = kinds(tournament)
    progress.advance(tournament_id=tournament.pk, round_id=first.pk)
    assert kinds(tournament) == before

    second = play_one_round(tournament, by_clock=True)
    results = events_of(tournament, "round_result")
    assert results[-1]["round"] == second.number and results[-1]["totals"] == {
        "ann": 60,
        "bob": 60,
        "cid": 10,
    }
    (tiebreak,) = events_of(tournament, "tiebreak")
    assert sorted(tiebreak["tied"]) == ["ann", "bob"] and tiebreak["out"] == ["cid"]
    assert tiebreak["from_round"] == second.number + 1

    third = play_one_round(tournament, by_clock=True)
    last = events_of(tournament, "round_result")[-1]
    assert last["round"] == third.number and last["tiebreak"] is True
    assert last["tiebreak_totals"] == {"ann": 5, "bob": 20} and last["totals"]["bob"] == 60
    (finished,) = events_of(tournament, "finished")
    assert finished == {
        "winners": ["bob"],
        "places": {"bob": 1, "ann": 2, "cid": 3},
        "prizes": {"bob": 210, "ann": 90, "cid": 0},
    }
    assert kinds(tournament) == [
        "started",
        "round_result",
        "round_result",
        "tiebreak",
        "round_result",
        "finished",
    ]
    # The tournament's version is its log's: a page following `events/?after=` sees each one.
    page = client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/events/?after=0").json()
    assert [e["kind"] for e in page["events"]] == kinds(tournament) and page["version"] == 6
    assert_reconciled()


def test_pause_resume_and_cancel_while_running_are_recorded(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=3, max_entrants=2)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    play_one_round(tournament)
    admin_actions.pause(tournament_id=tournament.pk)
    admin_actions.resume(tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    assert kinds(tournament) == ["started", "round_result", "paused", "resumed", "cancelled"]
    (cancelled,) = events_of(tournament, "cancelled")
    assert cancelled["reason"] == "admin" and sum(cancelled["shares"].values()) == 200
    assert_reconciled()


def test_cancel_before_the_start_records_the_refunds(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, max_entrants=3)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    assert events_of(tournament, "cancelled") == [{"reason": "admin", "refunded": 2}]
    assert_reconciled()
