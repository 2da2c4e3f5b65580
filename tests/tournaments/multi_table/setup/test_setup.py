"""Creating and changing multi-table tournaments (issue 12, docs/tournaments.md "Settings of a multi-table
tournament", docs/api.md "Tournaments"): the service's one check of the settings, the API and the admin form
on top of it. Every refusal is 400 `tournament.invalid` (or `tournament.invalid_payouts`) naming the field,
and creates nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ledger.models import AccountKind
from tests.tournaments.multi_table.setup.helpers import create_multi as new_multi
from tests.tournaments.multi_table.setup.helpers import multi_settings
from tournaments.errors import InvalidRequest, PlayCode
from tournaments.live.tables.settings import MAX_BUY_IN, MAX_PCR
from tournaments.tournament import setup
from tournaments.tournament.models import MULTI_MAX_ENTRANTS, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

LATER = timezone.now() + timedelta(days=1)

# (a change to valid multi settings, the field the refusal names)
REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"starting_stack": 0}, "starting_stack"),
    ({"starting_stack": MAX_BUY_IN + 1}, "starting_stack"),
    ({"starting_stack": None}, "starting_stack"),
    ({"starting_stack": "1500"}, "starting_stack"),
    ({"seats": 1}, "seats"),
    ({"seats": 5}, "seats"),  # rummy500 seats at most 4 (the engine says)
    ({"game": "basic", "seats": 7}, "seats"),  # basic at most 6
    ({"seats": True}, "seats"),
    ({"pcr_schedule": []}, "pcr_schedule"),
    ({"pcr_schedule": [1] * 51}, "pcr_schedule"),
    ({"pcr_schedule": [1, 0]}, "pcr_schedule"),
    ({"pcr_schedule": [1, MAX_PCR + 1]}, "pcr_schedule"),
    ({"pcr_schedule": [1, 2.5]}, "pcr_schedule"),
    ({"pcr_schedule": None}, "pcr_schedule"),
    ({"pcr_schedule": "1,2"}, "pcr_schedule"),
    ({"rounds_per_level": 0}, "rounds_per_level"),
    ({"rounds_per_level": 101}, "rounds_per_level"),
    ({"rounds_per_level": None}, "rounds_per_level"),
    ({"starts_at": None}, "starts_at"),
    ({"starts_at": "tomorrow"}, "starts_at"),
    ({"starts_at": LATER.replace(tzinfo=None)}, "starts_at"),  # naive
    ({"starts_in": timedelta(minutes=-1)}, "starts_at"),  # in the past
    ({"registration_opens_at": LATER + timedelta(days=1)}, "registration_opens_at"),  # after the start
    ({"registration_opens_at": LATER.replace(tzinfo=None)}, "registration_opens_at"),
    ({"max_entrants": 1}, "max_entrants"),
    ({"max_entrants": MULTI_MAX_ENTRANTS + 1}, "max_entrants"),
    ({"min_entrants": 1}, "min_entrants"),
    ({"min_entrants": 41}, "min_entrants"),  # above max_entrants
    ({"late_registration_levels": -1}, "late_registration_levels"),
    ({"late_registration_levels": 5}, "late_registration_levels"),  # beyond the 4 levels
    ({"reentry": "yes"}, "reentry"),
    ({"target_score": 100}, "target_score"),
    ({"rounds": 1}, "rounds"),
    ({"multiplier": 0}, "multiplier"),
    ({"buy_in": -1}, "buy_in"),
    ({"fee": -1}, "fee"),
    ({"guarantee": MAX_BUY_IN + 1}, "guarantee"),
    ({"payouts": [60, 50]}, "payouts"),
    ({"payouts": [30, 70]}, "payouts"),
    ({"max_entrants": 2, "min_entrants": 2, "payouts": [50, 30, 20]}, "payouts"),  # more places than entrants
]


@pytest.mark.parametrize(("change", "field"), REFUSED)
def test_the_service_refuses_each_bad_setting_naming_its_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        setup.validate(**multi_settings(**change))
    assert str(refused.value.code) in {PlayCode.TOURNAMENT_INVALID, PlayCode.TOURNAMENT_INVALID_PAYOUTS}
    assert refused.value.http_status == 400
    assert refused.value.details["field"] == field


def test_valid_multi_settings_and_their_defaults() -> None:
    settings = multi_settings()
    for name in ("seats", "late_registration_levels", "reentry", "registration_opens_at"):
        settings.pop(name, None)
    checked = setup.validate(**settings)
    assert checked.kind == "multi" and checked.seats == setup.DEFAULT_MULTI_SEATS
    assert checked.late_registration_levels == 0 and checked.reentry is False
    assert checked.target_score is None and checked.rounds is None
    assert checked.pcr_schedule == [1, 2, 3, 5] and checked.starting_stack == 1500
    # The bounds themselves pass.
    most = setup.validate(
        **multi_settings(
            game="basic",
            seats=6,
            pcr_schedule=[MAX_PCR] * 50,
            rounds_per_level=100,
            max_entrants=MULTI_MAX_ENTRANTS,
            min_entrants=MULTI_MAX_ENTRANTS,
            late_registration_levels=50,
            reentry=True,
            payouts=[1] * 100,
            registration_opens_at=LATER,
            starts_at=LATER,
        )
    )
    assert most.max_entrants == MULTI_MAX_ENTRANTS and most.late_registration_levels == 50
    assert most.registration_opens_at == most.starts_at  # opening at the start itself is allowed


@pytest.mark.parametrize(
    "multi_only",
    [
        {"starting_stack": 1500},
        {"pcr_schedule": [1, 2]},
        {"rounds_per_level": 2},
        {"starts_at": LATER},
        {"registration_opens_at": LATER},
        {"late_registration_levels": 1},
        {"reentry": True},
        {"seats": 4},  # a one-table tournament seats exactly max_entrants
    ],
)
def test_one_table_kinds_refuse_the_multi_only_settings(multi_only: dict[str, Any]) -> None:
    single: dict[str, Any] = {
        "name": "sit",
        "kind": "single",
        "game": "rummy500",
        "options": {},
        "buy_in": 10,
        "max_entrants": 3,
        "target_score": 100,
    }
    setup.validate(**single)  # fine without them
    with pytest.raises(InvalidRequest) as refused:
        setup.validate(**single, **multi_only)
    assert str(refused.value.code) == PlayCode.TOURNAMENT_INVALID
    assert refused.value.details["field"] == next(iter(multi_only))


def test_created_registering_or_scheduled_with_its_pool(admin_user: Any) -> None:
    now = timezone.now()
    open_now = new_multi(admin_user)
    assert open_now.status == TournamentStatus.REGISTERING
    assert open_now.pool_account is not None and open_now.pool_account.kind == AccountKind.PRIZE_POOL
    later = new_multi(admin_user, registration_opens_at=now + timedelta(minutes=10))
    assert later.status == TournamentStatus.SCHEDULED
    already = new_multi(admin_user, registration_opens_at=now - timedelta(minutes=10))
    assert already.status == TournamentStatus.REGISTERING
    stored = Tournament.objects.get(pk=later.pk)
    assert stored.pcr_schedule == [1, 2, 3, 5] and stored.rounds_per_level == 2
    assert stored.starting_stack == 1500 and stored.seats == 4 and stored.target_score is None


def test_update_revalidates_and_recomputes_the_status(admin_user: Any) -> None:
    tournament = new_multi(admin_user)
    opens = timezone.now() + timedelta(minutes=20)
    changed = setup.update_tournament(
        tournament_id=tournament.pk, settings=multi_settings(registration_opens_at=opens, seats=3)
    )
    assert changed.status == TournamentStatus.SCHEDULED and changed.seats == 3
    with pytest.raises(InvalidRequest):
        setup.update_tournament(
            tournament_id=tournament.pk, settings=multi_settings(starts_in=timedelta(seconds=-5))
        )
    tournament.refresh_from_db()
    assert tournament.seats == 3


def _body(**overrides: Any) -> dict[str, Any]:
    body = multi_settings(**overrides)
    for moment in ("starts_at", "registration_opens_at"):
        if body.get(moment) is not None and not isinstance(body[moment], str):
            body[moment] = body[moment].isoformat()
    return body


def test_the_api_creates_a_multi_table_tournament(admin_user: Any, client_for: Any) -> None:
    opens = timezone.now() + timedelta(minutes=5)
    answer = client_for(admin_user).post("/api/v1/tournaments/", _body(registration_opens_at=opens))
    assert answer.status_code == 201, answer.content
    shown = answer.json()
    assert shown["kind"] == "multi" and shown["status"] == "scheduled"
    assert shown["starting_stack"] == 1500 and shown["pcr_schedule"] == [1, 2, 3, 5]
    assert shown["rounds_per_level"] == 2 and shown["seats"] == 4 and shown["max_entrants"] == 40
    assert shown["registration_opens_at"] is not None and shown["starts_at"] is not None
    assert shown["late_registration_levels"] == 0 and shown["reentry"] is False


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"starting_stack": 0}, "starting_stack"),
        ({"seats": 9}, "seats"),
        ({"pcr_schedule": [0]}, "pcr_schedule"),
        ({"rounds_per_level": 0}, "rounds_per_level"),
        ({"starts_in": timedelta(hours=-1)}, "starts_at"),
        ({"max_entrants": 250_001}, "max_entrants"),
        ({"late_registration_levels": 9}, "late_registration_levels"),
        ({"target_score": 5}, "target_score"),
    ],
)
def test_the_api_refuses_bad_multi_settings_with_the_field(
    admin_user: Any, client_for: Any, change: dict[str, Any], field: str
) -> None:
    answer = client_for(admin_user).post("/api/v1/tournaments/", _body(**change))
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "tournament.invalid" and error["details"]["field"] == field
    assert not Tournament.objects.exists()


def test_the_api_refuses_multi_only_settings_for_a_sit_and_go(admin_user: Any, client_for: Any) -> None:
    single = {"name": "sng", "kind": "single", "game": "rummy500", "buy_in": 10, "max_entrants": 3}
    answer = client_for(admin_user).post(
        "/api/v1/tournaments/", {**single, "target_score": 50, "reentry": True}
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["details"]["field"] == "reentry"
    fine = client_for(admin_user).post("/api/v1/tournaments/", {**single, "target_score": 50})
    assert fine.status_code == 201 and fine.json()["seats"] == 3 and fine.json()["starts_at"] is None


ADD = "/admin/tournaments/tournament/add/"


def _admin_form(**overrides: str) -> dict[str, str]:
    starts = timezone.now() + timedelta(days=2)
    return {
        "name": "Admin's multi",
        "kind": "multi",
        "game": "rummy500",
        "options": "{}",
        "buy_in": "100",
        "fee": "10",
        "guarantee": "0",
        "max_entrants": "200",
        "min_entrants": "10",
        "target_score": "",
        "rounds": "",
        "tiebreak_rounds": "5",
        "multiplier": "1",
        "payouts": "[50, 30, 20]",
        "seats": "3",
        "starting_stack": "2000",
        "pcr_schedule": "[1, 2, 4]",
        "rounds_per_level": "3",
        "starts_at_0": starts.strftime("%Y-%m-%d"),
        "starts_at_1": starts.strftime("%H:%M:%S"),
        "registration_opens_at_0": "",
        "registration_opens_at_1": "",
        "late_registration_levels": "1",
        "reentry": "on",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        **overrides,
    }


def test_the_admin_form_creates_a_multi_table_tournament(admin_user: Any) -> None:
    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(ADD, _admin_form())
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    tournament = Tournament.objects.get()
    assert tournament.kind == "multi" and tournament.status == TournamentStatus.REGISTERING
    assert (tournament.seats, tournament.starting_stack, tournament.pcr_schedule) == (3, 2000, [1, 2, 4])
    assert tournament.late_registration_levels == 1 and tournament.reentry is True
    page = browser.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200 and "pcr_schedule" in page.content.decode()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pcr_schedule": "[]"}, "pcr_schedule"),
        ({"seats": "12"}, "seats"),
        ({"starting_stack": ""}, "starting_stack"),
        ({"late_registration_levels": "4"}, "late_registration_levels"),
        ({"starts_at_0": "2001-01-01", "starts_at_1": "10:00:00"}, "starts_at"),
    ],
)
def test_the_admin_form_refuses_what_the_service_refuses(
    admin_user: Any, change: dict[str, str], field: str
) -> None:
    browser = Client()
    browser.force_login(admin_user)
    response = browser.post(ADD, _admin_form(**change))
    assert response.status_code == 200
    assert field in response.context["adminform"].form.errors
    assert not Tournament.objects.exists()
