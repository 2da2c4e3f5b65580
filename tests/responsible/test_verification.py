"""Age and verification (docs/rules.md "Responsible play", "Age and verification"): a date of birth at
registration, under 18 refused in words and nothing created; staff mark an account verified (who, when, which
document type, never the document); with `RAMINO_VERIFY_DAYS` set an account not verified that many days after
registration plays practice tables only; guests never stake."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services as account_services
from ledger.models import Transfer
from responsible.verification import selectors
from responsible.verification.models import DateOfBirth, Verification
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled
from tournaments.live.messaging import dispatch
from tournaments.live.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: Any) -> None:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)


def _years_ago(years: int, *, days: int = 0) -> date:
    today = timezone.localdate()
    try:
        born = today.replace(year=today.year - years)
    except ValueError:  # 29 February
        born = today.replace(year=today.year - years, day=28)
    return born + timedelta(days=days)


def _register(name: str, born: Any, **headers: Any) -> Any:
    return APIClient().post(
        "/api/v1/auth/register/",
        {"username": name, "password": "a-long-secret-9", "date_of_birth": str(born)},
        format="json",
        **headers,
    )


def test_registration_stores_the_date_of_birth() -> None:
    born = _years_ago(18)
    answer = _register("ann", born)
    assert answer.status_code == 201, answer.content
    user = get_user_model().objects.get(username="ann")
    assert DateOfBirth.objects.get(player=user).date_of_birth == born


@pytest.mark.parametrize("language", ["en", "it"], ids=["en", "it"])
def test_under_18_is_refused_in_words_and_nothing_is_created(language: str) -> None:
    answer = _register("ann", _years_ago(18, days=1), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "player.underage"
    assert error["details"] == {"field": "date_of_birth", "minimum_age": 18}
    words = {"en": "18 or older", "it": "maggiorenne"}[language]
    assert words in error["message"], error["message"]
    assert not get_user_model().objects.exists() and not Transfer.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"date_of_birth": ""},
        {"date_of_birth": "12/05/1990"},
        {"date_of_birth": "1899-12-31"},
        {"date_of_birth": str(date.today() + timedelta(days=2))},
    ],
    ids=["missing", "empty", "not-iso", "before-1900", "future"],
)
def test_a_missing_or_impossible_date_of_birth_is_invalid(body: dict[str, str]) -> None:
    answer = APIClient().post(
        "/api/v1/auth/register/", {"username": "ann", "password": "a-long-secret-9", **body}, format="json"
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "request.invalid" and "date_of_birth" in error["details"]["fields"]
    assert not get_user_model().objects.exists()


def test_age_counts_whole_years() -> None:
    assert selectors.age_on(date(2008, 12, 7), date(2026, 12, 6)) == 17
    assert selectors.age_on(date(2008, 12, 6), date(2026, 12, 6)) == 18
    # Born on 29 February: 18 on 1 March of a common year.
    assert selectors.age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert selectors.age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18


def test_the_service_refuses_a_minor_too() -> None:
    from responsible.verification.errors import Underage

    with pytest.raises(Underage):
        account_services.register_user(
            username="kid", password="a-long-secret-9", date_of_birth=_years_ago(10)
        )
    assert not get_user_model().objects.exists()


def _age(user: Any, days: int) -> None:
    get_user_model().objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=days))
    user.refresh_from_db()


def test_with_the_setting_off_nobody_needs_verifying(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    ann = make_player("ann")
    _age(ann, 400)
    assert client_for(ann).post(f"/api/v1/tables/{make_table().pk}/sit/", {"buy_in": 300}).status_code == 200
    body = client_for(ann).get("/api/v1/me/verification/").json()
    assert body["verify_by"] is None and body["practice_only"] is False and body["verified"] is False


def test_an_account_not_verified_in_time_plays_practice_only_until_verified(
    settings: Any, admin_user: Any, staff_user: Any, make_table: Any, make_player: Any, client_for: Any
) -> None:
    settings.RAMINO_VERIFY_DAYS = 7
    ann, bob = make_player("ann"), make_player("bob")
    _age(ann, 8)
    _age(bob, 6)
    table = make_table()
    # Within the 7 days: plays.
    assert client_for(bob).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    seats, transfers = Seat.objects.count(), Transfer.objects.count()
    refused = client_for(ann).post(
        f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}, HTTP_ACCEPT_LANGUAGE="it"
    )
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "player.unverified" and error["details"]["verify_days"] == 7
    assert "verificato" in error["message"], error["message"]
    assert (Seat.objects.count(), Transfer.objects.count()) == (seats, transfers)
    body = client_for(ann).get("/api/v1/me/verification/").json()
    assert body["practice_only"] is True and body["verify_by"] is not None
    # Practice tables stay open.
    practice = client_for(ann).post(
        "/api/v1/practice/", {"game": "rummy500", "bots": 1, "level": "easy"}, format="json"
    )
    assert practice.status_code == 201, practice.content
    # A player cannot verify themselves.
    own = client_for(ann).post(
        "/api/v1/responsible/verifications/", {"username": "ann", "document_type": "passport"}, format="json"
    )
    assert own.status_code == 403 and not Verification.objects.exists()
    answer = client_for(staff_user).post(
        "/api/v1/responsible/verifications/",
        {"username": "ann", "document_type": "identity_card", "note": "checked at the desk"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    row = answer.json()
    assert row["username"] == "ann" and row["by"] == "auditor" and row["status"] == "verified"
    assert row["document_type"] == "identity_card"
    assert LogEntry.objects.filter(user=staff_user, object_id=str(row["id"])).exists()
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    mine = client_for(ann).get("/api/v1/me/verification/").json()
    assert (
        mine["verified"] is True
        and mine["document_type"] == "identity_card"
        and mine["practice_only"] is False
    )
    # Withdrawn (with a note): practice only again.
    missing_note = client_for(staff_user).post(
        "/api/v1/responsible/verifications/", {"username": "ann", "status": "withdrawn"}, format="json"
    )
    assert missing_note.status_code == 400
    withdrawn = client_for(staff_user).post(
        "/api/v1/responsible/verifications/",
        {"username": "ann", "status": "withdrawn", "note": "document expired"},
        format="json",
    )
    assert withdrawn.status_code == 201
    other = make_table()
    assert client_for(ann).post(f"/api/v1/tables/{other.pk}/sit/", {"buy_in": 300}).status_code == 403
    # The record keeps both, newest first; CSV for staff.
    listing = client_for(staff_user).get("/api/v1/responsible/verifications/?player=ann").json()
    assert [r["status"] for r in listing["results"]] == ["withdrawn", "verified"]
    csv = client_for(staff_user).get("/api/v1/responsible/verifications/?format=csv")
    assert csv.status_code == 200 and "identity_card" in csv.content.decode()
    assert_reconciled()


def test_a_verification_needs_the_document_type(staff_user: Any, make_player: Any, client_for: Any) -> None:
    make_player("ann")
    answer = client_for(staff_user).post(
        "/api/v1/responsible/verifications/", {"username": "ann"}, format="json"
    )
    assert answer.status_code == 400 and "document_type" in answer.json()["error"]["details"]["fields"]
    unknown = client_for(staff_user).post(
        "/api/v1/responsible/verifications/",
        {"username": "nobody", "document_type": "passport"},
        format="json",
    )
    assert unknown.status_code == 404
    assert not Verification.objects.exists()


def test_guests_never_stake(admin_user: Any, make_table: Any) -> None:
    from tests.factories import TournamentFactory

    client = api_client(account_services.create_guest())
    table = make_table()
    tournament = TournamentFactory.create(created_by=admin_user)
    assert (
        client.post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).json()["error"]["code"]
        == "table.guest"
    )
    registered = client.post(f"/api/v1/tournaments/{tournament.pk}/register/")
    assert registered.json()["error"]["code"] == "tournament.guest"
    assert not Seat.objects.filter(table=table).exists()


def test_the_admin_records_a_verification_and_changes_nothing(admin_user: Any, make_player: Any) -> None:
    ann = make_player("ann")
    client = Client()
    client.force_login(admin_user)
    assert client.get("/admin/responsible/verification/add/").status_code == 200
    answer = client.post(
        "/admin/responsible/verification/add/",
        {"player": ann.pk, "status": "verified", "document_type": "passport", "note": ""},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    row = Verification.objects.get(player=ann)
    assert row.by == admin_user and row.document_type == "passport"
    assert LogEntry.objects.filter(object_id=str(row.pk)).count() == 1
    assert (
        client.post(f"/admin/responsible/verification/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert Verification.objects.filter(pk=row.pk).exists()
