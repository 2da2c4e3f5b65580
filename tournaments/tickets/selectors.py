"""The tickets a player holds, for the wallet page and the API (docs/api.md "Tickets and satellites")."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser

from ledger.models import TICKET_PREFIX, Account, AccountKind
from tournaments.tickets import targets
from tournaments.tournament.models import Tournament


@dataclass(frozen=True)
class HeldTicket:
    chip_type: str
    count: int
    target_kind: str  # "tournament" | "template"
    target_id: int
    target_name: str
    face_value: int
    target_status: str | None  # a tournament's status; None for a template


def tickets_of(*, user: AbstractBaseUser) -> list[HeldTicket]:
    """Every ticket chip type the player holds at least one of, oldest account first."""
    held: list[HeldTicket] = []
    for account in Account.objects.filter(
        kind=AccountKind.WALLET, user_id=user.pk, chip_type__startswith=TICKET_PREFIX, balance__gte=1
    ).order_by("pk"):
        parsed = targets.parse(account.chip_type)
        target = targets.target_named(account.chip_type)
        if parsed is None or target is None:
            continue
        status = None
        if target.tournament_id is not None:
            status = (
                Tournament.objects.filter(pk=target.tournament_id).values_list("status", flat=True).first()
            )
        held.append(
            HeldTicket(
                chip_type=account.chip_type,
                count=account.balance,
                target_kind=parsed[0],
                target_id=parsed[1],
                target_name=target.name,
                face_value=target.face_value,
                target_status=status,
            )
        )
    return held
