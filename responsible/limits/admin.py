"""Staff read every player's limit changes in the Django admin; nothing is added, changed or deleted there (a
limit is the player's own: they change it through the API, and every change is kept)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from responsible.limits.models import LimitChange


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LimitChange)
class LimitChangeAdmin(ReadOnly):
    list_display = ("requested_at", "player", "limit", "value", "previous", "applies_at", "withdrawn_at")
    list_filter = ("limit",)
    search_fields = ("player__username",)
    raw_id_fields = ("player", "requested_by")
    date_hierarchy = "requested_at"
