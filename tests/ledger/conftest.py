from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.ledger.utils import make_user


@pytest.fixture
def player(db: None) -> Any:
    return make_user("ann")


@pytest.fixture
def staff(db: None) -> Any:
    return make_user("staffer", is_staff=True)


@pytest.fixture
def ledger_admin(db: None) -> Any:
    return make_user("boss", is_staff=True, is_superuser=True)


def _client(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


@pytest.fixture
def anon_client() -> APIClient:
    return _client(None)


@pytest.fixture
def player_client(player: Any) -> APIClient:
    return _client(player)


@pytest.fixture
def staff_client(staff: Any) -> APIClient:
    return _client(staff)


@pytest.fixture
def admin_client_api(ledger_admin: Any) -> APIClient:
    return _client(ledger_admin)
