"""Late registration and re-entry into a running multi-table tournament (docs/tournaments.md "Multi-table
tournaments: the runtime"): until the tournament's level passes `late_registration_levels`, a new entrant pays
`buy_in + fee` and is seated at once with a starting stack minted for them, at a smallest table with a free
seat (`seating_plan.table_for_newcomer`; a new table when all are full); a busted player, where `reentry` is
on, registers again: the same entry back in play (`reentries` + 1, its bust and place cleared) for a new
buy-in and a new stack.

The caller (`registration.register`) holds the tournament's lock; the receiving table's row is locked here (the
job's lock order: tournament, then tables)."""

from __future__ import annotations

from django.contrib.auth.models import User

from ledger import stakes
from ledger.models import TransferKind
from ledger.services import accounts, postings
from tournaments.errors import Conflict, PlayCode
from tournaments.live.models import Table
from tournaments.multi_table import groups, knockouts, rebuys
from tournaments.multi_table.balance import open_table_sizes, wake
from tournaments.multi_table.planning import table_sizes
from tournaments.multi_table.planning.seating_plan import table_for_newcomer
from tournaments.multi_table.seating import open_tournament_table, seat_entrant
from tournaments.multi_table.start import refuse_while_starting
from tournaments.tickets import services as tickets
from tournaments.tournament import counters, events
from tournaments.tournament.entry_payments import entry_legs
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)


def late_registration_open(tournament: Tournament) -> bool:
    return tournament.level <= tournament.late_registration_levels


def late_entry(*, tournament: Tournament, user: User) -> TournamentEntry:
    """A late registration or a re-entry, paid and seated; else the reason it is refused (409)."""
    refuse_while_starting(tournament)  # the batched start seats its tables first
    entry = (
        TournamentEntry.objects.select_for_update()
        .filter(tournament=tournament, player=user, status__in=LIVE_ENTRY_STATUSES)
        .first()
    )
    if entry is not None and entry.status != EntryStatus.BUSTED:
        raise Conflict("You are already registered.", code=PlayCode.TOURNAMENT_ALREADY_REGISTERED)
    if entry is not None and not tournament.reentry:
        raise Conflict(
            "This tournament has no re-entry.",
            code=PlayCode.TOURNAMENT_NO_REENTRY,
            details={"reentry": False},
        )
    if not late_registration_open(tournament):
        if entry is not None:
            raise Conflict(
                "Re-entry closed with late registration.",
                code=PlayCode.TOURNAMENT_NO_REENTRY,
                details={
                    "level": tournament.level,
                    "late_registration_levels": tournament.late_registration_levels,
                },
            )
        raise Conflict(
            "Late registration is closed.",
            code=PlayCode.TOURNAMENT_LATE_REGISTRATION_CLOSED,
            details={
                "level": tournament.level,
                "late_registration_levels": tournament.late_registration_levels,
            },
        )
    # A held ticket pays a late registration or a re-entry (docs/rules.md "Tickets"); else chips.
    ticket = tickets.choose_payment(tournament=tournament, user=user, payment="auto")
    stakes.refuse_stake(
        user=user,
        amount=0 if ticket else tournament.buy_in + tournament.fee,
        kind=stakes.StakeKind.LATE_ENTRY if entry is None else stakes.StakeKind.RE_ENTRY,
    )
    if entry is None:
        if tournament.entrants >= tournament.max_entrants:
            raise Conflict(
                "The tournament is full.",
                code=PlayCode.TOURNAMENT_FULL,
                details={"max_entrants": tournament.max_entrants},
            )
        entry = TournamentEntry.objects.create(tournament=tournament, player=user)
        counters.add(tournament, entrants=1)
        key = f"tournament:{tournament.pk}:entry:{entry.pk}:buy_in"
    else:
        entry.reentries += 1
        counters.add(tournament, reentries=1)
        entry.place = None
        entry.bust_group = None
        entry.bust_start_chips = None
        entry.bust_melded = None
        entry.busted_at = None
        entry.save(
            update_fields=["reentries", "place", "bust_group", "bust_start_chips", "bust_melded", "busted_at"]
        )
        key = f"tournament:{tournament.pk}:entry:{entry.pk}:reentry:{entry.reentries}"
    legs = [] if ticket else entry_legs(tournament, accounts.get_wallet(user=user), +1)
    if ticket:
        tickets.pay_with_ticket(
            tournament=tournament,
            entry=entry,
            ticket=ticket,
            key=key,
            computation={"reentries": entry.reentries},
        )
    if legs:
        postings.post_transfer(
            kind=TransferKind.TOURNAMENT_BUY_IN,
            legs=legs,
            idempotency_key=key,
            reason=f"{'re-entry' if entry.reentries else 'late registration'} into tournament {tournament.pk}",
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            computation={"buy_in": tournament.buy_in, "fee": tournament.fee, "reentries": entry.reentries},
            posted_by=user,
        )
    if entry.reentries:
        rebuys.reentered(entry)
    knockouts.new_bounty(tournament, entry)
    table = _newcomers_table(tournament)
    seat_entrant(
        tournament=tournament,
        entry=entry,
        table=table,
        stack=int(tournament.starting_stack or 0),
        key=f"tournament:{tournament.pk}:entry:{entry.pk}:mint:{entry.reentries}",
    )
    events.record(
        tournament=tournament,
        kind="reentered" if entry.reentries else "late_registered",
        data={
            "entry": entry.pk,
            "player": user.get_username(),
            "table": table.pk,
            "reentries": entry.reentries,
        },
    )
    if tournament.status == TournamentStatus.RUNNING:
        # A table that waited for a second player deals now (its job decides).
        wake(tournament, [table.pk])
    return entry


def _newcomers_table(tournament: Tournament) -> Table:
    sizes = open_table_sizes(tournament)
    chosen = table_for_newcomer(sizes, seats=tournament.seats)
    if chosen is None:
        table = open_tournament_table(tournament=tournament)
    else:
        table = Table.objects.select_for_update().get(pk=chosen)
    # The size histogram the tables' jobs keep, with the newcomer counted (`table_sizes`).
    sizes[table.pk] = sizes.get(table.pk, 0) + 1
    tournament.table_sizes = table_sizes.histogram(sizes.values())
    Tournament.objects.filter(pk=tournament.pk).update(table_sizes=tournament.table_sizes)
    groups.rewrite(tournament, sizes)  # the table groups' histograms too (`multi_table/groups.py`)
    return table
