"""Plans of different table groups side by side (issue 34; `tournaments/multi_table/quiet.py` "group planning",
`balance.plan_in_group`): a job that must plan tries first within its table group, holding its group's plans' lock
alone and the tournament's shared, so plans and busts of other groups run beside it; it takes the counters
last and keeps its plan only if, on the counters as they then are, the plan is still the one the exclusive job
would make (`balance.group_plan_holds`); else nothing is kept and the plan is made with the tournament's plans'
lock held alone. On PostgreSQL with real threads, each its own connection and transaction."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django.test import override_settings

from tests.tournaments.multi_table.helpers import (
    ROW,
    chips_conserved,
    first_held_at_its_counters,
    held_by_another,
    open_sizes,
    round_over,
    running_with_stacks,
    seated_names,
)
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Table
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import balance, groups, quiet
from tournaments.multi_table.groups import TableGroup
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.tournament import counters
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentEvent

pytestmark = [pytest.mark.django_db(transaction=True)]

FULL = [400] * 4
# Players with 20 chips, who lose them at the round below.
TWO_OUT = [20, 20, 400, 400]
ONE_OUT = [20, 400, 400, 400]


@pytest.fixture(autouse=True)
def groups_of_two() -> Iterator[None]:
    with override_settings(RAMINO_TABLE_GROUP_TABLES=2):
        yield


def _grouped(admin: Any, make_player: Any, stacks: list[list[int]]) -> tuple[Tournament, list[Table]]:
    """`running_with_stacks`, its tables in groups of two (the last group open-ended), as the start makes them."""
    tournament, tables = running_with_stacks(admin, make_player, stacks)
    groups.add_tables(tournament, {t.pk: len(row) for t, row in zip(tables, stacks, strict=True)}, last=True)
    assert TableGroup.objects.filter(tournament=tournament).count() == -(-len(tables) // 2)
    return tournament, tables


def _rounds_over(monkeypatch: pytest.MonkeyPatch, tables: list[Table], losers: list[int]) -> list[list[Any]]:
    """These tables' rounds played, the first `losers[i]` players of table i scoring 0 (their 20 chips lost),
    the others 90; answers each table's job (its args). Every round is played before any job runs (a deal
    otherwise waits for another table's busts)."""
    jobs = []
    with monkeypatch.context() as staging:
        staging.setattr(MultiTablePolicy, "_busts_pending_elsewhere", lambda self: False)
        for table, lose in zip(tables, losers, strict=True):
            scores = {name: (0 if i < lose else 90) for i, name in enumerate(seated_names(table))}
            jobs.append(round_over(staging, table, scores))
    return jobs


class EveryTable:
    """How many plans read every open table (`balance.open_table_sizes`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads = 0
        real = balance.open_table_sizes

        def counted(tournament: Tournament) -> dict[int, int]:
            self.reads += 1
            return real(tournament)

        monkeypatch.setattr(balance, "open_table_sizes", counted)


def _run(job: list[Any]) -> str | None:
    with dispatch.captured():
        return quiet.after_quiet_round(tournament_id=job[0], table_id=job[1], round_id=job[2])


def _bust_group_of(tournament: Tournament, names: list[str]) -> set[int | None]:
    return set(
        TournamentEntry.objects.filter(
            tournament=tournament, status=EntryStatus.BUSTED, player__username__in=names
        ).values_list("bust_group", flat=True)
    )


def _groups_agree(tournament: Tournament) -> None:
    """Every group's histogram is its open tables' sizes; the tournament's, all of them; the counters, a count."""
    sizes = open_sizes(tournament)
    for group in TableGroup.objects.filter(tournament=tournament):
        mine = [n for t, n in sizes.items() if group.first_table <= t <= group.last_table]
        assert group.table_sizes == table_sizes.histogram(mine), (group, sizes)
    tournament.refresh_from_db()
    assert tournament.table_sizes == table_sizes.histogram(sizes.values())
    assert counters.check(tournament_ids=[tournament.pk]) == []


