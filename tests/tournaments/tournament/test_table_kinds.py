"""The registries that bring a tournament kind's behaviour to live play: live play knows ring tables and
tournament tables (`live.tables.policy`), and each kind of tournament registers what it decides when the app is ready
(`tournament.kinds`, filled by `TournamentsConfig.ready`). An unknown kind is a configuration error, said so."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.live.models import Table
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables.policy import RING, TOURNAMENT_TABLES, UnknownTableKind
from tournaments.multi_table.kind import KIND as MULTI_KIND
from tournaments.multi_table.policy import MultiTablePolicy
from tournaments.single_table.policy import OneTableTournamentPolicy
from tournaments.tournament import kinds
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus


def test_every_kind_is_registered_when_the_app_is_ready() -> None:
    assert table_policy.registered_kinds() == {
        table_policy.RING_TABLES,
        TOURNAMENT_TABLES,
        table_policy.PRACTICE_TABLES,
    }
    assert kinds.registered_kinds() == set(TournamentKind.values)
    assert kinds.kind_named(TournamentKind.MULTI) is MULTI_KIND
    assert kinds.kind_named(TournamentKind.QUICK).starts_when_full and not MULTI_KIND.starts_when_full
    assert kinds.kind_named(TournamentKind.SINGLE).late_entry is None and MULTI_KIND.late_entry is not None


def _table_of(tournament: Tournament, admin: Any) -> Table:
    return Table.objects.create(
        game=tournament.game,
        seats=4,
        pcr=1,
        min_buy_in=1,
        max_buy_in=1,
        created_by=admin,
        tournament=tournament,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "fields", "policy_class"),
    [
        (TournamentKind.MULTI, {}, MultiTablePolicy),
        (TournamentKind.SINGLE, {"max_entrants": 4, "target_score": 500}, OneTableTournamentPolicy),
        (TournamentKind.QUICK, {"max_entrants": 4, "rounds": 1}, OneTableTournamentPolicy),
    ],
)
def test_a_tournament_table_plays_by_its_kinds_policy(
    admin_user: Any, kind: str, fields: dict[str, Any], policy_class: type
) -> None:
    if kind == TournamentKind.MULTI:
        tournament = new_multi(admin_user, kind=kind, status=TournamentStatus.RUNNING, **fields)
    else:  # made as the API makes it, then running
        tournament = new_tournament(admin_user, kind=kind, **fields)
        Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.RUNNING)
        tournament.refresh_from_db()
    table = _table_of(tournament, admin_user)
    assert table_policy.table_kind(table) == TOURNAMENT_TABLES
    policy = table_policy.policy_for(table)
    assert type(policy) is policy_class and policy.tournament.pk == tournament.pk  # type: ignore[attr-defined]
    assert table_policy.table_kind(Table(pcr=1)) == table_policy.RING_TABLES
    assert table_policy.policy_for(Table(pcr=1)) is RING


def test_a_table_of_an_unknown_kind_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_policy, "table_kind", lambda table: "league")
    with pytest.raises(
        UnknownTableKind, match=r"'league' table.*registered: practice, ring, tournament.*ready"
    ):
        table_policy.policy_for(Table(pk=7, pcr=1))


def test_a_tournament_of_an_unknown_kind_is_refused_clearly() -> None:
    with pytest.raises(kinds.UnknownTournamentKind, match=r"'league'.*registered: multi, quick, single"):
        kinds.kind_of(Tournament(kind="league"))


def test_registering_again_is_harmless_and_a_taken_name_is_refused() -> None:
    kinds.register_tables()  # the app made ready twice registers the same again
    kinds.register(MULTI_KIND)
    with pytest.raises(ValueError, match="already registered"):
        table_policy.register(TOURNAMENT_TABLES, lambda table: RING)
    with pytest.raises(ValueError, match="already registered"):
        kinds.register(dataclasses.replace(MULTI_KIND, starts_when_full=True))
    assert kinds.kind_named(TournamentKind.MULTI) is MULTI_KIND
