"""The open tables' size histogram of a multi-table tournament (`table_sizes`): its bookkeeping, and the job's
shortcut checked against the planner itself: whenever `plan_needed` says no, the table is within one player of
every other and `plan_seating` with that table alone between rounds moves nobody and breaks nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import Move, Plan, SeatedPlayer, TableState, plan_seating
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import admin_actions


def test_histogram_bookkeeping() -> None:
    hist = table_sizes.histogram([4, 4, 3, 2])
    assert hist == {"2": 1, "3": 1, "4": 2}
    assert table_sizes.consistent(hist, tables_open=4, players_left=13)
    assert not table_sizes.consistent(hist, tables_open=3, players_left=13)
    assert not table_sizes.consistent({}, tables_open=1, players_left=4)
    assert table_sizes.resized(hist, old=4, new=2) == {"2": 2, "3": 1, "4": 1}
    assert table_sizes.resized(hist, old=2, new=0) == {"0": 1, "3": 1, "4": 2}
    plan = Plan(moves=(Move(entry=1, source=7, destination=8),), broken=(9,))
    assert table_sizes.after_plan({7: 4, 8: 2, 9: 0}, plan) == {7: 3, 8: 3}


@settings(max_examples=200, deadline=None)
@given(
    first=st.lists(st.integers(min_value=2, max_value=10), max_size=20),
    batches=st.lists(st.lists(st.integers(min_value=2, max_value=10), max_size=8), max_size=6),
)
def test_a_batched_start_grows_the_histogram_of_all_its_tables(
    first: list[int], batches: list[list[int]]
) -> None:
    """`added`, batch after batch (the batched start, docs/tournaments.md), ends at the histogram of every table."""
    hist = table_sizes.histogram(first)
    for batch in batches:
        hist = table_sizes.added(hist, batch)
    everything = first + [size for batch in batches for size in batch]
    assert hist == table_sizes.histogram(everything)
    assert table_sizes.consistent(hist, tables_open=len(everything), players_left=sum(everything))


@settings(max_examples=1000)
@given(
    seats=st.integers(min_value=2, max_value=10),
    data=st.data(),
)
def test_no_plan_needed_means_the_planner_does_nothing(seats: int, data: st.DataObject) -> None:
    others = data.draw(st.lists(st.integers(min_value=0, max_value=seats), min_size=1, max_size=60))
    size = data.draw(st.integers(min_value=0, max_value=seats))
    players_left = size + sum(others)
    hist = table_sizes.histogram([size, *others])
    needed = table_sizes.plan_needed(
        hist, size=size, players_left=players_left, tables_open=len(others) + 1, seats=seats
    )
    if needed or players_left == 0:
        return
    # Within one player of every other table: of those waiting for their deal (between rounds, the job plans
    # with them), none is more than one away from this one.
    assert all(abs(size - other) <= 1 for other in others), (size, others)
    position = data.draw(st.integers(min_value=0, max_value=len(others)))  # its id among the others'
    ids = [i for i in range(len(others) + 1) if i != position]
    this = TableState(
        table=position,
        size=size,
        between_rounds=True,
        players=tuple(SeatedPlayer(entry=i, times_moved=0) for i in range(size)),
    )
    frozen = [TableState(table=ids[i], size=s, between_rounds=False) for i, s in enumerate(others)]
    plan = plan_seating([this, *frozen], seats=seats, rng=random.Random(0))
    assert plan == Plan(moves=(), broken=()), (size, others)


@settings(max_examples=1000)
@given(seats=st.integers(min_value=2, max_value=10), data=st.data())
def test_a_table_to_break_is_broken_by_the_plan(seats: int, data: st.DataObject) -> None:
    """`to_break` (a deal sends its table's job instead) always means the plan with that table between rounds
    breaks it: the job it sends never finds nothing to do and deals it again."""
    others = data.draw(st.lists(st.integers(min_value=0, max_value=seats), min_size=1, max_size=60))
    size = data.draw(st.integers(min_value=0, max_value=seats))
    players_left = size + sum(others)
    hist = table_sizes.histogram([size, *others])
    if players_left == 0 or not table_sizes.to_break(
        hist, size=size, players_left=players_left, tables_open=len(others) + 1, seats=seats
    ):
        return
    assert table_sizes.plan_needed(
        hist, size=size, players_left=players_left, tables_open=len(others) + 1, seats=seats
    )
    position = data.draw(st.integers(min_value=0, max_value=len(others)))
    ids = [i for i in range(len(others) + 1) if i != position]
    this = TableState(
        table=position,
        size=size,
        between_rounds=True,
        players=tuple(SeatedPlayer(entry=i, times_moved=0) for i in range(size)),
    )
    frozen = [TableState(table=ids[i], size=s, between_rounds=False) for i, s in enumerate(others)]
    plan = plan_seating([this, *frozen], seats=seats, rng=random.Random(0))
    assert position in plan.broken, (size, others)


def test_a_table_two_larger_than_the_smallest_needs_the_plan() -> None:
    hist = table_sizes.histogram([4, 2, 4])
    assert table_sizes.plan_needed(hist, size=4, players_left=10, tables_open=3, seats=4)
    assert not table_sizes.plan_needed(
        table_sizes.histogram([4, 3, 4]), size=4, players_left=11, tables_open=3, seats=4
    )
    # Two smaller than the largest: it may take a player from a table waiting for its deal.
    assert table_sizes.plan_needed(
        table_sizes.histogram([2, 4, 3]), size=2, players_left=9, tables_open=3, seats=4
    )


def _job_statements(admin: Any, make_player: Any, entrants: int) -> list[list[str]]:
    """A tournament's first deals and then its tables' jobs (no bust: deep stacks), each job's SQL."""
    tournament = new_multi(admin, instant_rounds=True, starting_stack=1_000_000, buy_in=0, fee=0)
    register_all(tournament, [make_player(f"s{entrants}-{i}", chips=0) for i in range(entrants)])
    statements: list[list[str]] = []
    with dispatch.captured() as queue:
        admin_actions.start(tournament_id=tournament.pk)
        for name, args in list(queue):
            if name == dispatch.START_ROUND:
                Game.objects.filter(pk=args[0], next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                round_start.start_round(game_id=args[0])
        for _name, args in [m for m in queue if m[0] == TABLE_ROUND_OVER][:4]:
            with CaptureQueriesContext(connection) as captured:
                progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
            statements.append([q["sql"] for q in captured.captured_queries])
    tournament.refresh_from_db()
    assert table_sizes.consistent(
        tournament.table_sizes, tables_open=tournament.tables_open, players_left=tournament.players_left
    )
    chips_conserved(tournament)
    return statements


@pytest.mark.django_db
def test_a_job_with_nothing_to_move_reads_no_other_table(admin_user: Any, make_player: Any) -> None:
    small, large = _job_statements(admin_user, make_player, 12), _job_statements(admin_user, make_player, 120)
    aggregate = 'COUNT("tournaments_seat"'
    # The start wrote the histogram: no job reads every table's size...
    for job in (*small, *large):
        assert not any(aggregate in sql for sql in job)
    # ...and a job costs the same statements at 3 tables as at 30.
    assert len(small[1]) == len(large[1])
    assert_reconciled()
