"""Admin for tournaments: a form that validates exactly as the API (`setup.validate`, which asks the
engine about the preset's options), list filters and search, and start, pause, resume and cancel as actions
with a confirmation page, through the same services as the API. Entries are read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html

from admin_confirm.actions import confirmation
from ledger.errors import LedgerError
from tournaments.admin_fields import OptionsField
from tournaments.errors import PlayError
from tournaments.tournament import admin_actions, setup
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

# What an admin sets; the rest (status, stage, the pool) changes only through the services.
EDITABLE = (
    "name",
    "kind",
    "game",
    "options",
    "buy_in",
    "fee",
    "guarantee",
    "max_entrants",
    "min_entrants",
    "target_score",
    "rounds",
    "tiebreak_rounds",
    "multiplier",
    "payouts",
    # Multi-table only (a quick or single tournament leaves them empty).
    "seats",
    "starting_stack",
    "pcr_schedule",
    "rounds_per_level",
    "starts_at",
    "registration_opens_at",
    "late_registration_levels",
    "reentry",
)
# Left empty, the service's default applies.
DEFAULTED = ("fee", "guarantee", "min_entrants", "tiebreak_rounds", "multiplier", "payouts")


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    options = OptionsField(required=False)
    payouts = OptionsField(required=False, help_text="Percentages by place, e.g. [70, 30]; default [100].")
    seats = forms.IntegerField(required=False, help_text="Multi: seats per table (default 4).")
    pcr_schedule = OptionsField(required=False, help_text="Multi: the PCR of each level, e.g. [1, 2, 3, 5].")
    late_registration_levels = forms.IntegerField(
        required=False, help_text="Multi: late registration (and re-entry) until this level (default 0)."
    )

    class Meta:
        model = Tournament
        fields = EDITABLE

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if self.errors:
            return cleaned
        values = {name: cleaned.get(name) for name in EDITABLE}
        values["options"] = values["options"] or {}
        for name in DEFAULTED:
            if values[name] is None:
                del values[name]  # the service's default
        try:
            checked = setup.validate(**values)
        except PlayError as exc:
            field = exc.details.get("field")
            self.add_error(field if field in self.fields else None, exc.message)
            return cleaned
        cleaned.update(options=checked.options, payouts=checked.payouts, name=checked.name)
        self.checked_settings = {name: getattr(checked, name) for name in EDITABLE}
        return cleaned


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentEntry
    fields = ("player", "status", "registered_at", "total", "tiebreak_total", "place", "prize", "table")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # entries change only through registration and play


def _action(
    run: Callable[..., Any], *, name: str, title: str, consequence: str
) -> Callable[[Any, HttpRequest, QuerySet[Tournament]], TemplateResponse | None]:
    def act(modeladmin: Any, request: HttpRequest, queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        asking = confirmation(
            modeladmin, request, queryset, action=name, title=title, consequence=consequence
        )
        if asking is not None:
            return asking
        for tournament_id in queryset.order_by("id").values_list("id", flat=True):
            try:
                run(tournament_id=tournament_id)
            except (PlayError, LedgerError) as exc:
                modeladmin.message_user(request, f"Tournament {tournament_id}: {exc.message}", messages.ERROR)
            else:
                modeladmin.message_user(request, f"Tournament {tournament_id}: done.", messages.SUCCESS)
        return None

    act.__name__ = name
    return admin.action(description=title.rstrip("?"), permissions=["run"])(act)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentForm
    list_display = (
        "id",
        "name",
        "kind",
        "game",
        "status",
        "buy_in",
        "fee",
        "max_entrants",
        "starts_at",
        "created_at",
        "error",
    )
    list_filter = ("kind", "status", "game")
    search_fields = ("name", "entries__player__username")
    readonly_fields = (
        "status",
        "error",
        "start_failures",
        "stage",
        "tiebreaks_played",
        "pool_account",
        "started_at",
        "finished_at",
        "level",
        "round_for_round",
        "sync_round",
        "mint_account",
        "template",
        "audit",
    )
    inlines = [EntryInline]
    actions = [
        _action(
            admin_actions.start,
            name="start_selected",
            title="Start these tournaments now?",
            consequence="They start with the players registered (at least the minimum); nobody else can enter.",
        ),
        _action(
            admin_actions.pause,
            name="pause_selected",
            title="Pause these tournaments?",
            consequence="No new round is dealt until they are resumed; a round in play finishes.",
        ),
        _action(
            admin_actions.resume,
            name="resume_selected",
            title="Resume these tournaments?",
            consequence="The next round is dealt after the usual pause.",
        ),
        _action(
            lambda tournament_id: admin_actions.cancel(tournament_id=tournament_id),
            name="cancel_selected",
            title="Cancel these tournaments?",
            consequence=(
                "Before the start every buy-in and fee is refunded; while running the unpaid prize pool is split "
                "among the players still in (docs/tournaments.md). It cannot be undone."
            ),
        ),
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        editable = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        if obj is not None and (obj.status not in editable or obj.entries.exists()):
            return (*EDITABLE, *self.readonly_fields)  # entrants paid for what they saw
        return self.readonly_fields

    @admin.display(description="ledger audit")
    def audit(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        return format_html(
            '<a href="{}">transfers of this tournament</a>', reverse("audit:tournament", args=[obj.pk])
        )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        settings = getattr(form, "checked_settings", None)
        if settings is None:
            return  # nothing editable (read-only)
        if not change:
            created = setup.create_tournament(user=request.user, settings=settings)  # type: ignore[arg-type]
            obj.pk = created.pk
        else:
            try:
                setup.update_tournament(tournament_id=obj.pk, settings=settings)
            except PlayError as exc:
                self.message_user(request, f"Not saved: {exc.message}", messages.ERROR)
        obj.refresh_from_db()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return False

    def has_run_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)
