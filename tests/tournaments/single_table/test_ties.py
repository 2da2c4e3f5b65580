"""Ties at the top (docs/tournaments.md "Lifecycle"): everyone not tied is out, the tied play tie-breaker
rounds scored on their own; a tie that lasts `tiebreak_rounds` is shared with the remainder rule. In the first
tests the rounds are really dealt and played (the server's timeout moves) and their points scripted, so that
the tie is certain; the last deals a stacked deck and plays real moves to a real tie."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import new_tournament, play_one_round
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import results as round_results
from tournaments.live.rounds import start as round_start
from tournaments.tournament import registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentStage, TournamentStatus

pytestmark = pytest.mark.django_db


def script(monkeypatch: pytest.MonkeyPatch, rounds: list[dict[str, int]]) -> None:
    """Each round's `game_points`, in order (the engine's scores otherwise)."""
    points: Iterator[dict[str, int]] = iter(rounds)
    real = round_results.result_dict

    def scripted(res: Any) -> dict[str, Any]:
        data = real(res)
        these = next(points)
        data["game_points"] = {p: these[p] for p in data["scores"]}
        data["scores"] = dict(data["game_points"])
        return data

    monkeypatch.setattr(round_results, "result_dict", scripted)


def entries(tournament: Any) -> dict[str, TournamentEntry]:
    return {
        e.player.username: e
        for e in TournamentEntry.objects.filter(tournament=tournament).select_related("player")
    }


def test_a_tie_at_the_target_is_broken_by_tie_breakers_among_the_tied(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(admin_user, target_score=50, max_entrants=3, payouts=[70, 30])
    for name in ("ann", "bob", "cid"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
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
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A guarantee of 301 makes the pool odd: the shared places 1 and 2 split 301 as 151 and 150.
    tournament = new_tournament(
        admin_user, target_score=50, max_entrants=3, payouts=[70, 30], tiebreak_rounds=2, guarantee=301
    )
    for name in ("ann", "bob", "cid"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
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
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = new_tournament(admin_user, kind="quick", rounds=2, max_entrants=2)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    script(monkeypatch, [{"ann": 30, "bob": 10}, {"ann": 0, "bob": 20}, {"ann": 9, "bob": 1}])
    for _ in range(3):
        play_one_round(tournament, by_clock=True)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    final = entries(tournament)
    assert (final["ann"].place, final["bob"].place) == (1, 2)
    assert (final["ann"].prize, final["bob"].prize) == (200, 0)
    assert_reconciled()


# ------------------------------------------------------------------ a stacked deck: a real tie, real moves

GOES_OUT = [
    "5H",
    "6H",
    "7H",
    "QS",
    "QH",
    "QD",
    "8H",
]  # with the QC from the stock: melds, a lay-off, a discard
JUNK = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]  # melds nothing


def stack_every_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round is dealt so that the first player to act goes out at once and the other holds junk: over
    two rounds (the deal rotates) both players score the same, whoever dealt first."""
    from tournaments.engine import engine, stacked_deck

    def new_round(rules: Any, *, players: Any, dealer: int, round_number: int) -> Any:
        first = (dealer + 1) % len(players)
        hands = [GOES_OUT if seat == first else JUNK for seat in range(len(players))]
        deck = stacked_deck(rules, hands, dealer=dealer, up="5D", stock=["QC"])
        return engine.new_round(rules, list(players), dealer, round_number, deck=deck)

    monkeypatch.setattr(round_start, "new_round", new_round)


def go_out(tournament: Any) -> Any:
    """Deal; the first to act draws, melds, lays off and goes out through the service the API calls."""
    from django.contrib.auth.models import User

    from tests.engine.stacking import STOCK, disc, lay, meld
    from tests.tournaments.single_table.helpers import game_of
    from tournaments.single_table import progress

    game = game_of(tournament)
    round_ = round_start.start_round(game_id=game.pk)
    assert round_ is not None
    game.refresh_from_db()
    player = User.objects.get(username=game.turn_player)
    for move in (STOCK, meld("5H", "6H", "7H"), meld("QS", "QH", "QD"), lay("m1", "8H"), disc("QC")):
        game.refresh_from_db()
        moves.submit_move(
            user=player, game_id=game.pk, move=dict(move), expected_version=game.version, idempotency_key=None
        )
    round_.refresh_from_db()
    assert (
        round_.settled
        and round_.result is not None
        and round_.result["details"]["went_out"] == player.username
    )
    progress.advance(tournament_id=tournament.pk, round_id=round_.pk)
    return round_


def test_a_stacked_deck_tie_after_a_quick_game_goes_to_a_tie_breaker(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack_every_deal(monkeypatch)
    tournament = new_tournament(admin_user, kind="quick", rounds=2, max_entrants=2, tiebreak_rounds=3)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=tournament.pk)
    first, second = go_out(tournament), go_out(tournament)
    assert first.result is not None and second.result is not None
    assert first.result["details"]["went_out"] != second.result["details"]["went_out"]
    tournament.refresh_from_db()
    tied = entries(tournament)
    # Each went out once and held the junk once: the same total, a tie at the top.
    assert tied["ann"].total == tied["bob"].total
    assert tournament.stage == TournamentStage.TIEBREAK and tournament.status == TournamentStatus.RUNNING
    # The tie-breaker: whoever acts first goes out and wins; the main totals stay tied.
    decider = go_out(tournament)
    assert decider.result is not None
    winner = decider.result["details"]["went_out"]
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED and tournament.tiebreaks_played == 1
    final = entries(tournament)
    loser = "bob" if winner == "ann" else "ann"
    assert (final[winner].place, final[loser].place) == (1, 2)
    assert (final[winner].prize, final[loser].prize) == (200, 0)
    assert final[winner].tiebreak_total > final[loser].tiebreak_total
    assert_reconciled()
