from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.clients import api_client
from tests.factories import AdminFactory, StaffFactory, UserFactory


@pytest.fixture
def player(db: None) -> Any:
    """ann, a player with no chips."""
    return UserFactory.create(username="ann")


@pytest.fixture
def staff(db: None) -> Any:
    return StaffFactory.create(username="staffer")


@pytest.fixture
def ledger_admin(db: None) -> Any:
    return AdminFactory.create(username="boss")


@pytest.fixture
def anon_client() -> APIClient:
    return api_client()


@pytest.fixture
def player_client(player: Any) -> APIClient:
    return api_client(player)


@pytest.fixture
def staff_client(staff: Any) -> APIClient:
    return api_client(staff)


@pytest.fixture
def admin_client_api(ledger_admin: Any) -> APIClient:
    return api_client(ledger_admin)
