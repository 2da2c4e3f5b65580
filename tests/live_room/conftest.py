"""The live room's tests use live play's fixtures (funded players, API clients, tables)."""

from collections.abc import Iterator

import pytest

from live_room import flood, reads
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
    """The socket tier's reading threads end with each test, their connections closed (live_room/reads.py)."""
    yield
    reads.close()


@pytest.fixture(autouse=True)
def _socket_counts_forgotten() -> Iterator[None]:
    """The in-memory counts of open sockets (live_room/flood.py) start and end each test empty."""
    flood.forget_counts()
    yield
    flood.forget_counts()
