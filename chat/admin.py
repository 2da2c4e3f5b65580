"""Chat in the admin (docs/operations.md "Chat moderation"): rooms (an admin turns chat off or on, staff set
slow and members-only mode: each change recorded), messages and reports (read only: append-only), time-outs
(given here through `services.time_out`, never changed) and the record of rooms' changes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from chat import services
from chat.models import TIME_OUT_SECONDS, Message, Report, Room, RoomModeChange, TimeOut


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "kind", "table", "tournament", "enabled", "slow_mode", "members_only")
    list_filter = ("kind", "enabled", "slow_mode", "members_only")
    raw_id_fields = ("table", "tournament")
    fields = ("kind", "table", "tournament", "enabled", "slow_mode", "members_only")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # A room's place never changes; only admins turn its chat off or on.
        fixed = ("kind", "table", "tournament") if obj is not None else ()
        return fixed if request.user.is_superuser else (*fixed, "enabled")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Room, form: Any, change: bool) -> None:
        modes = {f: getattr(obj, f) for f in ("slow_mode", "members_only", "enabled")}
        with transaction.atomic():
            if change:
                room = Room.objects.select_for_update().get(pk=obj.pk)
            else:
                # A new room starts with the defaults, so that its first modes are recorded as a change.
                room = Room.objects.create(kind=obj.kind, table=obj.table, tournament=obj.tournament)
            services.apply_modes(room=room, by=request.user, **modes)
            obj.pk = room.pk


@admin.register(Message)
class MessageAdmin(_ReadOnly):
    list_display = ("at", "room", "author", "text", "phrase", "transfer_talk")
    list_filter = ("transfer_talk", "room__kind")
    search_fields = ("author__username", "text")
    raw_id_fields = ("room", "author")
    date_hierarchy = "at"


@admin.register(Report)
class ReportAdmin(_ReadOnly):
    list_display = ("at", "message", "reporter", "reason", "note")
    list_filter = ("reason",)
    search_fields = ("reporter__username", "message__author__username", "message__text")
    raw_id_fields = ("message", "reporter")


class TimeOutForm(forms.ModelForm):  # type: ignore[type-arg]
    seconds = forms.TypedChoiceField(
        label=_("length"),
        coerce=int,
        choices=[(600, _("10 minutes")), (3600, _("1 hour")), (86400, _("24 hours"))],
    )

    class Meta:
        model = TimeOut
        fields = ("player", "reason", "scope", "room", "seconds", "note", "message")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("scope") == "room" and not data.get("room"):
            self.add_error("room", _("A time-out in a room names the room."))
        if data.get("scope") == "site" and data.get("room"):
            self.add_error("room", _("A site-wide time-out names no room."))
        if data.get("seconds") not in TIME_OUT_SECONDS:
            self.add_error("seconds", _("A time-out lasts 10 minutes, 1 hour or 24 hours."))
        return data


@admin.register(TimeOut)
class TimeOutAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TimeOutForm
    list_display = ("starts_at", "player", "reason", "scope", "room", "ends_at", "by")
    list_filter = ("reason", "scope")
    search_fields = ("player__username", "by__username")
    raw_id_fields = ("player", "room", "message")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: TimeOut, form: Any, change: bool) -> None:
        given = services.time_out(
            asked=services.TimeOutAsked(
                username=obj.player.get_username(),
                seconds=obj.seconds,
                reason=obj.reason,
                scope=obj.scope,
                room=obj.room.key if obj.room else None,
                note=obj.note,
                message_id=obj.message_id,
            ),
            by=request.user,
        )
        # The admin's log and redirect name the row given.
        obj.pk, obj.starts_at, obj.ends_at, obj.by = given.pk, given.starts_at, given.ends_at, given.by
        obj._state.adding = False


@admin.register(RoomModeChange)
class RoomModeChangeAdmin(_ReadOnly):
    list_display = ("at", "room", "enabled", "slow_mode", "members_only", "by")
    raw_id_fields = ("room", "by")
