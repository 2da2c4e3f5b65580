"""The house grant: welcome chips on registration and the daily top-up to a floor (docs/api.md "Ledger (staff)",
docs/operations.md "The house grant"). Off unless configured; each grant once by its key; every chip from
the house cashier through the ledger, which reconciles after each test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts import services as account_services
from ledger.errors import GrantAboveFloor, GrantAlreadyClaimed, GrantNotAvailable
from ledger.models import AccountKind, GrantPolicy, Transfer, TransferKind
from ledger.selectors import TopUpState, chips_held, top_up, wallet_balance
from ledger.services import grants, postings
from ledger.throttling import TopUpThrottle
from tests.clients import api_client
from tests.factories import ADULT_BIRTH, TableFactory
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tournaments.live.tables import services as tables

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
PASSWORD = "a-long-secret-9"


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


def _grants(user: Any) -> list[Transfer]:
    return list(
        Transfer.objects.filter(kind=TransferKind.GRANT, entries__account__user=user)
        .order_by("id")
        .distinct()
    )


# --- the policy --------------------------------------------------------------------------------------


def test_off_by_default_registration_gives_nothing_and_top_up_is_refused() -> None:
    assert not GrantPolicy.objects.exists()
    user = account_services.register_user(username="newbie", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert wallet_balance(user=user) == 0 and _grants(user) == []
    with pytest.raises(GrantNotAvailable):
        grants.claim_daily_top_up(user=user, now=NOON)
    assert top_up(user=user, balance=0, now=NOON).state == TopUpState.OFF
    assert not Transfer.objects.exists()


def test_a_disabled_policy_grants_nothing_whatever_its_amounts() -> None:
    grants.configure(enabled=False, welcome_chips=500, daily_floor=1_000)
    user = account_services.register_user(username="newbie", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert wallet_balance(user=user) == 0
    with pytest.raises(GrantNotAvailable):
        grants.claim_daily_top_up(user=user, now=NOON)
    assert not Transfer.objects.exists()


@pytest.mark.parametrize("field", ["welcome_chips", "daily_floor"])
def test_the_policy_refuses_negative_amounts_in_validation_and_in_the_database(field: str) -> None:
    with pytest.raises(ValidationError):
        grants.configure(enabled=True, **{field: -1})
    with pytest.raises(IntegrityError), transaction.atomic():
        GrantPolicy.objects.create(enabled=True, **{field: -1})
    assert not GrantPolicy.objects.exists()


def test_the_policy_is_one_row() -> None:
    grants.configure(enabled=True, welcome_chips=1)
    grants.configure(enabled=True, welcome_chips=2)
    assert list(GrantPolicy.objects.values_list("welcome_chips", flat=True)) == [2]
    with pytest.raises(IntegrityError), transaction.atomic():
        GrantPolicy.objects.create(id=2, enabled=True)


# --- welcome chips -----------------------------------------------------------------------------------


def test_welcome_chips_are_posted_once_from_the_cashier_on_registration() -> None:
    grants.configure(enabled=True, welcome_chips=1_500)
    user = account_services.register_user(username="newbie", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert wallet_balance(user=user) == 1_500
    (transfer,) = _grants(user)
    assert transfer.idempotency_key == f"grant:welcome:{user.pk}"
    assert transfer.computation == {"grant": "welcome", "chips": 1_500}
    legs = {entry.account.kind: entry.amount for entry in transfer.entries.select_related("account")}
    assert legs == {AccountKind.WALLET: 1_500, AccountKind.HOUSE_CASHIER: -1_500}
    # Posting it again (a retry) replays the first transfer: still one, still 1,500 chips.
    assert grants.post_welcome_grant(user=user) == transfer
    assert wallet_balance(user=user) == 1_500 and len(_grants(user)) == 1
    assert_reconciled()


def test_a_refused_registration_posts_no_welcome_chips() -> None:
    grants.configure(enabled=True, welcome_chips=1_500)
    account_services.register_user(username="Newbie", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    with pytest.raises(ValidationError):
        account_services.register_user(username="NEWBIE", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert Transfer.objects.count() == 1
    assert_reconciled()


def test_welcome_chips_roll_back_with_a_registration_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """The user and their chips commit together: a failure after the posting leaves neither."""
    grants.configure(enabled=True, welcome_chips=1_500)
    real = grants.post_welcome_grant

    def posted_then_failed(**kwargs: Any) -> Any:
        real(**kwargs)
        raise RuntimeError("the process died")

    monkeypatch.setattr(grants, "post_welcome_grant", posted_then_failed)
    with pytest.raises(RuntimeError):
        account_services.register_user(username="newbie", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert not Transfer.objects.exists()
    assert_reconciled()


# --- the daily top-up --------------------------------------------------------------------------------


def test_the_top_up_brings_the_wallet_to_the_floor_once_per_utc_day() -> None:
    grants.configure(enabled=True, daily_floor=1_000)
    user = make_user("ann")
    funded_wallet(user, 300)
    assert top_up(user=user, balance=300, now=NOON).state == TopUpState.AVAILABLE
    claimed = grants.claim_daily_top_up(user=user, now=NOON)
    assert claimed.balance == 1_000 and wallet_balance(user=user) == 1_000
    assert claimed.transfer.idempotency_key == f"grant:daily:{user.pk}:2026-12-03"
    assert claimed.transfer.kind == TransferKind.GRANT
    assert claimed.transfer.computation == {
        "grant": "daily",
        "day": "2026-12-03",
        "balance": 300,
        "at_tables": 0,
        "floor": 1_000,
    }
    state = top_up(user=user, balance=1_000, now=NOON)
    assert state.state == TopUpState.CLAIMED_TODAY and state.next_at == datetime(2026, 12, 4, tzinfo=UTC)

    # Spent down again the same day: still refused until the next UTC midnight, and nothing moves.
    _spend(user, 900)
    with pytest.raises(GrantAlreadyClaimed) as refused:
        grants.claim_daily_top_up(user=user, now=NOON + timedelta(hours=11, minutes=59))
    assert refused.value.details == {"transfer": claimed.transfer.pk, "next_at": "2026-12-04T00:00:00Z"}
    assert wallet_balance(user=user) == 100

    tomorrow = grants.claim_daily_top_up(user=user, now=datetime(2026, 12, 4, 0, 0, tzinfo=UTC))
    assert tomorrow.balance == 1_000 and tomorrow.transfer.idempotency_key.endswith(":2026-12-04")
    assert len(_grants(user)) == 2
    assert_reconciled()


def test_a_wallet_at_or_above_the_floor_is_refused_and_nothing_moves() -> None:
    grants.configure(enabled=True, daily_floor=1_000)
    user = make_user("ann")
    funded_wallet(user, 1_000)
    with pytest.raises(GrantAboveFloor) as refused:
        grants.claim_daily_top_up(user=user, now=NOON)
    assert refused.value.details == {"balance": 1_000, "at_tables": 0, "floor": 1_000}
    assert top_up(user=user, balance=1_000, now=NOON).state == TopUpState.ABOVE_FLOOR
    assert _grants(user) == [] and wallet_balance(user=user) == 1_000
    assert_reconciled()


def test_chips_at_a_table_count_towards_the_floor() -> None:
    """Sitting down with 600 of 1,000 chips does not make a player poorer: with a floor of 500 the top-up is
    refused (before: 100 more, and the player left the table with 1,100), over HTTP as on the wallet's state."""
    grants.configure(enabled=True, daily_floor=500)
    user = make_user("ann")
    funded_wallet(user, 1_000)
    table = TableFactory.create(max_buy_in=2_000)
    tables.sit(user=user, table_id=table.pk, buy_in=600)
    assert wallet_balance(user=user) == 400 and chips_held(user=user) == 1_000
    client = api_client(user)
    assert client.get("/api/v1/wallet/").json()["top_up"]["state"] == TopUpState.ABOVE_FLOOR
    refused = client.post("/api/v1/wallet/top-up/")
    assert refused.status_code == 422, refused.content
    assert refused.json()["error"]["code"] == "grant.above_floor"
    assert refused.json()["error"]["details"] == {"balance": 1_000, "at_tables": 600, "floor": 500}
    tables.leave(user=user, table_id=table.pk)
    assert _grants(user) == [] and wallet_balance(user=user) == 1_000
    assert_reconciled()


