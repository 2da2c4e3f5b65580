"""Practice tables as live play sees them, registered when the app is ready (`TournamentsConfig.ready`): their
policy and the change hook that sends the bots' moves."""

from __future__ import annotations

from tournaments.live import table_policy
from tournaments.practice.bots import send_bot_move
from tournaments.practice.policy import practice_policy


def register() -> None:
    table_policy.register(table_policy.PRACTICE_TABLES, practice_policy)
    table_policy.register_change_hook(table_policy.PRACTICE_TABLES, send_bot_move)
