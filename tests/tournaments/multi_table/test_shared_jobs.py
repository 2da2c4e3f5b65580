"""The tables' jobs of one multi-table tournament running at once (issue 34; `tournaments/multi_table/quiet.py`):
every job of the shared path shares the tournament's row (`FOR KEY SHARE`); busting jobs share the plans' lock
and take turns only for the counters (the row `FOR NO KEY UPDATE`, taken last), a plan holds the plans' lock
alone; the exclusive job (`FOR UPDATE`) waits for them all and holds them all off. On PostgreSQL with real
threads, each its own connection and transaction:

- the lock modes: a quiet job runs while another transaction shares the row, and waits while one holds it
  exclusively; a busting job busts while another busts (the row and the plans' lock shared) and waits for one
  counting; a plan runs beside quiet jobs and waits for busting ones, whether busting or counting;
- hypothesis draws the tables' stacks, the rounds' scores, whether the tables are in groups of two (plans within
  a group then run beside other groups' jobs, `test_group_plans.py`) and how the jobs overlap (the order they start in and
  a pause before each); whatever the interleaving, every job ends without error, the counters
  (`players_left`, `tables_open`, the size histogram) equal a count, the bust groups are numbered 1..n with
  one table each, the places given are distinct, the chips are conserved, and the open tables, all between
  rounds at the end, are within one player of each other, each group's histogram its tables' sizes."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections import Counter
from contextlib import nullcontext
from typing import Any

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tests.tournaments.multi_table.helpers import (
    ROW,
    SEATS,
    chips_conserved,
    first_held_at_its_counters,
    fixed_result,
    held_by_another,
    open_sizes,
    round_over,
    running_with_stacks,
    seated_names,
)
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, Table
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import groups as table_groups
from tournaments.multi_table import progress, quiet
from tournaments.multi_table.groups import TableGroup
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import admin_actions, counters
from tournaments.tournament.models import (
    EntryStatus,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


def _rounds_over(
    monkeypatch: pytest.MonkeyPatch, tables: list[Table], rng: random.Random
) -> list[tuple[int, int, int]]:
    """Every table's round dealt and ended at once (drawn scores); answers each table's job (its args)."""
    jobs = []
    for table in tables:
        players = list(
            table.seat_set.filter(status__in=SEATED_STATUSES).values_list("player__username", flat=True)
        )
        scores = {p: rng.choice([0, 10, 40, 90]) for p in players}
        monkeypatch.setattr(round_start, "instant_result", fixed_result(scores))
        with dispatch.captured() as sent:
            round_start.start_round(game_id=Game.objects.get(table=table).pk)
        # A deal held for another table's busts (`MultiTablePolicy.holds_deal`) sends no job.
        jobs += [tuple(int(a) for a in args) for name, args in sent if name == TABLE_ROUND_OVER]
    return jobs  # type: ignore[return-value]


def _shared_job_beside(args: list[Any], *, waits: bool) -> None:
    """The table's job on the shared path beside another transaction's locks (`_row_held_by_another`): refused
    for a lock timeout, or run to its end, sending the table's deal."""
    if waits:
        with pytest.raises(OperationalError, match="lock timeout"), dispatch.captured():
            quiet.after_quiet_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
    else:
        with dispatch.captured() as deals:
            assert quiet.after_quiet_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
        assert [name for name, _ in deals] == [dispatch.START_ROUND]