def test_a_top_up_brings_wallet_and_stacks_together_to_the_floor() -> None:
    grants.configure(enabled=True, daily_floor=500)
    user = make_user("ann")
    funded_wallet(user, 400)
    table = TableFactory.create()
    tables.sit(user=user, table_id=table.pk, buy_in=300)
    claimed = grants.claim_daily_top_up(user=user, now=NOON)
    assert claimed.transfer.computation == {
        "grant": "daily",
        "day": "2026-12-03",
        "balance": 400,
        "at_tables": 300,
        "floor": 500,
    }
    assert claimed.balance == 200 and chips_held(user=user) == 500
    assert_reconciled()


def test_a_player_who_never_held_chips_gets_the_whole_floor() -> None:
    grants.configure(enabled=True, daily_floor=750)
    user = make_user("ann")
    assert grants.claim_daily_top_up(user=user, now=NOON).balance == 750
    assert_reconciled()


def test_a_retried_claim_posts_nothing_more() -> None:
    """The same request retried (an answer lost on the way) finds today's transfer and moves nothing."""
    grants.configure(enabled=True, daily_floor=1_000)
    user = make_user("ann")
    first = grants.claim_daily_top_up(user=user, now=NOON)
    for _ in range(3):
        with pytest.raises(GrantAlreadyClaimed) as refused:
            grants.claim_daily_top_up(user=user, now=NOON + timedelta(seconds=1))
        assert refused.value.details["transfer"] == first.transfer.pk
    assert wallet_balance(user=user) == 1_000 and len(_grants(user)) == 1
    assert_reconciled()


