"""Admin for tables and seats; games and rounds read-only, with a running round's secrets never shown.

The engine state (hands, stock), a running round's deck and salt, and per-player event parts are not
fields of any admin form: they are rendered only through methods that check the round is over.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html

from admin_confirm.actions import confirmation
from tournaments.admin_fields import OptionsField
from tournaments.errors import PlayError
from tournaments.live import selectors, table_settings, tables
from tournaments.live.models import Game, Round, Seat, Table, TableStatus

HIDDEN = "hidden while the round runs"
# What an admin may change of an open table; the rest changes only through the services.
TABLE_EDITABLE = ("game", "options", "seats", "pcr", "multiplier", "min_buy_in", "max_buy_in", "private")


class TableForm(forms.ModelForm):  # type: ignore[type-arg]
    """The add and change forms check what the API checks (`table_settings.validate`), plus what a change must
    respect (`tables.check_update`); `TableAdmin.save_model` saves through `tables.create_table` or
    `tables.update_table`, so a private table gets its code there and a public one drops it."""

    options = OptionsField(required=False)

    class Meta:
        model = Table
        fields = TABLE_EDITABLE

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if self.errors:
            return cleaned
        values = {name: cleaned.get(name) for name in TABLE_EDITABLE if name != "private"}
        if values["options"] is None:
            values["options"] = {}
            cleaned["options"] = {}
        try:
            checked = table_settings.validate(**values)
            if self.instance.pk is not None:
                tables.check_update(table=self.instance, seats=checked.seats)
        except PlayError as exc:
            field = exc.details.get("field")
            self.add_error(field if field in self.fields else None, exc.message)
        return cleaned


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "id",
        "game",
        "seats",
        "pcr",
        "multiplier",
        "min_buy_in",
        "max_buy_in",
        "private",
        "status",
    )
    list_filter = ("game", "private", "status")
    form = TableForm
    # The status changes only through the close action (which also cashes the players out) or a failed round
    # start (`error`, with its reason).
    readonly_fields = ("code", "status", "error", "created_by", "created_at")
    actions = ["close_selected"]
    fields = (*TABLE_EDITABLE, "code", "status", "error", "created_by", "created_at")

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        return TABLE_EDITABLE if obj is None else self.fields

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        if obj is None:
            return ()
        if obj.status != TableStatus.OPEN:
            return self.fields  # a closed or failed table is history
        return self.readonly_fields

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        settings = {name: form.cleaned_data[name] for name in TABLE_EDITABLE}
        if not change:
            # The form checked the settings; the service creates the table with its game (and its code).
            created = tables.create_table(user=request.user, **settings)  # type: ignore[arg-type]
            obj.pk = created.pk
            obj.refresh_from_db()
            return
        try:
            tables.update_table(table_id=obj.pk, **settings)
        except PlayError as exc:  # the table changed between the form's check and the save
            self.message_user(request, f"Not saved: {exc.message}", messages.ERROR)
        obj.refresh_from_db()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False

    def has_close_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(
        description="Close the selected tables (players are cashed out now, or after the running round)",
        permissions=["close"],
    )
    def close_selected(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        asking = confirmation(
            self,
            request,
            queryset,
            action="close_selected",
            title="Close these tables?",
            consequence=(
                "Closing a table cashes its players out to their wallets (after the running round, if one runs) "
                "and deals no more rounds. It cannot be undone."
            ),
        )
        if asking is not None:
            return asking
        table_ids = list(queryset.order_by("id").values_list("id", flat=True))
        for table_id in table_ids:
            tables.close_table(table_id=table_id)
        self.message_user(request, f"Closed {len(table_ids)} table(s).", messages.SUCCESS)
        return None


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "id",
        "table",
        "number",
        "player",
        "status",
        "chips",
        "timeouts_in_row",
        "timeouts_in_round",
    )
    list_filter = ("status",)
    search_fields = ("player__username",)
    readonly_fields = (
        "table",
        "player",
        "number",
        "stack_account",
        "chips",
        "status",
        "timeouts_in_row",
        "timeouts_in_round",
        "sat_at",
        "left_at",
    )
    fields = readonly_fields

    @admin.display(description="chips")
    def chips(self, obj: Seat) -> int:
        return obj.stack_account.balance

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # chips move only through the sit/leave services

    def has_change_permission(self, request: HttpRequest, obj: Seat | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Seat | None = None) -> bool:
        return False


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(_ReadOnly):
    list_display = ("id", "table", "status", "version", "turn_player", "turn_deadline")
    list_filter = ("status",)
    # `state` (hands and stock) is deliberately absent.
    fields = ("table", "status", "version", "dealer_seat", "turn_player", "turn_deadline", "claims_deadline")
    readonly_fields = fields


@admin.register(Round)
class RoundAdmin(_ReadOnly):
    list_display = ("id", "game", "number", "players", "settled", "started_at", "ended_at")
    list_filter = ("settled",)
    fields = (
        "game",
        "number",
        "players",
        "dealer",
        "deal_commitment",
        "stacks",
        "started_at",
        "ended_at",
        "settled",
        "scores",
        "transfers",
        "revealed_deck",
        "revealed_salt",
        "move_log",
    )
    readonly_fields = fields

    @admin.display(description="deck")
    def revealed_deck(self, obj: Round) -> str:
        return " ".join(obj.deck or []) if obj.ended_at is not None else HIDDEN

    @admin.display(description="salt")
    def revealed_salt(self, obj: Round) -> str:
        return obj.salt if obj.ended_at is not None else HIDDEN

    @admin.display(description="move log")
    def move_log(self, obj: Round) -> str:
        if obj.ended_at is None:
            return HIDDEN
        rows = selectors.finished_round_moves(round_=obj)
        return format_html("<pre>{}</pre>", "\n".join(json.dumps(row) for row in rows))
