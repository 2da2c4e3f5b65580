"""The app's admin, for Django's autodiscovery (which imports `<app>.admin`): each concern registers its own
models beside its code."""

from tournaments.fair_play import admin as fair_play_admin
from tournaments.live import admin as live_admin
from tournaments.multi_table import admin as multi_table_admin
from tournaments.tournament import admin as tournament_admin

__all__ = ["fair_play_admin", "live_admin", "multi_table_admin", "tournament_admin"]