def test_a_claim_racing_past_the_look_up_is_refused_by_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two claims that both passed the look-up (no row lock on SQLite): the key lets one post; the second,
    with another amount, is told it already had today's chips."""
    grants.configure(enabled=True, daily_floor=1_000)
    user = make_user("ann")
    first = grants.claim_daily_top_up(user=user, now=NOON)
    _spend(user, 400)
    real_filter = Transfer.objects.filter
    looked_up: list[str] = []

    def missing_today(*args: Any, **kwargs: Any) -> Any:
        # Only the claim's own look-up misses it; the ledger's replay look-up sees it.
        if kwargs.get("idempotency_key") == first.transfer.idempotency_key and not looked_up:
            looked_up.append(kwargs["idempotency_key"])
            return real_filter(pk=-1)
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Transfer.objects, "filter", missing_today)
    with pytest.raises(GrantAlreadyClaimed):
        grants.claim_daily_top_up(user=user, now=NOON)
    monkeypatch.undo()
    assert looked_up == [first.transfer.idempotency_key]
    assert wallet_balance(user=user) == 600 and len(_grants(user)) == 1
    assert_reconciled()


def _spend(user: Any, amount: int) -> None:
    """Chips leaving the wallet (an admin's debit), through the ledger."""
    postings.adjust_wallet(
        user=user, amount=-amount, reason="spent", idempotency_key=f"spend:{user.pk}:{amount}", posted_by=None
    )


# --- the API -----------------------------------------------------------------------------------------


def test_the_wallet_says_how_to_get_chips() -> None:
    user = make_user("ann")
    client = api_client(user)
    assert client.get("/api/v1/wallet/").json() == {
        "balance": 0,
        "currency": "chips",
        "top_up": {"state": "off", "available": False, "floor": None, "next_at": None},
    }
    grants.configure(enabled=True, daily_floor=1_000)
    assert client.get("/api/v1/wallet/").json()["top_up"] == {
        "state": "available",
        "available": True,
        "floor": 1_000,
        "next_at": None,
    }


