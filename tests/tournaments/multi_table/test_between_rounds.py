"""Tables of a multi-table tournament finishing their rounds close together (issue 19, defect 12;
docs/tournaments.md "Multi-table tournaments: the runtime": between rounds no two tables differ by more than
one player, nobody is moved during a round).

A table is between rounds from its round's end until its next deal: while it waits for its job, and while it
waits for the deal its job scheduled. Its job plans with every table whose job has run and whose next deal has
not started as between rounds (they give and receive players), and a deal is held while another table's job,
still to run, has players to bust (its plan could still move this table's players)."""

from __future__ import annotations

import random
from typing import Any
from unittest import mock

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, Phase, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from devtools import multi_table_driver as driver
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, fixed_result, seated
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.live.rounds.end import settle_result
from tournaments.live.rounds.instant import instant_result
from tournaments.live.storage.events import store_game
from tournaments.live.storage.locks import lock_game
from tournaments.multi_table import balance, progress
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import SeatedPlayer, TableState, plan_seating
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry

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
        done = progress.after_table_round(
            tournament_id=tournament.pk, table_id=table.pk, round_id=None if round_ is None else round_.pk
        )
    return done, queue


NO_BUST = fixed_result({"t0p0": 10, "t0p1": 0, "t0p2": 0, "t0p3": 0})
# Table 1: two of its players pay more than they hold (PCR 1): they are left without chips.
TWO_BUSTS = fixed_result({"t1p0": 150, "t1p1": -50, "t1p2": -50, "t1p3": 100})


def _even(players: Any, rng: Any = None) -> Any:
    """A round everyone ties at 0: no chips move."""
    return fixed_result(dict.fromkeys(players, 0))(players)


def _three_tables(admin: Any, make_player: Any) -> tuple[Any, list[Table]]:
    """Three tables of four; table 2 plays its round throughout (mid-round: it neither gives nor is dealt)."""
    tournament, tables, _ = seated(
        admin,
        make_player,
        [[500] * 4, [300, 100, 100, 300], [500] * 4],
        pcr_schedule=[1],
        rounds_per_level=10,
    )
    Game.objects.filter(table=tables[2]).update(status=GameStatus.PLAYING)
    return tournament, tables


