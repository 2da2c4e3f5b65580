"""The Django admin of tournaments: the form validates exactly as the API (and creates through the same
service), the actions ask for confirmation first and act through the services, for superusers only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.models import Account, AccountKind
from tests.ledger.utils import assert_reconciled
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/tournament/add/"
FORM = {
    "name": "Admin's sit-and-go",
    "kind": "single",
    "game": "rummy500",
    "options": "{}",
    "buy_in": "100",
    "fee": "10",
    "guarantee": "0",
    "max_entrants": "3",
    "min_entrants": "2",
    "target_score": "200",
    "rounds": "",
    "tiebreak_rounds": "5",
    "multiplier": "1",
    "payouts": "[70, 30]",
    "entries-TOTAL_FORMS": "0",
    "entries-INITIAL_FORMS": "0",
}


def browser_for(user: Any) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"payouts": "[60, 50]"}, "payouts"),
        ({"payouts": "not json"}, "payouts"),
        ({"max_entrants": "5"}, "max_entrants"),
        ({"option_turn_seconds": "soon"}, "option_turn_seconds"),
        ({"kind": "quick"}, "rounds"),
    ],
)
def test_the_form_refuses_what_the_api_refuses(
    admin_user: Any, change: dict[str, str], field: str | None
) -> None:
    response = browser_for(admin_user).post(ADD, {**FORM, **change})
    assert response.status_code == 200  # the form again, with its errors
    errors = response.context["adminform"].form.errors
    assert errors and (field is None or field in errors), errors
    assert not Tournament.objects.exists()


def test_the_form_creates_through_the_service(admin_user: Any) -> None:
    response = browser_for(admin_user).post(ADD, FORM)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    tournament = Tournament.objects.get()
    assert tournament.payouts == [70, 30] and tournament.status == TournamentStatus.REGISTERING
    assert tournament.pool_account is not None and tournament.pool_account.kind == AccountKind.PRIZE_POOL
    page = browser_for(admin_user).get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200 and f"/audit/tournaments/{tournament.pk}/" in page.content.decode()


def test_cancel_asks_first_then_refunds_and_only_for_superusers(make_player: Any, admin_user: Any) -> None:
    tournament = new_tournament(admin_user)
    ann = make_player("ann", chips=500)
    registration.register(user=ann, tournament_id=tournament.pk)
    url = "/admin/tournaments/tournament/"
    chosen = {"action": "cancel_selected", "_selected_action": [tournament.pk]}
    staff = browser_for(make_player("viewer", is_staff=True))
    staff.post(url, {**chosen, "confirmed": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    asking = browser_for(admin_user).post(url, chosen)
    assert asking.status_code == 200 and "cannot be undone" in asking.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    browser_for(admin_user).post(url, {**chosen, "confirmed": "yes"}, follow=True)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert Account.objects.get(kind=AccountKind.WALLET, user=ann).balance == 500
    assert_reconciled()
