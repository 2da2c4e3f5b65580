"""Racing registrations on PostgreSQL: one account per name in any case, and every loser gets the clean 400 a
sequential duplicate gets (issue 9)."""

from __future__ import annotations

import itertools
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-secret-9"


def _register(username: str) -> tuple[int, Any]:
    # A 500 comes back as a response instead of an exception, so that the test counts it.
    response = APIClient(raise_request_exception=False).post(
        "/api/v1/auth/register/",
        {"username": username, "password": PASSWORD, "date_of_birth": "1990-01-01"},
        format="json",
    )
    return response.status_code, response.json()


def _race(usernames: list[str]) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(len(usernames))

    def one(username: str) -> tuple[int, Any]:
        try:
            barrier.wait(timeout=30)
            return _register(username)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(usernames)) as pool:
        return list(pool.map(one, usernames))


def _sequential_duplicate_answer(username: str) -> Any:
    status, body = _register(username)
    assert status == 400
    return body


def _assert_one_winner(results: list[tuple[int, Any]], folded: str) -> None:
    statuses = sorted(status for status, _ in results)
    assert statuses == [201] + [400] * (len(results) - 1), statuses
    assert get_user_model().objects.filter(username__iexact=folded).count() == 1
    winner = get_user_model().objects.get(username__iexact=folded)
    assert [body for status, body in results if status == 201] == [
        {"username": winner.username, "welcome_chips": 0}
    ]
    duplicate = _sequential_duplicate_answer(folded)
    assert duplicate["error"]["code"] == "request.invalid"
    assert duplicate["error"]["details"] == {"fields": {"username": ["This username is taken."]}}
    assert all(body == duplicate for status, body in results if status == 400)


def test_twenty_registrations_of_one_name_create_one_account() -> None:
    _assert_one_winner(_race(["racer"] * 20), "racer")


def test_twenty_registrations_of_case_variants_create_one_account() -> None:
    variants = ["".join(letters) for letters in itertools.product(*zip("alice", "ALICE", strict=True))][:20]
    assert len(set(variants)) == 20
    _assert_one_winner(_race(variants), "alice")
