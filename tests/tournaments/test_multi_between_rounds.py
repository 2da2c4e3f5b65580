"""Tables of a multi-table tournament finishing their rounds close together (issue 19, defect 12; RULES §5:
between rounds no two tables differ by more than one player, nobody is moved during a round).

A table is between rounds from its round's end until its next deal: while it waits for its job, and while it
waits for the deal its job scheduled. Its job plans with every table whose job has run and whose next deal has
not started as between rounds (they give and receive players), and a deal is held while another table's job,
still to run, has players to bust (its plan could still move this table's players)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_helpers import chips_conserved, fixed_result, seated
from tournaments.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, Table
from tournaments.services import dispatch, multi_progress, round_start

pytestmark = pytest.mark.django_db


def _size(table: Table) -> int:
    return Seat.objects.filter(table=table, status__in=SEATED_STATUSES).count()


def _round_over(monkeypatch: pytest.MonkeyPatch, table: Table, result: Any) -> tuple[Round, list[Any]]:
    """`table`'s round dealt and ended at once with `result` (an instant round): its job not run yet."""
    monkeypatch.setattr(round_start, "instant_result", result)
    game = Game.objects.get(table=table)
    with dispatch.captured() as queue:
        round_ = round_start.start_round(game_id=game.pk)
    assert round_ is not None
    round_.refresh_from_db()
    assert round_.settled
    return round_, queue


def _job(tournament: Any, table: Table, round_: Round | None) -> tuple[str, list[Any]]:
    with dispatch.captured() as queue:
        done = multi_progress.after_table_round(
            tournament_id=tournament.pk, table_id=table.pk, round_id=None if round_ is None else round_.pk
        )
    return done, queue


NO_BUST = fixed_result({"t0p0": 10, "t0p1": 0, "t0p2": 0, "t0p3": 0})
# Table 1: two of its players pay more than they hold (PCR 1): they are left without chips.
TWO_BUSTS = fixed_result({"t1p0": 150, "t1p1": -50, "t1p2": -50, "t1p3": 100})


def _even(players: Any, rng: Any = None) -> Any:
    """A round everyone ties at 0: no chips move."""
    return fixed_result(dict.fromkeys(players, 0))(players)


def _three_tables(admin: Any, player: Any) -> tuple[Any, list[Table]]:
    """Three tables of four; table 2 plays its round throughout (mid-round: it neither gives nor is dealt)."""
    tournament, tables, _ = seated(
        admin, player, [[500] * 4, [300, 100, 100, 300], [500] * 4], pcr_schedule=[1], rounds_per_level=10
    )
    Game.objects.filter(table=tables[2]).update(status=GameStatus.PLAYING)
    return tournament, tables


def test_a_table_waiting_for_its_deal_gives_a_player_to_one_whose_round_ended_after(
    player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables = _three_tables(admin_user, player)
    # Tables 0 and 1 end their rounds close together; table 0's job runs first (nobody busts there).
    first, _ = _round_over(monkeypatch, tables[0], NO_BUST)
    second, _ = _round_over(monkeypatch, tables[1], TWO_BUSTS)
    assert _job(tournament, tables[0], first)[0] == "dealt"
    assert Game.objects.get(table=tables[0]).next_round_at is not None  # its deal scheduled, not started
    # Table 1's job busts two: 2 players against table 0's 4, both between rounds. Table 0 gives one.
    assert _job(tournament, tables[1], second)[0] == "dealt"
    assert (_size(tables[0]), _size(tables[1]), _size(tables[2])) == (3, 3, 4)
    # Both are then dealt with three.
    monkeypatch.setattr(round_start, "instant_result", _even)
    for table in tables[:2]:
        game = Game.objects.get(table=table)
        with dispatch.captured():
            dealt = round_start.start_round(game_id=game.pk)
        assert dealt is not None and len(dealt.players) == 3
    chips_conserved(tournament)
    assert_reconciled()


def test_a_deal_waits_for_the_job_of_a_table_with_players_to_bust(
    player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables = _three_tables(admin_user, player)
    first, _ = _round_over(monkeypatch, tables[0], NO_BUST)
    assert _job(tournament, tables[0], first)[0] == "dealt"
    # Table 1's round ends with two players left without chips; before its job runs, table 0's deal comes.
    second, _ = _round_over(monkeypatch, tables[1], TWO_BUSTS)
    game = Game.objects.get(table=tables[0])
    Game.objects.filter(pk=game.pk).update(next_round_at=first.ended_at)  # due
    monkeypatch.setattr(round_start, "instant_result", _even)
    with dispatch.captured() as sent:
        assert round_start.start_round(game_id=game.pk) is None  # held: table 1's job may take a player
    assert sent == [(dispatch.START_ROUND, [game.pk])]  # and sent again shortly
    held = Game.objects.get(pk=game.pk)
    assert held.status == GameStatus.WAITING and held.next_round_at is not None
    assert Round.objects.filter(game=game).count() == 1
    assert _job(tournament, tables[1], second)[0] == "dealt"
    assert (_size(tables[0]), _size(tables[1])) == (3, 3)
    Game.objects.filter(pk=game.pk).update(next_round_at=first.ended_at)
    with dispatch.captured():
        dealt = round_start.start_round(game_id=game.pk)
    assert dealt is not None and len(dealt.players) == 3
    chips_conserved(tournament)
    assert_reconciled()
