"""Entering a tournament through the ledger (docs/api.md "Tournaments"): register pays `buy_in + fee` at once
(the buy-in to the prize pool, the fee to the house) in one balanced transfer; unregistering before the start
refunds both (the house gives the fee back). A one-table tournament starts by itself when the last seat is
taken (docs/tournaments.md "Lifecycle"); a multi-table one at its scheduled start, and takes late
registrations and re-entries while it runs (`multi_registration`)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from accounts.selectors import is_guest
from ledger import stakes
from ledger.models import Transfer, TransferKind
from ledger.services import accounts, postings
from tournaments.entry_rules import services as entry_rules
from tournaments.errors import Conflict, Forbidden, PlayCode
from tournaments.fair_play import services as fair_play
from tournaments.tickets import services as tickets
from tournaments.tournament import counters, kinds
from tournaments.tournament.entry_payments import entry_legs
from tournaments.tournament.models import (
    LIVE_ENTRY_STATUSES,
    ONE_TABLE_KINDS,
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from tournaments.tournament.start import start_locked
from tournaments.tournament.status import lock_tournament


def live_entries(tournament: Tournament) -> list[TournamentEntry]:
    return list(
        TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES)
        .select_related("player")
        .order_by("registered_at", "pk")
    )


def register(
    *, user: User, tournament_id: int, payment: str | None = None, by_code: bool = False
) -> TournamentEntry:
    """A live entry for `user`, paid; a one-table tournament started if that filled it. A running multi-table
    tournament takes late registrations and re-entries (its kind's `late_entry`: `multi_table.late_entry`).
    `payment` (`tickets.choose_payment`): "auto" (a ticket when the player holds one), "chips" or "ticket".
    A guest of the demo is refused (`tournament.guest`): guests play without chips, and a freeroll's prizes
    are chips. The entry rules refuse before anything is paid (`entry_rules.refuse`: 403 `tournament.entry_rule`;
    a private tournament is entered with its code, `by_code`)."""
    if is_guest(user=user):
        raise Forbidden(
            "A guest cannot enter tournaments: create an account to play for chips.",
            code=PlayCode.TOURNAMENT_GUEST,
        )
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry_rules.refuse(tournament=tournament, user=user, by_code=by_code)
        kind = kinds.kind_of(tournament)
        if kind.late_entry is not None and tournament.status in (
            TournamentStatus.RUNNING,
            TournamentStatus.PAUSED,
        ):
            return kind.late_entry(tournament, user)
        if tournament.kind in ONE_TABLE_KINDS:
            # A one-table tournament is a new seat: refused while repeated abandonment bars the player.
            fair_play.refuse_if_barred(user=user)
        # One indexed look-up (the live entries' partial unique index) and the row's counter, never a count:
        # a registration costs the same with 20 or 250,000 entrants (docs/performance.md).
        live = TournamentEntry.objects.filter(tournament=tournament, status__in=LIVE_ENTRY_STATUSES)
        if live.filter(player=user).exists():
            raise Conflict("You are already registered.", code=PlayCode.TOURNAMENT_ALREADY_REGISTERED)
        registered = tournament.entrants
        # Filled up (a one-table tournament then started): say so rather than "not registering".
        if registered >= tournament.max_entrants:
            raise Conflict(
                "The tournament is full.",
                code=PlayCode.TOURNAMENT_FULL,
                details={"max_entrants": tournament.max_entrants},
            )
        if tournament.status != TournamentStatus.REGISTERING:
            raise Conflict(
                "The tournament is %(status)s: it takes no registrations.",
                params={"status": tournament.status},
                code=PlayCode.TOURNAMENT_NOT_REGISTERING,
                details={"status": tournament.status},
            )
        ticket = tickets.choose_payment(tournament=tournament, user=user, payment=payment)
        # An entry paid with a ticket stakes nothing of the wallet, but still passes the gate (a break).
        stakes.refuse_stake(
            user=user,
            amount=0 if ticket else tournament.buy_in + tournament.fee,
            kind=stakes.StakeKind.TOURNAMENT_ENTRY,
        )
        entry = TournamentEntry.objects.create(tournament=tournament, player=user)
        counters.add(tournament, entrants=1)
        legs = [] if ticket else entry_legs(tournament, accounts.get_wallet(user=user), +1)
        if ticket:
            tickets.pay_with_ticket(
                tournament=tournament,
                entry=entry,
                ticket=ticket,
                key=f"tournament:{tournament.pk}:entry:{entry.pk}:buy_in",
                computation={},
            )
        if legs:
            postings.post_transfer(
                kind=TransferKind.TOURNAMENT_BUY_IN,
                legs=legs,
                idempotency_key=f"tournament:{tournament.pk}:entry:{entry.pk}:buy_in",
                reason=f"buy-in and fee of tournament {tournament.pk}",
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                computation={"buy_in": tournament.buy_in, "fee": tournament.fee},
                posted_by=user,
            )
        # A multi-table tournament starts at its `starts_at` (the beat's job), full or not.
        if kind.starts_when_full and registered + 1 >= tournament.max_entrants:
            start_locked(tournament)
        return entry


def refund(*, tournament: Tournament, entry: TournamentEntry, status: str) -> Transfer | None:
    """Give an entry's buy-in and fee back (before the start), or its ticket; the entry becomes history."""
    legs = [] if entry.ticket else entry_legs(tournament, accounts.get_wallet(user=entry.player), -1)
    transfer = None
    if entry.ticket:
        transfer = tickets.return_ticket(tournament=tournament, entry=entry, why=status)[0]
    if legs:
        transfer = postings.post_transfer(
            kind=TransferKind.REFUND,
            legs=legs,
            idempotency_key=f"tournament:{tournament.pk}:entry:{entry.pk}:refund",
            reason=f"refund of the entry into tournament {tournament.pk}",
            tournament_id=tournament.pk,
            entry_id=entry.pk,
            computation={"buy_in": tournament.buy_in, "fee": tournament.fee, "why": status},
            posted_by_system="tournaments.refund",
        )
    entry.status = status
    entry.save(update_fields=["status"])
    counters.add(tournament, entrants=-1)
    return transfer


def unregister(*, user: User, tournament_id: int) -> TournamentEntry:
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = next((e for e in live_entries(tournament) if e.player_id == user.pk), None)
        if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
            raise Conflict(
                "The tournament has started: entries are no longer refunded.",
                code=PlayCode.TOURNAMENT_STARTED,
                details={"status": tournament.status},
            )
        if entry is None:
            raise Conflict("You are not registered.", code=PlayCode.TOURNAMENT_NOT_REGISTERED)
        refund(tournament=tournament, entry=entry, status=EntryStatus.UNREGISTERED)
        return entry
