"""A satellite's prizes paid and its stop (docs/rules.md "Satellites"): the pool's chips to the chip winners and,
for every ticket won, the face value to the house (which pays the target's buy-in and fee when the ticket is
spent), in one transfer; the tickets issued in another. Caller holds the tournament's lock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ledger.models import Account, AccountKind, TransferKind
from ledger.services import accounts, postings
from tournaments.satellites import prizes
from tournaments.tickets import services as tickets
from tournaments.tickets import targets
from tournaments.tournament.models import Tournament, TournamentEntry


def is_satellite(tournament: Tournament) -> bool:
    return tournament.satellite_target_id is not None or tournament.satellite_template_id is not None


def stop_at(tournament: Tournament) -> int:
    """Play stops when the players left are at most this: 1, or a satellite's seats (its pool now)."""
    if not is_satellite(tournament):
        return 1
    target = targets.satellite_target(tournament)
    assert target is not None and tournament.pool_account_id is not None
    pool = Account.objects.get(pk=tournament.pool_account_id).balance
    return max(1, prizes.seats_for(pool=pool, face_value=target.face_value))


def pay(
    *,
    tournament: Tournament,
    places: Mapping[str, int],
    entries: Mapping[str, TournamentEntry],
    registration_order: Sequence[str],
    key: str,
) -> dict[str, int]:
    """Pay a satellite's prizes; answers each player's prize in chips of value (a ticket at its face value)."""
    target = targets.satellite_target(tournament)
    assert target is not None and tournament.pool_account_id is not None
    pool = Account.objects.select_for_update().get(pk=tournament.pool_account_id)
    amount = pool.balance

    def computed(holders: set[str]) -> dict[str, prizes.Award]:
        return prizes.awards(
            pool=amount,
            face_value=target.face_value,
            payouts=tournament.payouts,
            places=places,
            registration_order=registration_order,
            holders=holders,
        )

    first = computed(set())
    holders = {
        p
        for p, award in first.items()
        if award.tickets and tickets.holds_entry_or_ticket(user_id=entries[p].player_id, target=target)
    }
    awards = computed(holders) if holders else first
    won = {p: a.tickets for p, a in awards.items() if a.tickets}
    computation = {
        "why": "satellite",
        "pool": amount,
        "payouts": tournament.payouts,
        "target": target.chip_type,
        "face_value": target.face_value,
        "seats": prizes.seats_for(pool=amount, face_value=target.face_value, players=len(places)),
        "holders": sorted(holders),
        "awards": {
            p: {"tickets": a.tickets, "chips": a.chips} for p, a in awards.items() if a.tickets or a.chips
        },
    }
    legs = [(accounts.get_wallet(user=entries[p].player), a.chips) for p, a in awards.items() if a.chips]
    to_house = sum(won.values()) * target.face_value
    if to_house:
        legs.append((accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER), to_house))
    if amount:
        postings.post_transfer(
            kind=TransferKind.PAYOUT,
            legs=[(pool, -amount), *legs],
            idempotency_key=key,
            reason=f"prizes of tournament {tournament.pk}",
            tournament_id=tournament.pk,
            computation=computation,
            posted_by_system="tournaments.satellites",
        )
    tickets.issue(
        target=target,
        holders={entries[p].player_id: n for p, n in won.items()},
        key=f"{key}:tickets",
        reason=f"ticket prizes of tournament {tournament.pk}",
        computation=computation,
        tournament_id=tournament.pk,
    )
    winners = [entries[p].pk for p in won]
    if winners:
        TournamentEntry.objects.filter(pk__in=winners).update(tickets_won=1)
        for p in won:
            entries[p].tickets_won = 1
    return {p: a.value(target.face_value) for p, a in awards.items()}
