"""The admin of responsible play: each concern folder registers its own models; Django finds them through this
module."""

from responsible.breaks import admin as breaks_admin
from responsible.limits import admin as limits_admin
from responsible.sessions import admin as sessions_admin
from responsible.verification import admin as verification_admin

__all__ = ["breaks_admin", "limits_admin", "sessions_admin", "verification_admin"]
