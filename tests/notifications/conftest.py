"""The notifications' tests use live play's fixtures (funded players, API clients, tables), a real SMTP server
and a stand-in push service (servers.py)."""

from collections.abc import Iterator
from typing import Any

import pytest

from notifications import vapid
from tests.notifications.servers import Mailbox, PushService, push_service, smtp_server
from tests.tournaments.conftest import (  # noqa: F401  (fixtures, registered by import)
    _no_throttle_state,
    admin_user,
    client_for,
    dealt,
    make_player,
    make_table,
)


@pytest.fixture
def smtp(settings: Any) -> Iterator[Mailbox]:
    """A real SMTP server, and the site's mail sent to it (Django's SMTP backend, as `EMAIL_URL` sets it)."""
    with smtp_server() as (mailbox, port):
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = "127.0.0.1"
        settings.EMAIL_PORT = port
        settings.EMAIL_USE_TLS = False
        settings.EMAIL_HOST_USER = ""
        settings.EMAIL_HOST_PASSWORD = ""
        yield mailbox


@pytest.fixture
def vapid_keys(settings: Any) -> tuple[str, str]:
    private, public = vapid.generate()
    settings.RAMINO_VAPID_PRIVATE_KEY = private
    settings.RAMINO_VAPID_PUBLIC_KEY = public
    return private, public


@pytest.fixture
def pusher() -> Iterator[PushService]:
    with push_service() as service:
        yield service


@pytest.fixture(autouse=True)
def _socket_reads_closed() -> Iterator[None]:
    """The socket tier's reading threads end with each test, their connections closed (live_room/reads.py)."""
    from live_room import reads

    yield
    reads.close()
