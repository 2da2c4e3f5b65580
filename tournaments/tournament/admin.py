"""Admin for tournaments: a form that validates exactly as the API (`setup.validate`, which asks the
engine about the preset's options), list filters and search, and start, pause, resume and cancel as actions
with a confirmation page, through the same services as the API. Entries are read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from admin_confirm.actions import confirmation
from ledger.errors import LedgerError
from tournaments.admin_fields import GameFilter, option_field_names, options_text
from tournaments.errors import PlayError
from tournaments.games import GAME_NAMES
from tournaments.tickets import admin as ticket_admin
from tournaments.tournament import admin_actions, setup
from tournaments.tournament.admin_forms import (
    COMMON,
    EDITABLE,
    FORMS,
    KIND_FIELDS,
    SATELLITE_FIELDS,
    TournamentForm,
)
from tournaments.tournament.models import (
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)


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
    run: Callable[..., Any], *, name: str, title: Any, consequence: Any, description: Any
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
                modeladmin.message_user(
                    request,
                    _("Tournament %(id)s: %(reason)s") % {"id": tournament_id, "reason": exc.message},
                    messages.ERROR,
                )
            else:
                modeladmin.message_user(
                    request, _("Tournament %(id)s: done.") % {"id": tournament_id}, messages.SUCCESS
                )
        return None

    act.__name__ = name
    return admin.action(description=description, permissions=["run"])(act)


KIND_LABELS: dict[str, Any] = {
    TournamentKind.QUICK: _("Quick game"),
    TournamentKind.SINGLE: _("Sit-and-go (one table)"),
    TournamentKind.MULTI: _("Multi-table tournament"),
}
KIND_HINTS: dict[str, Any] = {
    TournamentKind.QUICK: _("Up to 4 players at one table play 1 to 3 rounds; the best total wins."),
    TournamentKind.SINGLE: _("Up to 4 players at one table play to a target score (a sit-and-go)."),
    TournamentKind.MULTI: _(
        "Many tables with a scheduled start, starting chips and a PCR rising by level; "
        "the last player with chips wins."
    ),
}


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentForm

    def get_urls(self) -> list[URLPattern]:
        # Granting tickets (admins): `tickets/admin.py`, the form the API's grant takes.
        grant = path(
            "grant-tickets/",
            self.admin_site.admin_view(lambda request: ticket_admin.grant_view(self, request)),
            name="tournaments_tournament_grant_tickets",
        )
        return [grant, *super().get_urls()]

    list_display = (
        "id",
        "name",
        "kind",
        "game_name",
        "status",
        "buy_in",
        "fee",
        "max_entrants",
        "starts_at",
        "created_at",
        "error",
    )
    list_filter = ("kind", "status", GameFilter)
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
            title=_("Start these tournaments now?"),
            description=_("Start the selected tournaments now"),
            consequence=_(
                "They start with the players registered (at least the minimum); nobody else can enter."
            ),
        ),
        _action(
            admin_actions.pause,
            name="pause_selected",
            title=_("Pause these tournaments?"),
            description=_("Pause the selected tournaments"),
            consequence=_("No new round is dealt until they are resumed; a round in play finishes."),
        ),
        _action(
            admin_actions.resume,
            name="resume_selected",
            title=_("Resume these tournaments?"),
            description=_("Resume the selected tournaments"),
            consequence=_("The next round is dealt after the usual pause."),
        ),
        _action(
            lambda tournament_id: admin_actions.cancel(tournament_id=tournament_id),
            name="cancel_selected",
            title=_("Cancel these tournaments?"),
            description=_("Cancel the selected tournaments"),
            consequence=_(
                "Before the start every buy-in and fee is refunded; while running the unpaid prize pool is split "
                "among the players still in (docs/tournaments.md). It cannot be undone."
            ),
        ),
    ]

    class Media:
        js = ("admin/ramino/game-options.js",)

    @staticmethod
    def _kind(request: HttpRequest, obj: Tournament | None) -> str | None:
        kind = obj.kind if obj is not None else request.GET.get("kind") or request.POST.get("kind")
        return kind if kind in FORMS else None

    @staticmethod
    def _editable(obj: Tournament | None) -> bool:
        editable = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        # entrants paid for what they saw
        return obj is None or (obj.status in editable and not obj.entries.exists())

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        if self._kind(request, None) is None:
            # One form per kind: the admin picks the kind first.
            context = {
                **self.admin_site.each_context(request),
                "title": _("Which kind of tournament?"),
                "opts": self.model._meta,
                "kinds": [(kind, KIND_LABELS[kind], KIND_HINTS[kind]) for kind in TournamentKind],
            }
            return TemplateResponse(request, "admin/ramino/choose_kind.html", context)
        return super().add_view(request, form_url, extra_context)

    def get_form(
        self, request: HttpRequest, obj: Tournament | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kind = self._kind(request, obj) or TournamentKind.QUICK
        return super().get_form(request, obj, change=change, form=FORMS[kind], **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        kind = self._kind(request, obj) or TournamentKind.QUICK
        state = (_("State"), {"fields": self.readonly_fields})
        if not self._editable(obj):
            fields = (*COMMON, "kind", "options_shown", *KIND_FIELDS[kind], *SATELLITE_FIELDS)
            return [(None, {"fields": fields}), state]
        sets: list[Any] = [
            (None, {"fields": ("name", "game")}),
            (_("Game options (blank: the game's default)"), {"fields": option_field_names()}),
            (_("Chips and entrants"), {"fields": COMMON[2:]}),
            (KIND_LABELS[TournamentKind(kind)], {"fields": KIND_FIELDS[kind]}),
            (_("Satellite and tickets"), {"fields": SATELLITE_FIELDS}),
        ]
        return sets if obj is None else [*sets, state]

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if not self._editable(obj):
            return (*EDITABLE, *SATELLITE_FIELDS, "options_shown", *self.readonly_fields)
        return self.readonly_fields

    @admin.display(description=_("game"), ordering="game")
    def game_name(self, obj: Tournament) -> Any:
        return GAME_NAMES.get(obj.game, obj.game)

    @admin.display(description=_("game options"))
    def options_shown(self, obj: Tournament) -> str:
        return options_text(obj.options)

    @admin.display(description=_("ledger audit"))
    def audit(self, obj: Tournament) -> str:
        if obj.pk is None:
            return "-"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("audit:tournament", args=[obj.pk]),
            _("transfers of this tournament"),
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
                self.message_user(
                    request, _("Not saved: %(reason)s") % {"reason": exc.message}, messages.ERROR
                )
        obj.refresh_from_db()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Tournament | None = None) -> bool:
        return False

    def has_run_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)
