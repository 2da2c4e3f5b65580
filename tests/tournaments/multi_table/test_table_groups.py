"""Table groups in play (docs/tournaments.md "Table groups", `tournaments/multi_table/groups.py`): tournaments of
several groups (`RAMINO_TABLE_GROUP_TABLES` = 2) played to their end through the real services in this process
(`devtools.multi_table_simulation`), the task bodies run in an order hypothesis draws (the tables' jobs, deals
and wake-ups of every group interleaved as several workers would run them). After every step the checks of the
simulation test hold (chips conserved, nobody moved mid-round, tables over no seat count, after each job the
tables between rounds of the whole field within one player of each other and the job's table within one of the
smallest), every open table is in exactly one group, and at the end the places, prizes and counters are exact
and the ledger reconciles. A job's plan within its group reads and locks its group's tables only."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from devtools import multi_table_simulation as simulation
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved
from tests.tournaments.multi_table.test_simulation import BUY_IN, Invariants, _assert_finished, _tournament
from tournaments.live.models import Game, Table, TableStatus
from tournaments.multi_table import balance, groups
from tournaments.multi_table.groups import TableGroup
from tournaments.multi_table.planning import groups as plan_groups
from tournaments.tournament import admin_actions, counters
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db

_examples = itertools.count(1)


class ShuffledDispatch(simulation.CapturedDispatch):
    """The captured messages run in an order drawn from `rng` (any message waiting may run next)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def pop(self) -> tuple[str, list[Any]]:
        return self.messages.pop(self.rng.randrange(len(self.messages)))


class GroupInvariants(Invariants):
    """The simulation's checks, and every open table in one group (or no groups)."""

    def after(self, step: simulation.Step, result: Any) -> None:
        super().after(step, result)
        rows = list(
            TableGroup.objects.filter(tournament=self.tournament).values_list("first_table", "last_table")
        )
        if not rows:
            return
        self.checked["grouped"] += 1
        for table in Table.objects.filter(tournament=self.tournament, status=TableStatus.OPEN).values_list(
            "pk", flat=True
        ):
            assert sum(1 for first, last in rows if first <= table <= last) == 1, (table, rows)


class Plans:
    """How the jobs planned: within a group, or over every table."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.within = 0
        self.whole = 0
        real_within, real_all = plan_groups.plan_within_group, balance.open_table_sizes

        def within(*args: Any, **kwargs: Any) -> bool:
            answer = real_within(*args, **kwargs)
            self.within += int(answer)
            return answer

        def whole(tournament: Tournament) -> dict[int, int]:
            self.whole += 1
            return real_all(tournament)

        monkeypatch.setattr(plan_groups, "plan_within_group", within)
        monkeypatch.setattr(balance, "open_table_sizes", whole)


def _exact_end(invariants: Invariants, entrants: int) -> None:
    """The simulation test's checks of the end (`_assert_finished`) when the field went through round-for-round
    play at the bubble; else (busts jumped over it) the same but that."""
    tournament = invariants.tournament
    if TournamentEvent.objects.filter(tournament=tournament, kind="round_for_round").exists():
        _assert_finished(invariants, entrants)
        return
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    assert len(entries) == entrants
    places = [e.place for e in entries]
    assert all(p is not None and 1 <= p <= entrants for p in places), places
    assert places.count(1) == 1, "exactly one winner"
    assert sum(e.prize for e in entries) == entrants * BUY_IN, "the prizes are the pool"
    assert not Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).exists()
    assert TournamentEvent.objects.filter(tournament=tournament, kind="finished").count() == 1
    assert_reconciled()


def _play(
    admin: Any, make_player: Any, prefix: str, *, entrants: int, seed: int, order: int, per_group: int = 2
) -> Invariants:
    tournament = _tournament(admin, make_player, prefix, entrants=entrants, instant=True)
    invariants = GroupInvariants(tournament)
    with (
        simulation.seeded(seed),
        ShuffledDispatch(random.Random(order)) as queue,
        override_settings(RAMINO_NEXT_ROUND_DELAY_SECONDS=0, RAMINO_TABLE_GROUP_TABLES=per_group),
    ):
        admin_actions.start(tournament_id=tournament.pk)
        tables = -(-entrants // 4)
        assert TableGroup.objects.filter(tournament=tournament).count() == -(-tables // per_group)
        simulation.Driver(tournament.pk, queue, seed=seed, observer=invariants).run()
    return invariants


@hypothesis_settings(
    max_examples=5,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    entrants=st.integers(min_value=17, max_value=32),
    per_group=st.sampled_from([2, 3]),
    seed=st.integers(min_value=0, max_value=2**16),
    order=st.integers(min_value=0, max_value=2**16),
)
def test_jobs_of_several_groups_in_any_order_keep_the_field_balanced_and_the_chips(
    entrants: int,
    per_group: int,
    seed: int,
    order: int,
    admin_user: Any,
    make_player: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plans = Plans(monkeypatch)
    played = _play(
        admin_user,
        make_player,
        f"g{next(_examples)}",
        entrants=entrants,
        seed=seed,
        order=order,
        per_group=per_group,
    )
    _exact_end(played, entrants)
    assert played.checked["grouped"] > 0
    assert plans.within + plans.whole > 0
    assert counters.check(tournament_ids=[played.tournament.pk]) == []
    chips_conserved(played.tournament)
    # Merged as the field shrank: none left once the open tables fit one group (the finish closes the last).
    assert not TableGroup.objects.filter(tournament=played.tournament).exists()


def test_a_plan_within_a_group_reads_and_locks_its_group_only(
    admin_user: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """48 entrants, 12 tables in 3 groups, played in the messages' order for a seed: some jobs plan within their
    group (or the few groups rebalanced against each other), reading and locking those tables only, never every
    open table; the tournament ends exact."""
    plans = Plans(monkeypatch)
    locked: list[set[int]] = []
    # The waiting tables a plan reads (it locks those it takes players from).
    real_waiting = balance.waiting_games

    def waiting(tournament: Tournament, *, besides: int, within: list[int] | None = None) -> Any:
        found = real_waiting(tournament, besides=besides, within=within)
        if within is not None:
            group = groups.group_of(tournament, besides)
            assert group is not None and group.first_table <= besides <= group.last_table
            assert set(found) <= set(within) and besides in within
            assert len(within) < Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).count()
            locked.append(set(found))
        return found

    monkeypatch.setattr(balance, "waiting_games", waiting)
    played = _play(admin_user, make_player, "w", entrants=48, seed=3, order=0, per_group=4)
    _exact_end(played, 48)
    # Every read within groups follows a "yes" of `plan_within_group`; a plan made beside other groups' jobs
    # asks it once more under the counters, reading nothing (`balance.group_plan_holds`).
    assert locked and len(locked) <= plans.within, (plans.within, plans.whole)
    assert (
        Game.objects.filter(table__tournament=played.tournament).count()
        == Table.objects.filter(tournament=played.tournament).count()
    )
    assert groups.per_group() >= 2
