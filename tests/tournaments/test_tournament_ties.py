"""Ties at the top (RULES §5): everyone not tied is out, the tied play tie-breaker rounds scored on their own;
a tie that lasts `tiebreak_rounds` is shared with the remainder rule. The rounds are really dealt and played
(the server's timeout moves); their points are scripted, so that the tie is certain."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.tournament_helpers import new_tournament, play_one_round
from tournaments.models import EntryStatus, TournamentEntry, TournamentStage, TournamentStatus
from tournaments.services import engine_io, registration

pytestmark = pytest.mark.django_db


def script(monkeypatch: pytest.MonkeyPatch, rounds: list[dict[str, int]]) -> None:
    """Each round's `game_points`, in order (the engine's scores otherwise)."""
    points: Iterator[dict[str, int]] = iter(rounds)
    real = engine_io.result_dict

    def scripted(res: Any) -> dict[str, Any]:
        data = real(res)
        these = next(points)
        data["game_points"] = {p: these[p] for p in data["scores"]}
        data["scores"] = dict(data["game_points"])
        return data

    monkeypatch.setattr(engine_io, "result_dict", scripted)


def entries(tournament: Any) -> dict[str, TournamentEntry]:
    return {
        e.player.username: e
        for e in TournamentEntry.objects.filter(tournament=tournament).select_related("player")
    }


def test_a_tie_at_the_target_is_broken_by_tie_breakers_among_the_tied(
    player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(admin_user, target_score=50, max_entrants=3, payouts=[70, 30])
    for name in ("ann", "bob", "cid"):
        registration.register(user=player(name), tournament_id=tournament.pk)
    script(monkeypatch, [{"ann": 60, "bob": 60, "cid": 10}, {"ann": 5, "bob": 20}])
    play_one_round(tournament, by_clock=True)
    tournament.refresh_from_db()
    assert tournament.stage == TournamentStage.TIEBREAK and tournament.status == TournamentStatus.RUNNING
    now = entries(tournament)
    assert now["cid"].status == EntryStatus.BUSTED and now["cid"].place == 3
    assert now["ann"].in_tiebreak and now["bob"].in_tiebreak
    tiebreaker = play_one_round(tournament, by_clock=True)
    # Only the tied players were dealt in.
    assert sorted(tiebreaker.players) == ["ann", "bob"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    final = entries(tournament)
    assert (final["bob"].place, final["ann"].place, final["cid"].place) == (1, 2, 3)
    assert (final["bob"].prize, final["ann"].prize, final["cid"].prize) == (210, 90, 0)
    # The main totals stay as they were; the tie-breaker's points are scored on their own.
    assert final["bob"].total == final["ann"].total == 60 and final["bob"].tiebreak_total == 20
    assert_reconciled()


def test_a_tie_that_lasts_the_tie_breakers_is_shared_remainder_to_the_earlier_registration(
    player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A guarantee of 301 makes the pool odd: the shared places 1 and 2 split 301 as 151 and 150.
    tournament = new_tournament(
        admin_user, target_score=50, max_entrants=3, payouts=[70, 30], tiebreak_rounds=2, guarantee=301
    )
    for name in ("ann", "bob", "cid"):
        registration.register(user=player(name), tournament_id=tournament.pk)
    script(monkeypatch, [{"ann": 10, "bob": 70, "cid": 70}, {"bob": 3, "cid": 3}, {"bob": -2, "cid": -2}])
    for _ in range(3):
        play_one_round(tournament, by_clock=True)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED and tournament.tiebreaks_played == 2
    final = entries(tournament)
    assert final["bob"].place == final["cid"].place == 1 and final["ann"].place == 3
    # bob registered before cid: the odd chip is his.
    assert (final["bob"].prize, final["cid"].prize, final["ann"].prize) == (151, 150, 0)
    assert_reconciled()


def test_a_quick_game_tie_is_broken_the_same_way(
    player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=2, max_entrants=2)
    for name in ("ann", "bob"):
        registration.register(user=player(name), tournament_id=tournament.pk)
    script(monkeypatch, [{"ann": 30, "bob": 10}, {"ann": 0, "bob": 20}, {"ann": 9, "bob": 1}])
    for _ in range(3):
        play_one_round(tournament, by_clock=True)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    final = entries(tournament)
    assert (final["ann"].place, final["bob"].place) == (1, 2)
    assert (final["ann"].prize, final["bob"].prize) == (200, 0)
    assert_reconciled()
