"""API tokens in the admin: who holds how many, since and until when, and revocation. Never a token: knox
stores only digests, and its own admin's "add" page would hand an admin a working token for any player
(who could then read that player's hand mid-round), so tokens are not created here.

Users: Django's own user admin, whose add and change forms check a name as registration does (taken in another
case or form, reading the same as another player's, holding characters that show nothing), so that the
`UsernameKey` indexes never meet a name the form let through."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

from accounts import selectors, services, usernames

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


def _refuse_taken_or_look_alike(username: str, *, user_pk: Any) -> None:
    """The admin's own check of a name it saves, by registration's selectors: one taken in another case or form,
    or reading the same as another user's (`UsernameKey`'s unique indexes), is a form error on the field, never
    the indexes' IntegrityError (a 500 page)."""
    if selectors.username_taken(username=username, except_user_id=user_pk):
        raise forms.ValidationError(services.USERNAME_TAKEN, code="username_taken")
    if selectors.username_looks_taken(username=username, except_user_id=user_pk):
        raise forms.ValidationError(
            _("This name reads the same as another player's."), code="username_lookalike"
        )
    if usernames.invisible_characters(username):
        raise forms.ValidationError(
            _("The name holds characters that show nothing."), code="username_invisible"
        )


class PlayerCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        username = str(super().clean_username())
        _refuse_taken_or_look_alike(username, user_pk=None)
        return username


class PlayerChangeForm(UserChangeForm):  # type: ignore[type-arg]
    def clean_username(self) -> str:
        username = str(self.cleaned_data["username"])
        _refuse_taken_or_look_alike(username, user_pk=self.instance.pk)
        return username


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    """Django's own user admin, with the names checked as registration checks them (the key's indexes)."""

    add_form = PlayerCreationForm
    form = PlayerChangeForm