def test_a_table_waiting_for_its_deal_gives_a_player_to_one_whose_round_ended_after(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables = _three_tables(admin_user, make_player)
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
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, tables = _three_tables(admin_user, make_player)
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


def test_a_waiting_table_the_plan_would_break_is_sent_its_job_instead_of_dealt(
    make_player: Any, admin_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 3 + 3 + 2 players fit in two tables of four: the table of two, waiting for its deal, is to be broken.
    tournament, tables, _ = seated(admin_user, make_player, [[500] * 3, [500] * 3, [500] * 2], seats=4)
    Tournament.objects.filter(pk=tournament.pk).update(table_sizes=table_sizes.histogram([3, 3, 2]))
    monkeypatch.setattr(round_start, "instant_result", _even)
    small = Game.objects.get(table=tables[2])
    with dispatch.captured() as sent:
        assert round_start.start_round(game_id=small.pk) is None
    assert sent == [(TABLE_ROUND_OVER, [tournament.pk, tables[2].pk, None])]
    assert Game.objects.get(pk=small.pk).next_round_at is None
    assert not Round.objects.filter(game=small).exists()
    assert _job(tournament, tables[2], None)[0] == "broken"
    assert (_size(tables[0]), _size(tables[1])) == (4, 4)
    # A table the plan keeps is dealt as usual.
    with dispatch.captured():
        dealt = round_start.start_round(game_id=Game.objects.get(table=tables[0]).pk)
    assert dealt is not None and len(dealt.players) == 4
    chips_conserved(tournament)
    assert_reconciled()


# --- Any interleaving of deals, round ends and jobs across tables (hypothesis) ---------------------------------


class _Seeded:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def SystemRandom(self) -> random.Random:
        return self.rng


class _Rollback(Exception):
    """Ends an example's transaction: each starts from the same database."""


def _state(tournament: Any) -> list[TableState]:
    """Every open table as a plan at this moment would see it: between rounds (players given) when its job
    has run and its next deal has not started; else by its size only — mid-round, or its round over with its
    job still to run (counted without its seats left without chips: its job busts them first)."""
    states = []
    for table in Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).order_by("pk"):
        game = Game.objects.get(table=table)
        seats = Seat.objects.filter(table=table, status__in=SEATED_STATUSES)
        if game.status == GameStatus.WAITING and not table.awaiting_job:
            entries = TournamentEntry.objects.filter(
                table=table, status=EntryStatus.PLAYING, seat__isnull=False
            )
            players = tuple(SeatedPlayer(entry=e.pk, times_moved=e.times_moved) for e in entries)
            assert len(players) == seats.count()
            states.append(TableState(table=table.pk, size=len(players), between_rounds=True, players=players))
        elif table.awaiting_job:
            live = seats.filter(stack_account__balance__gt=0).count()
            states.append(TableState(table=table.pk, size=live, between_rounds=False))
        else:
            states.append(TableState(table=table.pk, size=seats.count(), between_rounds=False))
    return states


def _end_round(game_id: int, rng: random.Random) -> list[Any]:
    """The round playing at `game_id` ends now with drawn scores, settled as any round is."""
    with dispatch.captured() as sent, transaction.atomic():
        locked = lock_game(game_id)
        assert locked is not None
        table, game = locked
        assert game.current_round is not None
        result = instant_result(game.current_round.players, rng=rng)
        writes = settle_result(
            game=game, table=table, round_=game.current_round, result=result, now=timezone.now()
        )
        store_game(game, before=writes)
    return sent


def _nobody_moved_mid_round(tournament: Any) -> None:
    for game in Game.objects.filter(table__tournament=tournament, status=GameStatus.PLAYING):
        assert game.current_round is not None
        seated_now = set(
            Seat.objects.filter(table_id=game.table_id, status__in=SEATED_STATUSES).values_list(
                "player__username", flat=True
            )
        )
        # Everyone dealt in is still there (a player moved in waits for the next deal).
        assert set(game.current_round.players) <= seated_now, (game.table_id, seated_now)


def _interleave(data: st.DataObject, admin: Any, make_player: Any) -> int:
    seats = 4
    # Seated as the start seats them (`seating_plan.initial_tables`): ceil(n/seats) tables, sizes within one.
    entrants = data.draw(st.integers(min_value=seats + 1, max_value=2 * seats + 2), label="entrants")
    count = -(-entrants // seats)
    sizes = [entrants // count + (1 if i < entrants % count else 0) for i in range(count)]
    stacks = [[data.draw(st.sampled_from([20, 50, 80])) for _ in range(n)] for n in sizes]
    rng = random.Random(data.draw(st.integers(min_value=0, max_value=2**32), label="scores"))
    tournament, tables, _ = seated(
        admin, make_player, stacks, instant_rounds=False, pcr_schedule=[1], rounds_per_level=100, seats=seats
    )
    # The start writes the size histogram: the jobs' shortcut (`table_sizes.plan_needed`) is then in play.
    tournament.table_sizes = table_sizes.histogram(len(s) for s in stacks)
    Tournament.objects.filter(pk=tournament.pk).update(table_sizes=tournament.table_sizes)
    pending: list[tuple[str, list[Any]]] = [
        (dispatch.START_ROUND, [Game.objects.get(table=t).pk]) for t in tables
    ]
    wanted = (dispatch.START_ROUND, TABLE_ROUND_OVER)
    steps = 0
    while steps < 200:
        if Tournament.objects.filter(pk=tournament.pk, status__in=driver.OVER).exists():
            break
        playing = list(
            Game.objects.filter(table__tournament=tournament, status=GameStatus.PLAYING).values_list(
                "pk", flat=True
            )
        )
        choices = len(pending) + len(playing)
        if not choices:
            break
        pick = data.draw(st.integers(min_value=0, max_value=choices - 1))
        steps += 1
        if pick >= len(pending):
            sent = _end_round(playing[pick - len(pending)], rng)
        else:
            name, args = pending.pop(pick)
            if name == dispatch.START_ROUND:
                game_id = int(args[0])
                # Its pause is not waited for: a scheduled deal is due now.
                Game.objects.filter(pk=game_id, next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                table_id = Game.objects.values_list("table_id", flat=True).get(pk=game_id)
                plan = plan_seating(_state(tournament), seats=seats, rng=random.Random(0))
                with dispatch.captured() as sent:
                    dealt = round_start.start_round(game_id=game_id)
                if dealt is not None:
                    # Dealt only when no plan would take one of its players.
                    assert table_id not in plan.broken, (table_id, plan)
                    assert all(move.source != table_id for move in plan.moves), (table_id, plan)
            else:
                with dispatch.captured() as sent:
                    progress.after_table_round(
                        tournament_id=int(args[0]),
                        table_id=int(args[1]),
                        round_id=None if args[2] is None else int(args[2]),
                    )
                # After every job: no two tables between rounds differ by more than one player.
                tournament.refresh_from_db()
                if tournament.status not in driver.OVER:
                    between = [s.size for s in _state(tournament) if s.between_rounds]
                    assert not between or max(between) - min(between) <= 1, _state(tournament)
        pending += [(name, list(args)) for name, args in sent if name in wanted]
        _nobody_moved_mid_round(tournament)
    chips_conserved(tournament)
    return steps


@hypothesis_settings(
    max_examples=12,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_any_interleaving_keeps_the_tables_between_rounds_balanced(
    data: st.DataObject, admin_user: Any, make_player: Any
) -> None:
    # Every draw of the run seeded (the plan's, the first dealer's): an example replays the same.
    seeded = random.Random(0)
    try:
        with (
            mock.patch.object(balance, "secrets", _Seeded(seeded)),
            mock.patch("secrets.randbelow", seeded.randrange),  # the first dealer (the engine's deal)
            transaction.atomic(),
        ):
            steps = _interleave(data, admin_user, make_player)
            event(f"steps: {steps // 50 * 50}+")
            assert_reconciled()
            raise _Rollback
    except _Rollback:
        pass
