"""Staff read play sessions and the answers to reality checks in the Django admin (read only)."""

from __future__ import annotations

from django.contrib import admin

from responsible.limits.admin import ReadOnly
from responsible.sessions.models import PlaySession, RealityCheck


class RealityCheckInline(admin.TabularInline):  # type: ignore[type-arg]
    model = RealityCheck
    extra = 0
    can_delete = False
    readonly_fields = ("number", "answered_at", "answer", "played_seconds", "net_result")

    def has_add_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(PlaySession)
class PlaySessionAdmin(ReadOnly):
    list_display = ("started_at", "player", "ended_at")
    search_fields = ("player__username",)
    raw_id_fields = ("player",)
    date_hierarchy = "started_at"
    inlines = [RealityCheckInline]
