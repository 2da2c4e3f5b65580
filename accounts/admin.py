"""API tokens in the admin: who holds how many, since and until when, and revocation. Never a token: knox
stores only digests, and its own admin's "add" page would hand an admin a working token for any player
(who could then read that player's hand mid-round), so tokens are not created here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from knox.models import AuthToken

admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "created", "expiry")
    list_filter = ("created", "expiry")
    search_fields = ("user__username",)
    ordering = ("-created",)
    fields = ("user", "created", "expiry")
    readonly_fields = ("user", "created", "expiry")
    list_select_related = ("user",)
    actions = ["delete_selected"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
