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
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from admin_confirm.actions import confirmation
from tournaments.admin_fields import (
    ConstraintMessagesMixin,
    GameFilter,
    game_options_form,
    option_field_names,
    options_text,
)
from tournaments.errors import PlayError
from tournaments.games import GAME_NAMES
from tournaments.live.models import Game, Round, Seat, Table, TableStatus
from tournaments.live.storage import selectors
from tournaments.live.tables import services as tables
from tournaments.live.tables import settings as table_settings

HIDDEN = _("hidden while the round runs")
# What an admin may change of an open table; the rest changes only through the services.
TABLE_EDITABLE = ("game", "options", "seats", "pcr", "multiplier", "min_buy_in", "max_buy_in", "private")
TABLE_FIELDS = ("game", "seats", "pcr", "multiplier", "min_buy_in", "max_buy_in", "private")
TABLE_STATE = ("code", "status", "error", "created_by", "created_at")
LABELS = {
    "seats": _("Seats"),
    "pcr": _("PCR (chips per point)"),
    "multiplier": _("Multiplier"),
    "min_buy_in": _("Smallest buy-in"),
    "max_buy_in": _("Largest buy-in"),
    "private": _("Private (players join with a code)"),
}
# Every check constraint of `Table`, as a sentence on its field (admin_fields.ConstraintMessagesMixin).
TABLE_CONSTRAINTS = {
    "table_pcr_positive": (("pcr",), _("The PCR must be at least 1.")),
    "table_multiplier_positive": (("multiplier",), _("The multiplier must be at least 1.")),
    "table_seats_at_least_two": (("seats",), _("A table needs at least 2 seats.")),
    "table_min_buy_in_positive": (("min_buy_in",), _("The smallest buy-in must be at least 1 chip.")),
    "table_buy_in_range": (("max_buy_in",), _("The largest buy-in cannot be below the smallest.")),
    "table_private_has_code": (("private",), _("A private table needs its code (the admin gives it one).")),
    "table_error_has_reason": ((), _("A table in error needs the reason of its error.")),
    "table_practice_is_its_own_kind": (
        ("private",),
        _("A practice table is neither private nor a tournament's."),
    ),
}


class TableFormBase(ConstraintMessagesMixin, forms.ModelForm):  # type: ignore[type-arg]
    """The add and change forms check what the API checks (`table_settings.validate`), plus what a change must
    respect (`tables.check_update`); `TableAdmin.save_model` saves through `tables.create_table` or
    `tables.update_table`, so a private table gets its code there and a public one drops it."""

    CONSTRAINTS = TABLE_CONSTRAINTS
    seats = forms.IntegerField(label=LABELS["seats"], min_value=table_settings.MIN_SEATS)
    pcr = forms.IntegerField(label=LABELS["pcr"], min_value=1, max_value=table_settings.MAX_PCR)
    multiplier = forms.IntegerField(
        label=LABELS["multiplier"], min_value=1, max_value=table_settings.MAX_MULTIPLIER, initial=1
    )
    min_buy_in = forms.IntegerField(
        label=LABELS["min_buy_in"], min_value=1, max_value=table_settings.MAX_BUY_IN
    )
    max_buy_in = forms.IntegerField(
        label=LABELS["max_buy_in"], min_value=1, max_value=table_settings.MAX_BUY_IN
    )

    class Meta:
        model = Table
        fields = TABLE_FIELDS
        labels = LABELS

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        options = self.option_values(cleaned)  # type: ignore[attr-defined]
        cleaned["options"] = options
        if self.errors:
            return cleaned
        values = {name: cleaned.get(name) for name in TABLE_EDITABLE if name != "private"}
        try:
            checked = table_settings.validate(**values)
        except PlayError as exc:
            self.service_error(exc)  # type: ignore[attr-defined]
            return cleaned
        if self.instance.pk is not None:
            try:
                tables.check_update(table=self.instance, seats=checked.seats)
            except PlayError as exc:
                self.add_error("seats", exc.message)
        return cleaned


TableForm = game_options_form("TableForm", TableFormBase)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "id",
        "game_name",
        "seats",
        "pcr",
        "multiplier",
        "min_buy_in",
        "max_buy_in",
        "private",
        "status",
    )
    list_filter = (GameFilter, "private", "status")
    form = TableForm
    # The status changes only through the close action (which also cashes the players out) or a failed round
    # start (`error`, with its reason).
    readonly_fields = TABLE_STATE
    actions = ["close_selected"]

    class Media:
        js = ("admin/ramino/game-options.js",)

    def get_fieldsets(self, request: HttpRequest, obj: Table | None = None) -> Any:
        options = (_("Game options (blank: the game's default)"), {"fields": option_field_names()})
        if obj is None:
            return [(None, {"fields": TABLE_FIELDS}), options]
        if obj.status != TableStatus.OPEN:
            return [(None, {"fields": (*TABLE_FIELDS, "options_shown", *TABLE_STATE)})]
        return [(None, {"fields": TABLE_FIELDS}), options, (_("State"), {"fields": TABLE_STATE})]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        if obj is None:
            return ()
        if obj.status != TableStatus.OPEN:
            return (*TABLE_FIELDS, "options_shown", *TABLE_STATE)  # a closed or failed table is history
        return self.readonly_fields

    @admin.display(description=_("game"), ordering="game")
    def game_name(self, obj: Table) -> Any:
        return GAME_NAMES.get(obj.game, obj.game)

    @admin.display(description=_("game options"))
    def options_shown(self, obj: Table) -> str:
        return options_text(obj.options)

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
            self.message_user(request, _("Not saved: %(reason)s") % {"reason": exc.message}, messages.ERROR)
        obj.refresh_from_db()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False

    def has_close_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    @admin.action(
        description=_("Close the selected tables (players are cashed out now, or after the running round)"),
        permissions=["close"],
    )
    def close_selected(self, request: HttpRequest, queryset: QuerySet[Table]) -> TemplateResponse | None:
        asking = confirmation(
            self,
            request,
            queryset,
            action="close_selected",
            title=_("Close these tables?"),
            consequence=_(
                "Closing a table cashes its players out to their wallets (after the running round, if one runs) "
                "and deals no more rounds. It cannot be undone."
            ),
        )
        if asking is not None:
            return asking
        table_ids = list(queryset.order_by("id").values_list("id", flat=True))
        for table_id in table_ids:
            tables.close_table(table_id=table_id)
        self.message_user(
            request,
            ngettext("Closed %(count)s table.", "Closed %(count)s tables.", len(table_ids))
            % {"count": len(table_ids)},
            messages.SUCCESS,
        )
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

    @admin.display(description=_("chips"))
    def chips(self, obj: Seat) -> int:
        return obj.chips

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

    @admin.display(description=_("deck"))
    def revealed_deck(self, obj: Round) -> Any:
        return " ".join(obj.deck or []) if obj.ended_at is not None else HIDDEN

    @admin.display(description=_("salt"))
    def revealed_salt(self, obj: Round) -> Any:
        return obj.salt if obj.ended_at is not None else HIDDEN

    @admin.display(description=_("move log"))
    def move_log(self, obj: Round) -> Any:
        if obj.ended_at is None:
            return HIDDEN
        rows = selectors.finished_round_moves(round_=obj)
        return format_html("<pre>{}</pre>", "\n".join(json.dumps(row) for row in rows))
