"""Registration: usernames unique case-insensitively, in the service and in the database (issue 9)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from accounts import selectors, services
from tests.factories import ADULT_BIRTH
from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db

TAKEN = {"fields": {"username": ["This username is taken."]}}


def _register(username: str) -> Any:
    return APIClient().post(
        "/api/v1/auth/register/",
        {"username": username, "password": "a-long-secret-9", "date_of_birth": "1990-01-01"},
        format="json",
    )


def test_the_database_refuses_a_name_that_differs_only_in_case() -> None:
    make_user("Bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username="bOB", password="pw-for-tests-1")


@pytest.mark.parametrize("name", ["carol", "CAROL", "Carol"])
def test_a_sequential_duplicate_in_any_case_is_a_clean_400(name: str) -> None:
    assert _register("Carol").status_code == 201
    again = _register(name)
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "request.invalid"
    assert again.json()["error"]["details"] == TAKEN
    assert get_user_model().objects.filter(username__iexact="carol").count() == 1


def test_a_registration_that_loses_the_race_gets_the_same_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other registration commits between this one's check and its insert: the index refuses the
    insert, and the service answers as the check would have."""
    make_user("Dave")
    real = selectors.username_taken
    checks: list[bool] = []

    def checked_too_early(*, username: str) -> bool:
        # The first check ran before the other registration committed; later ones see it.
        checks.append(real(username=username))
        return checks[-1] if len(checks) > 1 else False

    monkeypatch.setattr(selectors, "username_taken", checked_too_early)
    with pytest.raises(ValidationError) as refused:
        services.register_user(username="dave", password="a-long-secret-9", date_of_birth=ADULT_BIRTH)
    assert refused.value.message_dict == {"username": ["This username is taken."]}
    assert checks == [True, True]  # the insert ran between the two checks, and the index refused it
    assert get_user_model().objects.filter(username__iexact="dave").count() == 1


def test_an_integrity_error_that_is_not_a_duplicate_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(**kwargs: Any) -> Any:
        raise IntegrityError("some other constraint")

    monkeypatch.setattr(get_user_model().objects, "create_user", broken)
    with pytest.raises(IntegrityError):
        services.register_user(username="erin", password="a-long-secret-9", date_of_birth=ADULT_BIRTH)