def test_a_plan_within_a_group_runs_beside_busting_jobs_of_other_groups(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six tables of four in three groups. Two players bust at the first table (group 1): it then seats two
    against four, so its job plans within its group (one player moved to it from the second table). It stops at
    its counters, its busts' table part and its plan's moves done, its group's plans' lock held alone.
    Meanwhile one player busts at the fifth table (group 3): that busting job runs, counts and commits without
    waiting for the plan (a plan used to hold the tournament's plans' lock alone, which every busting job
    shares). Then the first job counts: 21 players on six tables, its plan is still the whole field's, and it is
    kept. No plan read every table."""
    tournament, tables = _grouped(admin_user, make_player, [TWO_OUT, FULL, FULL, FULL, ONE_OUT, FULL])
    every = EveryTable(monkeypatch)
    first, fifth = _rounds_over(monkeypatch, [tables[0], tables[4]], [2, 1])
    out_first, out_fifth = seated_names(tables[0])[:2], seated_names(tables[4])[:1]
    with first_held_at_its_counters(monkeypatch, first) as answers:
        assert _run(fifth) == quiet.QUIET
    assert answers == [quiet.QUIET]
    assert sorted(open_sizes(tournament).values()) == [3, 3, 3, 4, 4, 4]
    assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 1
    assert every.reads == 0
    # The fifth table's job counted first: bust groups in the order the jobs counted.
    assert (_bust_group_of(tournament, out_fifth), _bust_group_of(tournament, out_first)) == ({1}, {2})
    tournament.refresh_from_db()
    assert (tournament.players_left, tournament.bust_groups, tournament.tables_open) == (21, 2, 6)
    _groups_agree(tournament)
    chips_conserved(tournament)


GROUP = f"SELECT pg_advisory_xact_lock_shared({quiet.GROUP_PLANS_LOCK_SPACE}, %s)"


@pytest.mark.parametrize(
    ("same_group", "waits"), [(True, True), (False, False)], ids=["its-group", "another"]
)
def test_a_plan_within_a_group_waits_for_a_busting_job_of_its_group_only(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch, same_group: bool, waits: bool
) -> None:
    """Another transaction holds what a busting job holds for its table's part (the tournament's row and plans'
    lock shared, its group's plans' lock shared): a plan within that group waits for it (and keeps nothing);
    a plan within another group runs to its end beside it."""
    tournament, tables = _grouped(admin_user, make_player, [TWO_OUT, FULL, FULL, FULL, FULL, FULL])
    (job,) = _rounds_over(monkeypatch, [tables[0]], [2])
    held = groups.group_of(tournament, tables[0].pk if same_group else tables[4].pk)
    assert held is not None
    plans = f"SELECT pg_advisory_xact_lock_shared({quiet.PLANS_LOCK_SPACE}, %s)"
    busting = [ROW + "FOR KEY SHARE", plans, GROUP.replace("%s", str(held.pk % 2**31))]
    with held_by_another(tournament.pk, busting):
        if waits:
            with pytest.raises(OperationalError, match="lock timeout"):
                _run(job)
        else:
            assert _run(job) == quiet.QUIET
    if waits:  # refused: nothing changed; once the lock is gone, the job runs
        assert TournamentEntry.objects.filter(tournament=tournament, status=EntryStatus.BUSTED).count() == 0
        assert _run(job) == quiet.QUIET
    assert sorted(open_sizes(tournament).values()) == [3, 3, 4, 4, 4, 4]
    assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 1
    _groups_agree(tournament)
    chips_conserved(tournament)


def test_a_plan_that_other_groups_made_wrong_is_made_again_with_the_plans_lock_alone(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five tables of four (groups: the first two, the next two, the fifth). Two players bust at the first table:
    on the counters it reads (20 players less 2, on five tables) its group's plan moves one player to it, and
    it stops at its counters. Meanwhile one player busts at the third table and one at the fifth, each a busting
    job of its own group that counts and commits. Then 16 players are left: they need four tables, so the plan
    the exclusive job would make breaks a table; the group's plan no longer holds, nothing of it is kept, and the
    job plans again with the plans' lock held alone, over every table: the first table (the smallest) broken, its
    players to the third and the fifth, four tables of four."""
    tournament, tables = _grouped(admin_user, make_player, [TWO_OUT, FULL, ONE_OUT, FULL, ONE_OUT])
    every = EveryTable(monkeypatch)
    first, third, fifth = _rounds_over(monkeypatch, [tables[0], tables[2], tables[4]], [2, 1, 1])
    out_first = seated_names(tables[0])[:2]
    with first_held_at_its_counters(monkeypatch, first) as answers:
        assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 0
        assert _run(third) == quiet.QUIET
        assert _run(fifth) == quiet.QUIET
    assert answers == ["broken"]
    assert every.reads == 1
    assert sorted(open_sizes(tournament).values()) == [4, 4, 4, 4]
    assert Table.objects.get(pk=tables[0].pk).status == "closed"
    assert list(
        TournamentEvent.objects.filter(tournament=tournament, kind__in=["moved", "table_broken"])
        .order_by("version")
        .values_list("kind", flat=True)
    ) == ["moved", "table_broken"]
    assert _bust_group_of(tournament, out_first) == {3}
    tournament.refresh_from_db()
    assert (tournament.players_left, tournament.bust_groups, tournament.tables_open) == (16, 3, 4)
    _groups_agree(tournament)
    chips_conserved(tournament)