def _at_once(jobs: list[tuple[int, int, int]], pauses: list[float]) -> list[Any]:
    """The jobs in threads started together, each after its pause; answers each one's answer or exception."""
    answers: list[Any] = [None] * len(jobs)
    gate = threading.Barrier(len(jobs))

    def run(i: int) -> None:
        try:
            gate.wait(timeout=30)
            time.sleep(pauses[i])
            with dispatch.captured():
                answers[i] = progress.after_table_round(
                    tournament_id=jobs[i][0], table_id=jobs[i][1], round_id=jobs[i][2]
                )
        except Exception as error:  # the assertion below shows it
            answers[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


@hypothesis_settings(
    max_examples=12,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_jobs_at_once_keep_the_counters_the_places_and_the_balance(
    data: st.DataObject, admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables_wanted = data.draw(st.integers(min_value=3, max_value=5), label="tables")
    stacks = [
        [data.draw(st.sampled_from([20, 50, 400]), label="stack") for _ in range(SEATS)]
        for _ in range(tables_wanted)
    ]
    # In groups of two tables (`multi_table/groups.py`): plans within a group run beside other groups' jobs.
    grouped = data.draw(st.booleans(), label="groups of two")
    with override_settings(RAMINO_TABLE_GROUP_TABLES=2) if grouped else nullcontext():
        tournament, tables = running_with_stacks(admin_user, make_player, stacks)
        if grouped:
            table_groups.add_tables(tournament, {t.pk: SEATS for t in tables}, last=True)
        rng = random.Random(data.draw(st.integers(min_value=0, max_value=2**16), label="scores"))
        jobs = _rounds_over(monkeypatch, tables, rng)
        order = data.draw(st.permutations(range(len(jobs))), label="order")
        pauses = [data.draw(st.sampled_from([0.0, 0.002, 0.01]), label="pause") for _ in jobs]
        answers = _at_once([jobs[i] for i in order], pauses)
    assert not [a for a in answers if not isinstance(a, str)], answers

    tournament.refresh_from_db()
    assert counters.check(tournament_ids=[tournament.pk]) == []
    sizes = open_sizes(tournament)
    assert tournament.tables_open == len(sizes)
    if tournament.status == TournamentStatus.RUNNING:
        assert tournament.table_sizes == table_sizes.histogram(sizes.values())
        assert max(sizes.values()) - min(sizes.values()) <= 1, sizes
        for group in TableGroup.objects.filter(tournament=tournament):
            mine = [n for t, n in sizes.items() if group.first_table <= t <= group.last_table]
            assert mine and group.table_sizes == table_sizes.histogram(mine), (group, sizes)
    busted = list(TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED))
    groups = Counter(int(e.bust_group or 0) for e in busted)
    assert sorted(groups) == list(range(1, tournament.bust_groups + 1)), groups
    # Places by settlement order: a later bust group's places are all better (lower) than an earlier one's
    # (within a group equal keys share a place).
    if tournament.status == TournamentStatus.RUNNING:
        by_group: dict[int, list[int]] = {}
        for e in busted:
            assert e.place is not None and e.bust_group is not None
            by_group.setdefault(e.bust_group, []).append(e.place)
        ranked = [by_group[g] for g in sorted(by_group)]
        assert all(min(earlier) > max(later) for earlier, later in itertools.pairwise(ranked)), by_group
    chips_conserved(tournament)


# Another job's locks, as each kind of job holds them (`quiet`): the statements another transaction runs.
PLANS = f"SELECT pg_advisory_xact_lock_shared({quiet.PLANS_LOCK_SPACE}, %s)"
QUIET_JOB = [ROW + "FOR KEY SHARE"]
BUSTING_JOB = [ROW + "FOR KEY SHARE", PLANS]  # its table's part, before its counters
COUNTING_JOB = [ROW + "FOR KEY SHARE", PLANS, ROW + "FOR NO KEY UPDATE"]
EXCLUSIVE_JOB = [ROW + "FOR UPDATE"]


@pytest.mark.parametrize(
    ("mode", "waits"), [("FOR KEY SHARE", False), ("FOR UPDATE", True)], ids=["shared", "exclusive"]
)
def test_a_quiet_job_shares_the_row_and_waits_for_an_exclusive_lock(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch, mode: str, waits: bool
) -> None:
    tournament, tables = running_with_stacks(admin_user, make_player, [[400] * SEATS, [400] * SEATS])
    args = round_over(monkeypatch, tables[0], dict.fromkeys(seated_names(tables[0]), 10))
    with held_by_another(tournament.pk, mode):
        _shared_job_beside(args, waits=waits)
    if waits:  # refused: nothing changed; once the lock is gone, the job runs
        assert Game.objects.get(table=tables[0]).next_round_at is None
        with dispatch.captured():
            assert (
                progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
                == "dealt"
            )


@pytest.mark.parametrize(
    ("mode", "waits"),
    [(QUIET_JOB, False), (BUSTING_JOB, True), (COUNTING_JOB, True)],
    ids=["beside-quiet", "busting", "counting"],
)
def test_a_job_that_plans_runs_beside_quiet_jobs_and_takes_turns_with_busting_ones(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch, mode: list[str], waits: bool
) -> None:
    """Two players of the first table bust: it seats two against four and four, so its job must plan (a player
    moved to it). The plan holds the plans' lock alone and the counters (`quiet`, `balance.rebalance`): while
    another transaction shares the row as a quiet job does, it runs to its end; while one holds the locks of a
    busting job, before its counters or counting, it waits."""
    tournament, tables = running_with_stacks(
        admin_user, make_player, [[20, 20, 400, 400], [400] * SEATS, [400] * SEATS]
    )
    names = seated_names(tables[0])
    scores = {name: (0 if i < 2 else 90) for i, name in enumerate(names)}
    args = round_over(monkeypatch, tables[0], scores)
    with held_by_another(tournament.pk, mode):
        if waits:
            with pytest.raises(OperationalError, match="lock timeout"), dispatch.captured():
                progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
        else:
            with dispatch.captured():
                answer = progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
            assert answer == "dealt"
    if waits:  # refused: nothing changed; once the lock is gone, the job runs
        assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 0
        with dispatch.captured():
            progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
    tournament.refresh_from_db()
    assert tournament.players_left == 10
    assert sorted(open_sizes(tournament).values()) == [3, 3, 4]
    assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 1
    assert counters.check(tournament_ids=[tournament.pk]) == []
    chips_conserved(tournament)


@pytest.mark.parametrize(
    ("mode", "waits"),
    [(BUSTING_JOB, False), (COUNTING_JOB, True)],
    ids=["beside-busting", "counting"],
)
def test_busting_jobs_bust_side_by_side_and_take_turns_for_the_counters(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch, mode: list[str], waits: bool
) -> None:
    """One player of the first table busts, leaving it within one player of the others (no plan): a busting
    job. While another transaction holds what a busting job holds for its table's part (the row and the plans'
    lock shared), it runs to its end; while one holds the counters, it waits and keeps nothing, then runs once
    they are free."""
    tournament, tables = running_with_stacks(
        admin_user, make_player, [[20, 400, 400, 400], [400] * SEATS, [400] * SEATS]
    )
    names = seated_names(tables[0])
    scores = {name: (0 if i == 0 else 90) for i, name in enumerate(names)}
    args = round_over(monkeypatch, tables[0], scores)
    with held_by_another(tournament.pk, mode):
        _shared_job_beside(args, waits=waits)
    if waits:  # refused: nothing changed; once the lock is gone, the job runs
        assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 0
        assert Game.objects.get(table=tables[0]).next_round_at is None
        with dispatch.captured():
            assert quiet.after_quiet_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
    tournament.refresh_from_db()
    (busted,) = TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED)
    assert (busted.player.get_username(), busted.bust_group, busted.place) == (names[0], 1, 12)
    assert (tournament.players_left, tournament.bust_groups) == (11, 1)
    assert sorted(open_sizes(tournament).values()) == [3, 4, 4]
    assert tournament.table_sizes == {"3": 1, "4": 2}
    assert counters.check(tournament_ids=[tournament.pk]) == []
    chips_conserved(tournament)


def test_a_busting_job_counts_first_when_it_finishes_its_table_first(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables lose a player each. The first table's job stops after its table's part (its seat freed, its
    entry out), before it takes the counters; the second table's job busts, counts and commits meanwhile,
    without waiting for the first: its bust is group 1 and places 12th; the first's, counted after, is group 2
    and places 11th."""
    tournament, tables = running_with_stacks(
        admin_user, make_player, [[20, 400, 400, 400], [20, 400, 400, 400], [400] * SEATS, [400] * SEATS]
    )
    jobs = []
    with monkeypatch.context() as staging:
        # Both rounds played before either job (a deal otherwise waits for the other table's busts).
        staging.setattr(MultiTablePolicy, "_busts_pending_elsewhere", lambda self: False)
        for table in tables[:2]:
            scores = {name: (0 if i == 0 else 90) for i, name in enumerate(seated_names(table))}
            jobs.append(round_over(staging, table, scores))
    first, second = jobs
    busted_first, busted_second = (seated_names(table)[0] for table in tables[:2])
    with first_held_at_its_counters(monkeypatch, first) as answers, dispatch.captured():
        assert quiet.after_quiet_round(tournament_id=second[0], table_id=second[1], round_id=second[2])
    assert answers == [quiet.QUIET]
    places = dict(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).values_list(
            "player__username", "bust_group"
        )
    )
    assert places == {busted_second: 1, busted_first: 2}
    assert dict(
        TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).values_list(
            "player__username", "place"
        )
    ) == {busted_second: 16, busted_first: 15}
    tournament.refresh_from_db()
    assert (tournament.players_left, tournament.bust_groups) == (14, 2)
    assert counters.check(tournament_ids=[tournament.pk]) == []
    chips_conserved(tournament)


def test_a_resume_sends_each_table_its_last_rounds_job_which_deals_on_the_shared_path(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A resume sends every waiting table's job again for its last round, as the sweeper does, not as a wake-up:
    each deals on the shared path (the row shared), so a large field's tables are dealt again side by side
    instead of one exclusive job after another (docs/performance.md "At 250,000 entrants")."""
    tournament, tables = running_with_stacks(admin_user, make_player, [[400] * SEATS, [400] * SEATS])
    jobs = _rounds_over(monkeypatch, tables, random.Random(1))
    admin_actions.pause(tournament_id=tournament.pk)
    with dispatch.captured():
        for args in jobs:
            answer = progress.after_table_round(tournament_id=args[0], table_id=args[1], round_id=args[2])
            assert answer == "paused"
    with dispatch.captured() as sent:
        admin_actions.resume(tournament_id=tournament.pk)
    resent = sorted(tuple(int(a) for a in args) for name, args in sent if name == TABLE_ROUND_OVER)
    assert resent == sorted(jobs)
    exclusive: list[Any] = []

    def refused(*args: Any) -> str:
        exclusive.append(args)
        return "exclusive"

    monkeypatch.setattr(progress, "_after", refused)
    with dispatch.captured() as deals:
        for table_id, round_id in [(job[1], job[2]) for job in resent]:
            answer = progress.after_table_round(
                tournament_id=tournament.pk, table_id=table_id, round_id=round_id
            )
            assert answer == "dealt"
    assert not exclusive
    assert [name for name, _ in deals].count(dispatch.START_ROUND) == len(tables)
