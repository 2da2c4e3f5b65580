"""A multi-table tournament's scheduled start that fails (`schedule.start_failed`): a transient fault
(the database or the broker away) is retried by the next beat runs, at most `RAMINO_TOURNAMENT_START_ATTEMPTS`
attempts; any other failure, or the last attempt, cancels the tournament with its reason, every buy-in and fee
refunded exactly once, and says so to staff and entrants (API, admin, audit page). The failure is injected in
the middle of the start (`multi_start.seat_tables`, after the status, the guarantee and the mint were written),
so the test also shows that the failed attempt left nothing behind."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import kombu.exceptions
import pytest
from django.db import OperationalError
from django.test import Client

from ledger.models import Account, AccountKind, Transfer, TransferKind
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved
from tests.tournaments.multi_table.setup.helpers import create_multi, pool_balance
from tournaments.errors import Conflict, PlayCode
from tournaments.live.models import Table
from tournaments.multi_table import schedule
from tournaments.multi_table import seating as multi_seating
from tournaments.multi_table import start as multi_start
from tournaments.tournament import registration
from tournaments.tournament.models import (
    EntryStatus,
    Tournament,
    TournamentEntry,
    TournamentEvent,
    TournamentStatus,
)

NOTHING = {"opened": 0, "started": 0, "cancelled": 0, "failed": 0}
FAILED = {**NOTHING, "failed": 1}
CANCELLED = {**NOTHING, "cancelled": 1}

pytestmark = pytest.mark.django_db


def _balance(account: Account) -> int:
    return Account.objects.get(pk=account.pk).balance


def _break_the_start(monkeypatch: pytest.MonkeyPatch, *failures: Exception) -> list[int]:
    """The start raises each of `failures` in turn (then works), half-way through its work. Answers the list of
    the calls made (one per attempt)."""
    real = multi_seating.seat_tables  # what multi_start calls, by the name it imported
    calls: list[int] = []

    def seat_tables(**kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return real(**kwargs)

    monkeypatch.setattr(multi_start, "seat_tables", seat_tables)
    return calls


def _registered(
    admin_user: Any, make_player: Callable[..., Any], *, guarantee: int = 0
) -> tuple[Tournament, list[Any]]:
    tournament = create_multi(admin_user, min_entrants=2, buy_in=100, fee=10, guarantee=guarantee)
    users = [make_player(name, chips=1000) for name in ("ann", "bob", "cid")]
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    return tournament, users


def _assert_refunded_once(tournament: Tournament, users: list[Any], fees_before: int) -> None:
    assert [accounts.get_wallet(user=u).balance for u in users] == [1000, 1000, 1000]
    assert pool_balance(tournament) == 0
    assert _balance(accounts.get_house_account(kind=AccountKind.HOUSE_FEES)) == fees_before
    refunds = Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.REFUND)
    assert refunds.count() == 3
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.REFUNDED
    }
    # Nothing of the failed attempts stayed: no table, no mint, no guarantee.
    assert not Table.objects.filter(tournament=tournament).exists()
    assert Tournament.objects.get(pk=tournament.pk).mint_account_id is None
    assert not Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.GUARANTEE).exists()


def test_a_start_failing_for_good_cancels_at_once_with_its_reason_and_refunds_once(
    admin_user: Any,
    make_player: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fees_before = _balance(accounts.get_house_account(kind=AccountKind.HOUSE_FEES))
    tournament, users = _registered(admin_user, make_player, guarantee=1000)
    calls = _break_the_start(monkeypatch, ValueError("a bug in the seating"))
    assert tournament.starts_at is not None
    with caplog.at_level(logging.ERROR, logger=schedule.__name__):
        assert schedule.run_schedule(now=tournament.starts_at) == CANCELLED
    assert len(calls) == 1  # not retried: retrying cannot cure it
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED and tournament.finished_at is not None
    assert (
        tournament.error == "the start raised ValueError"
    )  # the type only: the message might quote anything
    assert tournament.start_failures == 1
    assert any(r.levelno == logging.ERROR and "cancelled" in r.getMessage() for r in caplog.records)
    _assert_refunded_once(tournament, users, fees_before)
    event = TournamentEvent.objects.get(tournament=tournament, kind="cancelled")
    refunds = Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.REFUND)
    assert event.data == {
        "reason": "start_failed",
        "error": "the start raised ValueError",
        "attempts": 1,
        "entrants": 3,
        "refunds": sorted(refunds.values_list("pk", flat=True)),
    }
    # The job again (the next beat, a redelivered message), the start now working: nothing more.
    assert schedule.run_schedule(now=tournament.starts_at) == NOTHING
    assert len(calls) == 1
    _assert_refunded_once(tournament, users, fees_before)
    with pytest.raises(Conflict) as refused:
        registration.register(user=make_player("dan"), tournament_id=tournament.pk)
    assert refused.value.code == PlayCode.TOURNAMENT_NOT_REGISTERING
    assert_reconciled()


def test_transient_failures_are_retried_up_to_the_bound_then_cancel_and_refund_once(
    admin_user: Any,
    make_player: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    client_for: Callable[[Any], Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.RAMINO_TOURNAMENT_START_ATTEMPTS = 3
    fees_before = _balance(accounts.get_house_account(kind=AccountKind.HOUSE_FEES))
    tournament, users = _registered(admin_user, make_player)
    blip = OperationalError("server closed the connection unexpectedly")
    calls = _break_the_start(monkeypatch, blip, kombu.exceptions.OperationalError("broker away"), blip, blip)
    assert tournament.starts_at is not None
    ann = client_for(users[0])
    reason = "the database or the message broker was unavailable (OperationalError)"

    with caplog.at_level(logging.WARNING, logger=schedule.__name__):
        assert schedule.run_schedule(now=tournament.starts_at) == FAILED
    # Left for the next run, with the failure counted and shown; the entrants' chips still in the pool.
    tournament.refresh_from_db()
    assert (tournament.status, tournament.start_failures, tournament.error) == ("registering", 1, reason)
    assert pool_balance(tournament) == 300
    warned = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warned and "attempt 1 of 3" in warned[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # a handled, retryable fault
    seen = ann.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert (seen["status"], seen["error"], seen["start_failures"]) == ("registering", reason, 1)
    assert [e.kind for e in TournamentEvent.objects.filter(tournament=tournament)] == ["start_failed"]

    assert schedule.run_schedule(now=tournament.starts_at) == FAILED
    assert Tournament.objects.get(pk=tournament.pk).start_failures == 2
    # The third attempt is the last: cancelled, every entry refunded.
    assert schedule.run_schedule(now=tournament.starts_at) == CANCELLED
    assert len(calls) == 3
    tournament.refresh_from_db()
    assert (tournament.status, tournament.start_failures, tournament.error) == ("cancelled", 3, reason)
    _assert_refunded_once(tournament, users, fees_before)
    event = TournamentEvent.objects.get(tournament=tournament, kind="cancelled")
    assert (event.data["reason"], event.data["attempts"], event.data["error"]) == ("start_failed", 3, reason)

    # Run twice more: nothing more (the fourth failure is never even reached).
    assert schedule.run_schedule(now=tournament.starts_at) == NOTHING
    assert schedule.run_schedule(now=tournament.starts_at) == NOTHING
    assert len(calls) == 3
    _assert_refunded_once(tournament, users, fees_before)

    # Entrants, anonymous readers and staff see why.
    for client in (ann, client_for(None)):
        seen = client.get(f"/api/v1/tournaments/{tournament.pk}/").json()
        assert (seen["status"], seen["error"]) == ("cancelled", reason)
    listed = client_for(None).get("/api/v1/tournaments/").json()["results"]
    assert next(t for t in listed if t["id"] == tournament.pk)["error"] == reason
    staff = Client()
    staff.force_login(admin_user)
    page = staff.get(f"/audit/tournaments/{tournament.pk}/").content.decode()
    assert 'data-role="tournament-error"' in page and reason in page and "refunded" in page
    admin_page = staff.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert reason in admin_page
    assert_reconciled()


def test_a_transient_failure_then_success_starts_and_clears_the_error(
    admin_user: Any,
    make_player: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    client_for: Callable[[Any], Any],
) -> None:
    tournament, users = _registered(admin_user, make_player)
    calls = _break_the_start(monkeypatch, OperationalError("could not serialize access"))
    assert tournament.starts_at is not None
    assert schedule.run_schedule(now=tournament.starts_at) == FAILED
    assert schedule.run_schedule(now=tournament.starts_at) == {**NOTHING, "started": 1}
    assert len(calls) == 2
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    assert (tournament.error, tournament.start_failures) == ("", 1)
    assert set(TournamentEntry.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        EntryStatus.PLAYING
    }
    assert chips_conserved(tournament) == 3 * 1500
    assert pool_balance(tournament) == 300  # the buy-ins stay in the pool for the prizes
    assert not Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.REFUND).exists()
    seen = client_for(users[0]).get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert (seen["status"], seen["error"]) == ("running", None)
    assert [e.kind for e in TournamentEvent.objects.filter(tournament=tournament)] == [
        "start_failed",
        "started",
    ]
    assert schedule.run_schedule(now=tournament.starts_at) == NOTHING
    assert_reconciled()


def test_a_failure_that_cannot_even_be_recorded_changes_nothing(
    admin_user: Any, make_player: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, _users = _registered(admin_user, make_player)
    _break_the_start(monkeypatch, OperationalError("the database is gone"))

    def still_gone(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("the database is still gone")

    # Writing the failure's count fails too (the database still away): the next run tries again.
    monkeypatch.setattr(Tournament, "save", still_gone)
    assert tournament.starts_at is not None
    assert schedule.run_schedule(now=tournament.starts_at) == FAILED
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.status, stored.start_failures, stored.error) == ("registering", 0, "")
    assert pool_balance(tournament) == 300
    assert_reconciled()
