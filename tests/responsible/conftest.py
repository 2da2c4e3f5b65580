"""The responsible-play tests use the tournaments' people and tables (tests/tournaments/conftest.py)."""

from __future__ import annotations

from tests.tournaments.conftest import admin_user, client_for, make_player, make_table, staff_user

__all__ = ["admin_user", "client_for", "make_player", "make_table", "staff_user"]
