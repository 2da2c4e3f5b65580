"""Chat's tests use live play's fixtures (funded players, API clients, tables) and close the socket tier's
reading threads after each test."""

from collections.abc import Iterator

import pytest

from live_room import reads
from tests.chat.fixtures import seated, veteran  # noqa: F401  (fixtures, registered by import)
from tests.tournaments.conftest import (  # noqa: F401  (fixtures, registered by import)
    _no_throttle_state,
    admin_user,
    client_for,
    make_player,
    make_table,
    staff_user,
)


@pytest.fixture(autouse=True)
def _socket_reads_closed() -> Iterator[None]:
    yield
    reads.close()
