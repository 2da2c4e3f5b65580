"""API tokens in the admin: who holds how many, since and until when, and revocation. Never a token: knox
stores only digests, and its own admin's "add" page would hand an admin a working token for any player
(who could then read that player's hand mid-round), so tokens are not created here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

admin.site.unregister(AuthToken)


def _dated(title: Any) -> type[admin.DateFieldListFilter]:
    """A date filter titled `title` (knox's fields have no names for people)."""

    class Dated(admin.DateFieldListFilter):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.title = title

    return Dated


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    # knox's fields have no names for people: the columns and the page use these (translated).
    list_display = ("holder", "created_at", "expires_at")
    list_filter = (("created", _dated(_("created at"))), ("expiry", _dated(_("expires at"))))
    search_fields = ("user__username",)
    ordering = ("-created",)
    fields = ("holder", "created_at", "expires_at")
    readonly_fields = ("holder", "created_at", "expires_at")
    list_select_related = ("user",)
    actions = ["delete_selected"]

    @admin.display(description=_("player"), ordering="user__username")
    def holder(self, obj: AuthToken) -> str:
        return str(obj.user.get_username())

    @admin.display(description=_("created at"), ordering="created")
    def created_at(self, obj: AuthToken) -> Any:
        return obj.created

    @admin.display(description=_("expires at"), ordering="expiry")
    def expires_at(self, obj: AuthToken) -> Any:
        return obj.expiry

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