def test_a_plan_locks_only_the_games_it_takes_players_from(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Groups of three tables: the first seats four, the second four and the third three, all waiting for their
    deal. Two players bust at the first table: its group's plan moves one player from the second (the largest)
    to it and leaves the third alone. While the plan stops at its counters, the third table is dealt beside it:
    a plan locks the games of the tables it takes players from (or breaks), not every waiting table's, so the
    deals of the others go on (they used to wait for the plan's commit)."""
    with override_settings(RAMINO_TABLE_GROUP_TABLES=3):
        tournament, tables = running_with_stacks(
            admin_user, make_player, [TWO_OUT, FULL, [400] * 3, FULL, FULL, FULL]
        )
        groups.add_tables(tournament, {t.pk: 4 for t in tables[:2]} | {tables[2].pk: 3}, last=False)
        groups.add_tables(tournament, {t.pk: 4 for t in tables[3:]}, last=True)
        (first,) = _rounds_over(monkeypatch, [tables[0]], [2])
        third = Game.objects.get(table=tables[2])
        with first_held_at_its_counters(monkeypatch, first) as answers:
            # The first table's busts are not yet counted (its job holds them): the deal is not held for them.
            monkeypatch.setattr(MultiTablePolicy, "_busts_pending_elsewhere", lambda self: False)
            with dispatch.captured():
                dealt = round_start.start_round(game_id=third.pk)
            assert dealt is not None and dealt.number == 1
        assert answers == [quiet.QUIET]
    assert [open_sizes(tournament)[t.pk] for t in tables] == [3, 3, 3, 4, 4, 4]
    assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 1
    _groups_agree(tournament)
    chips_conserved(tournament)


def test_a_plan_whose_giver_is_dealt_before_its_lock_is_made_again(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Groups of three tables of four, all waiting for their deal. Two players bust at the first table: its plan
    (on the waiting tables as read, nothing locked) takes one player from the second or the third table. Before
    it locks that table's game, the table is dealt (another connection; its instant round ends, its job still to
    run): the plan is made again, and takes the player from the other waiting table."""
    with override_settings(RAMINO_TABLE_GROUP_TABLES=3):
        tournament, tables = running_with_stacks(
            admin_user, make_player, [TWO_OUT, FULL, FULL, FULL, FULL, FULL]
        )
        groups.add_tables(tournament, {t.pk: 4 for t in tables[:3]}, last=False)
        groups.add_tables(tournament, {t.pk: 4 for t in tables[3:]}, last=True)
        (first,) = _rounds_over(monkeypatch, [tables[0]], [2])
        monkeypatch.setattr(MultiTablePolicy, "_busts_pending_elsewhere", lambda self: False)
        real_lock = balance.lock_waiting
        asked: list[list[int]] = []

        def deal(game_id: int) -> None:
            try:
                with dispatch.captured():
                    assert round_start.start_round(game_id=game_id) is not None
            finally:
                connection.close()

        def lock(game_ids: list[int]) -> Any:
            asked.append(list(game_ids))
            if len(asked) == 1:  # the plan's first giver is dealt before its game is locked
                (game_id,) = game_ids
                dealer = threading.Thread(target=deal, args=(game_id,))
                dealer.start()
                dealer.join(timeout=30)
            return real_lock(game_ids)

        monkeypatch.setattr(balance, "lock_waiting", lock)
        assert _run(first) == quiet.QUIET
    dealt = Game.objects.get(pk=asked[0][0])
    assert len(asked) == 2 and asked[1] != asked[0], asked
    other = next(t for t in tables[1:3] if t.pk != dealt.table_id)
    sizes = open_sizes(tournament)
    assert (sizes[tables[0].pk], sizes[dealt.table_id], sizes[other.pk]) == (3, 4, 3)
    assert TournamentEvent.objects.filter(tournament=tournament, kind="moved").count() == 1
    tournament.refresh_from_db()
    assert tournament.players_left == 22
    assert counters.check(tournament_ids=[tournament.pk]) == []
    chips_conserved(tournament)
