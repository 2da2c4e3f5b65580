from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.clients import api_client
from tests.factories import StaffFactory


@pytest.fixture
def staff(db: None) -> Any:
    return StaffFactory.create(username="warden")


@pytest.fixture
def staff_client(staff: Any) -> APIClient:
    return api_client(staff)
