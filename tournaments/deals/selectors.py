"""What the API and the audit read of final-table deals (docs/api.md "The final-table deal"): plain reads, no
lock (a preview may be a moment old: the proposal computes the offer again under the locks)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from api.errors import ServiceError
from tournaments.deals import icm
from tournaments.deals.models import Deal, DealStatus
from tournaments.deals.services import lock_final_table, unpaid_prizes
from tournaments.tournament.models import Tournament


@dataclass(frozen=True)
class DealView:
    """The caller's view of a tournament's deal: the latest offer, and (at the final table between rounds) both
    amounts a proposal would offer now; whether the caller may propose, else the code saying why not."""

    deal: Deal | None
    preview: dict[str, Any] | None
    can_propose: bool
    why_not: str | None


def deals(*, tournament: Tournament) -> QuerySet[Deal]:
    return Deal.objects.filter(tournament=tournament).select_related("proposer", "transfer").order_by("-id")


def _why_not(tournament: Tournament, user: User, players: list[str]) -> str | None:
    if user.get_username() not in players:
        return "deal.not_a_player"
    found = Deal.objects.filter(tournament=tournament)
    if found.filter(status=DealStatus.ACCEPTED).exists():
        return "deal.already_made"
    if found.filter(status=DealStatus.OPEN).exists():
        return "deal.pending"
    if found.filter(proposer_id=user.pk, level=tournament.level).exists():
        return "deal.already_proposed"
    return None


def deal_view(*, tournament: Tournament, user: User | AnonymousUser) -> DealView:
    latest = deals(tournament=tournament).first()
    try:
        final = lock_final_table(tournament, lock=False)
        prizes = unpaid_prizes(tournament, players_left=len(final.seats), lock=False)
    except ServiceError as refused:
        return DealView(deal=latest, preview=None, can_propose=False, why_not=str(refused.code))
    preview = None
    if sum(prizes) and len(final.seats) >= 2:
        offer = icm.offer(chips=final.chips, prizes=prizes, keep_percent=tournament.deal_keep)
        preview = {
            "unpaid": offer.unpaid,
            "keep": offer.keep,
            "chips": offer.chips,
            "icm": offer.icm,
            "chip_count": offer.by_chips,
        }
    if not user.is_authenticated:
        why_not: str | None = "auth.not_authenticated"
    else:
        why_not = _why_not(tournament, user, list(final.chips))
    if why_not is None and preview is None:
        why_not = "deal.nothing_to_share"
    return DealView(deal=latest, preview=preview, can_propose=why_not is None, why_not=why_not)
