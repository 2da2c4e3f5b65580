"""The kinds of tournament (quick, sit-and-go, multi-table), each registered when the app is ready
(`TournamentsConfig.ready` calls each kind's `kind.register`): what the code every kind shares (starting,
registering, the admin's actions) and live play (the table's policy) ask of a tournament's kind. The shared code
never imports a kind; a new kind of tournament is a folder of its own with a `kind.register()` and one line in
`tournaments/apps.py`.

Live play knows one kind of table for all of them (`live.tables.policy.TOURNAMENT_TABLES`): `register_tables` puts
`table_policy` in its registry, which reads the table's tournament and asks that tournament's kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import User

from ledger.models import Transfer
from tournaments.live import TablePolicy
from tournaments.live import table_policy as table_policies
from tournaments.live.models import Table
from tournaments.tournament.models import Tournament, TournamentEntry

__all__ = [
    "Kind",
    "UnknownTournamentKind",
    "kind_named",
    "kind_of",
    "register",
    "register_tables",
    "registered_kinds",
    "table_policy",
]


@dataclass(frozen=True)
class Kind:
    """One kind of tournament's answers (plain functions: two registrations of the same kind compare equal)."""

    name: str  # `Tournament.kind`
    # The policy its tables play by (a fresh one per ask: it reads the tournament's state as it is now).
    table_policy: Callable[[Tournament, Table], TablePolicy]
    # Start with these entrants (`start.start_locked` checked the status and holds the lock): its first table.
    start: Callable[[Tournament, list[TournamentEntry]], Table]
    # Does the registration taking the last seat start it? (Else it starts at its `starts_at`, the beat's job.)
    starts_when_full: bool
    # An entry while it runs or is paused (late registration, re-entry); None: the kind takes none then.
    late_entry: Callable[[Tournament, User], TournamentEntry] | None
    # After the admin paused it / resumed it (in the transaction, under the tournament's lock).
    paused: Callable[[Tournament], None]
    resumed: Callable[[Tournament], None]
    # Cancelled before its start, once every entry got `refunded` back.
    cancelled_before_start: Callable[[Tournament, int], None]
    # Cancelled while running: the pool shared among the players still in (docs/tournaments.md "Lifecycle"); the transfers posted.
    cancel_running: Callable[[Tournament], list[Transfer]]


class UnknownTournamentKind(LookupError):
    """No kind is registered under a tournament's `kind` (its registration was not called at ready)."""


_kinds: dict[str, Kind] = {}


def register(kind: Kind) -> None:
    """Called when the app is ready; the same registration twice is harmless, another one under a taken name
    is refused."""
    name = str(kind.name)  # a `TournamentKind` member is keyed by its value
    known = _kinds.get(name)
    if known is not None and known != kind:
        raise ValueError(f"a tournament kind {name!r} is already registered")
    _kinds[name] = kind


def registered_kinds() -> frozenset[str]:
    return frozenset(_kinds)


def kind_named(name: str) -> Kind:
    kind = _kinds.get(name)
    if kind is None:
        raise UnknownTournamentKind(
            f"no tournament kind {name!r} is registered (registered: {', '.join(sorted(_kinds)) or 'none'}); "
            "each kind registers itself when the app is ready (tournaments.apps.TournamentsConfig.ready)"
        )
    return kind


def kind_of(tournament: Tournament) -> Kind:
    return kind_named(tournament.kind)


def table_policy(table: Table) -> TablePolicy:
    """The policy of a tournament's table: its tournament's kind's (`live.tables.policy.policy_for` asks)."""
    assert table.tournament_id is not None, "live play asks this for a tournament's table only"
    tournament = Tournament.objects.get(pk=table.tournament_id)
    return kind_of(tournament).table_policy(tournament, table)


def register_tables() -> None:
    """A tournament's tables play by their tournament's kind's policy (live play's registry of table kinds)."""
    table_policies.register(table_policies.TOURNAMENT_TABLES, table_policy)
