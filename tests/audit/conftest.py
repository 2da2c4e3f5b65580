"""The audit pages' tests use the live-play fixtures (funded players, tables, a dealt round) and, in
test_browser.py, the browser tests' headless Chromium."""

from tests.browser.conftest import browser, chromium  # noqa: F401
from tests.tournaments.conftest import (  # noqa: F401
    _no_throttle_state,
    admin_user,
    client_for,
    dealt,
    make_table,
    player,
    staff_user,
)
