"""Helpers of the multi-table tournament tests: a tournament (tests.factories.MultiTournamentFactory, which can
also make it running at a level), entrants registered, tables seated, the ledger's tournament-chip invariant."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum
from django.utils import timezone

from ledger.models import Account, AccountKind, tournament_chip_type
from tests.factories import MultiTournamentFactory
from tournaments.tournament.models import Tournament, TournamentStatus

FAST = {"turn_seconds": 30, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}


def new_multi(admin: Any, **overrides: Any) -> Tournament:
    """A registering multi-table tournament created by `admin` (any field overridden, `status` and `level`
    included)."""
    return MultiTournamentFactory.create(created_by=admin, **overrides)


def chips_conserved(tournament: Tournament) -> int:
    """Asserts the mint's balance is minus the chips at the seats; answers the chips in play."""
    chip_type = tournament_chip_type(tournament.pk)
    tournament.refresh_from_db()
    mint = Account.objects.get(pk=tournament.mint_account_id).balance if tournament.mint_account_id else 0
    stacks = (
        Account.objects.filter(chip_type=chip_type, kind=AccountKind.SEAT_STACK).aggregate(s=Sum("balance"))[
            "s"
        ]
        or 0
    )
    assert mint == -stacks, (mint, stacks)
    return int(stacks)


def register_all(tournament: Tournament, users: list[Any]) -> None:
    from tournaments.tournament import registration

    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)


def seated(
    admin: Any, make_player: Any, tables: list[list[int]], **overrides: Any
) -> tuple[Tournament, list[Any], dict[str, Any]]:
    """A running tournament whose tables hold players with the given stacks (named t<table>p<seat>), built
    with the seating services (no start); answers (tournament, tables, entries by name)."""
    from tournaments.multi_table import seating as multi_seating
    from tournaments.tournament.models import TournamentEntry

    fields: dict[str, Any] = {"status": TournamentStatus.RUNNING, "level": 1, "instant_rounds": True}
    tournament = new_multi(admin, **{**fields, **overrides})
    opened = []
    entries: dict[str, Any] = {}
    for t, stacks in enumerate(tables):
        table = multi_seating.open_tournament_table(tournament=tournament)
        opened.append(table)
        for s, stack in enumerate(stacks):
            name = f"t{t}p{s}"
            entry = TournamentEntry.objects.create(
                tournament=tournament, player=make_player(name, chips=1000)
            )
            multi_seating.seat_entrant(
                tournament=tournament,
                entry=entry,
                table=table,
                stack=stack,
                key=f"test:{tournament.pk}:{name}",
            )
            entries[name] = entry
    from tournaments.live.models import Game

    # Every table's first deal scheduled, as the start does.
    Game.objects.filter(table__in=opened).update(next_round_at=timezone.now())
    tournament.refresh_from_db()
    return tournament, opened, entries


def fixed_result(scores: dict[str, int], melded: dict[str, int] | None = None, out: str | None = None) -> Any:
    """An `instant_result` stand-in answering these scores (and melded values, who went out)."""

    def result(players: Any, rng: Any = None) -> dict[str, Any]:
        return {
            "scores": {p: scores[p] for p in players},
            "game_points": {p: scores[p] for p in players},
            "bonuses": [],
            "details": {
                "reason": "instant",
                "went_out": out,
                "players": {p: {"placed_value": (melded or {}).get(p, 0)} for p in players},
            },
            "redeal": False,
        }

    return result
