"""The table fixtures of tests/tournaments (funded players, ring tables, a dealt round), for the tests that play
to see the metrics move."""

from tests.tournaments.conftest import (  # noqa: F401
    _no_throttle_state,
    admin_user,
    client_for,
    dealt,
    make_player,
    make_table,
)
