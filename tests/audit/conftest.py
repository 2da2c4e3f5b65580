"""The audit pages' tests use the live-play fixtures (funded players, tables, a dealt round); their browser
tests are in tests/browser/staff/."""

from tests.tournaments.conftest import (  # noqa: F401
    _no_throttle_state,
    admin_user,
    client_for,
    dealt,
    make_player,
    make_table,
    staff_user,
)
