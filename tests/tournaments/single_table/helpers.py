"""Helpers of the tournament tests: create one, and play it to its end through the services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from ledger.models import Account
from tests.factories import TournamentFactory
from tests.tournaments.live.helpers import play_out_by_clock
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Round, Table
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start
from tournaments.single_table import progress
from tournaments.tournament.models import Tournament, TournamentStatus


def new_tournament(admin: Any, **overrides: Any) -> Tournament:
    """A sit-and-go of three created by `admin` (a quick game with `kind="quick"`): tests.factories."""
    return TournamentFactory.create(created_by=admin, **overrides)


def game_of(tournament: Tournament) -> Game:
    table = Table.objects.get(tournament=tournament)
    return Game.objects.get(table=table)


def bots_play_the_round(game: Game) -> Round:
    """The greedy bot plays every move through the service the HTTP API calls (a claim window is closed as
    its clock would)."""
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.PLAYING:
            round_ = Round.objects.filter(game=game).order_by("-number").first()
            assert round_ is not None and round_.settled
            return round_
        if game.claims_deadline is not None:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
            assert clock_runs.run_close_claims(game_id=game.pk, version=game.version)
            continue
        assert game.state is not None
        state = engine.state_from_dict(game.state)
        player = game.turn_player or state.may_act[0]
        moves.submit_move(
            user=User.objects.get(username=player),
            game_id=game.pk,
            move=engine_bots.greedy_move(state, player),
            expected_version=game.version,
            idempotency_key=None,
        )
    raise AssertionError("the round did not end")


def play_one_round(tournament: Tournament, *, by_clock: bool = False) -> Round:
    """Deal, play every turn (bots, or the server's timeout moves), and run the after-round job as the worker
    would."""
    game = game_of(tournament)
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = play_out_by_clock(game) if by_clock else bots_play_the_round(game)
    progress.advance(tournament_id=tournament.pk, round_id=round_.pk)
    return round_


def play_to_the_end(tournament: Tournament, *, most: int = 40) -> list[Round]:
    rounds: list[Round] = []
    for _ in range(most):
        tournament.refresh_from_db()
        if tournament.status != TournamentStatus.RUNNING:
            break
        rounds.append(play_one_round(tournament))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED, tournament.status
    assert game_of(tournament).status == GameStatus.CLOSED
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    return rounds