def test_claiming_over_http_answers_the_transfer_and_the_new_balance() -> None:
    grants.configure(enabled=True, daily_floor=1_000)
    user = make_user("ann")
    funded_wallet(user, 250)
    client = api_client(user)
    answer = client.post("/api/v1/wallet/top-up/")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["balance"] == 1_000
    assert body["transfer"]["kind"] == "grant" and body["transfer"]["posted_by_system"] == "house grant"
    assert sorted(e["amount"] for e in body["transfer"]["entries"]) == [-750, 750]
    wallet = client.get("/api/v1/wallet/").json()
    assert wallet["balance"] == 1_000 and wallet["top_up"]["state"] == "claimed_today"
    assert wallet["top_up"]["next_at"].endswith("T00:00:00Z")

    again = client.post("/api/v1/wallet/top-up/")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "grant.already_claimed_today"
    assert again.json()["error"]["details"]["transfer"] == body["transfer"]["id"]
    # The transfer is audited like every other: staff find it by kind.
    staff = make_user("staffer", is_staff=True)
    listed = api_client(staff).get("/api/v1/ledger/transfers/", {"kind": "grant"}).json()["results"]
    assert [t["id"] for t in listed] == [body["transfer"]["id"]]
    assert_reconciled()


@pytest.mark.parametrize(
    ("policy", "funded", "status", "code"),
    [
        (None, 0, 409, "grant.not_available"),
        ({"enabled": True, "welcome_chips": 100}, 0, 409, "grant.not_available"),
        ({"enabled": True, "daily_floor": 500}, 500, 422, "grant.above_floor"),
    ],
)
def test_refusals_answer_a_stable_code_and_change_nothing(
    policy: dict[str, Any] | None, funded: int, status: int, code: str
) -> None:
    if policy is not None:
        grants.configure(**policy)
    user = make_user("ann")
    if funded:
        funded_wallet(user, funded)
    before = Transfer.objects.count()
    answer = api_client(user).post("/api/v1/wallet/top-up/")
    assert answer.status_code == status
    assert set(answer.json()["error"]) == {"code", "message", "details"}
    assert answer.json()["error"]["code"] == code
    assert Transfer.objects.count() == before and wallet_balance(user=user) == funded


def test_refusal_messages_are_in_the_players_language() -> None:
    user = make_user("ann")
    english = api_client(user).post("/api/v1/wallet/top-up/").json()["error"]["message"]
    italian = (
        api_client(user).post("/api/v1/wallet/top-up/", HTTP_ACCEPT_LANGUAGE="it").json()["error"]["message"]
    )
    assert english.startswith("This site gives no daily chips")
    assert italian.startswith("Questo sito non regala fiches")


def test_claims_are_throttled_per_player(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TopUpThrottle.THROTTLE_RATES, "top_up", "2/min")
    grants.configure(enabled=True, daily_floor=1_000)
    ann, bob = make_user("ann"), make_user("bob")
    client = api_client(ann)
    assert client.post("/api/v1/wallet/top-up/").status_code == 201
    assert client.post("/api/v1/wallet/top-up/").status_code == 409
    throttled = client.post("/api/v1/wallet/top-up/")
    assert throttled.status_code == 429
    assert throttled.json()["error"]["code"] == "throttled"
    assert throttled.json()["error"]["details"]["retry_after_seconds"] > 0
    assert "Retry-After" in throttled
    assert api_client(bob).post("/api/v1/wallet/top-up/").status_code == 201  # per player
    assert client.get("/api/v1/wallet/").status_code == 200  # reading is not throttled
    assert_reconciled()


def test_anonymous_callers_cannot_claim() -> None:
    grants.configure(enabled=True, daily_floor=1_000)
    assert api_client().post("/api/v1/wallet/top-up/").status_code == 401
    assert not Transfer.objects.exists()


def test_registration_answers_the_welcome_chips() -> None:
    client = api_client()
    assert client.post(
        "/api/v1/auth/register/", {"username": "first", "password": PASSWORD, "date_of_birth": "1990-01-01"}
    ).json() == {
        "username": "first",
        "welcome_chips": 0,
    }
    grants.configure(enabled=True, welcome_chips=2_000)
    answer = client.post(
        "/api/v1/auth/register/", {"username": "second", "password": PASSWORD, "date_of_birth": "1990-01-01"}
    )
    assert answer.status_code == 201 and answer.json()["welcome_chips"] == 2_000
    assert_reconciled()
