"""Starting a tournament (the one entry point): the status checked, the entrants counted against
`min_entrants`, then the tournament's kind starts it (`kinds.Kind.start`: a one-table tournament's is
`single_table.start`, a multi-table one's `multi_table.start`)."""

from __future__ import annotations

from tournaments.live.models import Table
from tournaments.tickets import services as tickets
from tournaments.tournament import kinds
from tournaments.tournament.models import Tournament, TournamentStatus
from tournaments.tournament.start_common import entrants_to_start
from tournaments.tournament.status import refuse


def start_locked(tournament: Tournament) -> Table:
    """Start now with the entrants registered; answers its (first) table. Caller holds the tournament's lock."""
    # The status first: only a registering tournament starts (a paused one resumes instead), and any other
    # is refused for its status before its entrants are counted (none are left registered once it runs).
    if tournament.status != TournamentStatus.REGISTERING:
        raise refuse(tournament, TournamentStatus.RUNNING)
    entries = entrants_to_start(tournament)
    table = kinds.kind_of(tournament).start(tournament, entries)
    # Tickets to it held by players not registered become chips (docs/rules.md "Tickets").
    tickets.convert_at_start(tournament)
    return table
