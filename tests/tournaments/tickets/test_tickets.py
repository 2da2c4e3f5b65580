"""docs/rules.md "Tickets": tickets as a chip type of their own per target, through the ledger: an admin's grant
(reason, idempotency key), registration paying with one (the house pays the pool and the fee as a chip entry
would), unregistration returning it, conversion to the face value in chips when the target is cancelled or starts
without its holder, the tickets-only entry rule."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Account, AccountKind, Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.errors import Conflict, Forbidden, InvalidRequest
from tournaments.tickets import services as tickets
from tournaments.tickets import targets
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import EntryStatus, TournamentEntry, TournamentTemplate

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def site(user: Any) -> int:
    found = Account.objects.filter(kind=AccountKind.WALLET, user=user, chip_type="site").first()
    return found.balance if found else 0


def held(user: Any, chip_type: str) -> int:
    found = Account.objects.filter(kind=AccountKind.WALLET, user=user, chip_type=chip_type).first()
    return found.balance if found else 0


def pool(tournament: Any) -> int:
    return Account.objects.get(pk=tournament.pool_account_id).balance


def fees() -> int:
    found = Account.objects.filter(kind=AccountKind.HOUSE_FEES, chip_type="site").first()
    return found.balance if found else 0


def grant(user: Any, tournament: Any, admin: Any, key: str = "k1", count: int = 1) -> Transfer:
    return tickets.grant(
        user=user,
        tournament_id=tournament.pk,
        count=count,
        reason="prize of the spring promotion",
        idempotency_key=key,
        posted_by=admin,
    )


def test_an_admin_grants_tickets_with_a_reason_once_per_key(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann", chips=0)
    chip_type = targets.tournament_chip_type(tournament.pk)
    first = grant(ann, tournament, admin_user, count=2)
    again = grant(ann, tournament, admin_user, count=2)
    assert first.pk == again.pk and held(ann, chip_type) == 2
    assert first.kind == TransferKind.TICKET_ISSUE and first.chip_type == chip_type
    assert first.reason == "prize of the spring promotion" and first.posted_by_id == admin_user.pk
    assert first.computation["face_value"] == 110
    issuer = Account.objects.get(kind=AccountKind.HOUSE_CASHIER, chip_type=chip_type)
    assert issuer.balance == -2
    for bad in ({"count": 0}, {"reason": " "}, {"idempotency_key": ""}):
        with pytest.raises(InvalidRequest) as refused:
            tickets.grant(
                **{
                    "user": ann,
                    "tournament_id": tournament.pk,
                    "count": 1,
                    "reason": "r",
                    "idempotency_key": "k2",
                    "posted_by": admin_user,
                    **bad,
                }
            )
        assert refused.value.code == "ticket.invalid"
    assert_reconciled()


def test_registering_with_a_ticket_spends_it_and_the_house_pays_pool_and_fee(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann", chips=0)
    chip_type = targets.tournament_chip_type(tournament.pk)
    grant(ann, tournament, admin_user)
    fees_before = fees()
    entry = registration.register(user=ann, tournament_id=tournament.pk)
    assert entry.ticket == chip_type and held(ann, chip_type) == 0 and site(ann) == 0
    assert pool(tournament) == 100 and fees() == fees_before + 10
    buy_in = Transfer.objects.get(entry_id=entry.pk, kind=TransferKind.TOURNAMENT_BUY_IN)
    assert buy_in.computation["paid_with"] == chip_type
    assert Transfer.objects.filter(entry_id=entry.pk, kind=TransferKind.TICKET_SPEND).count() == 1
    # Unregistering gives the ticket back and the house its chips.
    registration.unregister(user=ann, tournament_id=tournament.pk)
    assert held(ann, chip_type) == 1 and pool(tournament) == 0 and fees() == fees_before and site(ann) == 0
    assert Transfer.objects.filter(entry_id=entry.pk, kind=TransferKind.TICKET_RETURN).count() == 1
    assert_reconciled()


def test_paying_with_chips_keeps_the_ticket_and_paying_with_a_ticket_needs_one(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user)
    ann, bob = make_player("ann", chips=1000), make_player("bob", chips=1000)
    grant(ann, tournament, admin_user)
    entry = registration.register(user=ann, tournament_id=tournament.pk, payment="chips")
    assert entry.ticket == "" and site(ann) == 890
    assert held(ann, targets.tournament_chip_type(tournament.pk)) == 1
    with pytest.raises(Conflict) as none:
        registration.register(user=bob, tournament_id=tournament.pk, payment="ticket")
    assert none.value.code == "tournament.no_ticket"
    with pytest.raises(InvalidRequest):
        registration.register(user=bob, tournament_id=tournament.pk, payment="gold")
    assert not TournamentEntry.objects.filter(player=bob).exists() and site(bob) == 1000
    assert_reconciled()


def test_a_tickets_only_tournament_refuses_a_chip_entry_naming_the_rule(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user, tickets_only=True)
    bob = make_player("bob", chips=1000)
    with pytest.raises(Forbidden) as refused:
        registration.register(user=bob, tournament_id=tournament.pk)
    assert refused.value.code == "tournament.entry_rule" and refused.value.details == {"rule": "tickets_only"}
    grant(bob, tournament, admin_user)
    assert registration.register(user=bob, tournament_id=tournament.pk).ticket
    assert site(bob) == 1000
    assert_reconciled()


def test_cancelling_the_target_returns_the_tickets_spent_and_converts_every_ticket_to_its_face_value(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_tournament(admin_user)
    ann, bob = make_player("ann", chips=0), make_player("bob", chips=0)
    grant(ann, tournament, admin_user, key="a")
    grant(bob, tournament, admin_user, key="b", count=2)
    registration.register(user=ann, tournament_id=tournament.pk)
    admin_actions.cancel(tournament_id=tournament.pk)
    chip_type = targets.tournament_chip_type(tournament.pk)
    assert held(ann, chip_type) == 0 and held(bob, chip_type) == 0
    assert site(ann) == 110 and site(bob) == 220
    assert pool(tournament) == 0
    conversion = Transfer.objects.filter(kind=TransferKind.TICKET_CONVERSION, chip_type="site").get()
    assert (
        conversion.computation["tickets"] == {"ann": 1, "bob": 2}
        and conversion.computation["face_value"] == 110
    )
    assert TournamentEntry.objects.get(player=ann).status == EntryStatus.REFUNDED
    assert_reconciled()


def test_a_target_starting_without_the_holder_converts_the_ticket(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user, kind="quick", max_entrants=2)
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid", chips=0)
    grant(cid, tournament, admin_user)
    grant(ann, tournament, admin_user, key="ann")
    registration.register(user=ann, tournament_id=tournament.pk)  # with her ticket
    registration.register(user=bob, tournament_id=tournament.pk)  # full: it starts
    chip_type = targets.tournament_chip_type(tournament.pk)
    assert held(cid, chip_type) == 0 and site(cid) == 110
    assert held(ann, chip_type) == 0 and site(ann) == 10_000
    assert_reconciled()


def test_tickets_to_a_recurring_template_enter_its_next_tournament(make_player: Any, admin_user: Any) -> None:
    template = TournamentTemplate.objects.create(
        name="nightly", tournament_settings={"buy_in": 100, "fee": 10}, created_by=admin_user
    )
    nxt = new_tournament(admin_user)
    nxt.template = template
    nxt.save(update_fields=["template"])
    face = targets.template_face_value(template)
    ann = make_player("ann", chips=0)
    tickets.grant(
        user=ann,
        template_id=template.pk,
        count=1,
        reason="loyalty",
        idempotency_key="t1",
        posted_by=admin_user,
    )
    chip_type = targets.template_chip_type(template.pk)
    assert held(ann, chip_type) == 1 and face > 0
    entry = registration.register(user=ann, tournament_id=nxt.pk)
    assert entry.ticket == chip_type and held(ann, chip_type) == 0
    assert_reconciled()


def test_a_ticket_pays_a_late_registration_and_a_spare_ticket_becomes_chips_at_the_end(
    make_player: Any, admin_user: Any
) -> None:
    from tests.tournaments.multi_table.helpers import seated

    tournament, _tables, _ = seated(
        admin_user, make_player, [[300, 300, 300]], late_registration_levels=1, tickets_only=True
    )
    late = make_player("late", chips=0)
    grant(late, tournament, admin_user, count=2)
    entry = registration.register(user=late, tournament_id=tournament.pk)
    chip_type = targets.tournament_chip_type(tournament.pk)
    assert entry.ticket == chip_type and held(late, chip_type) == 1 and site(late) == 0
    chips = make_player("chips", chips=1000)
    with pytest.raises(Forbidden):
        registration.register(user=chips, tournament_id=tournament.pk)
    # The end: the spare ticket becomes its face value in chips.
    admin_actions.cancel(tournament_id=tournament.pk)
    assert held(late, chip_type) == 0 and site(late) >= 110
    assert_reconciled()
