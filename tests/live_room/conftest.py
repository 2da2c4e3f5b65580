"""The live room's tests use live play's fixtures (funded players, API clients, tables)."""

from tests.tournaments.conftest import (  # noqa: F401  (fixtures, registered by import)
    _no_throttle_state,
    admin_user,
    client_for,
    make_player,
    make_table,
    staff_user,
)
