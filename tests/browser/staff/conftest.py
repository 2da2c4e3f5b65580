"""The staff and admin browser tests use the live-play fixtures (funded players, tables, a dealt round) and
the browser tests' Chromium (inherited from tests/browser/conftest.py: one session, one screenshot folder)."""

from tests.tournaments.conftest import (  # noqa: F401
    admin_user,
    client_for,
    dealt,
    make_player,
    make_table,
    staff_user,
)
