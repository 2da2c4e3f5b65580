"""Staff read the fair-play record and lift a bar (docs/rules.md "Fair play"): the record is append-only, so the
admin changes and deletes nothing; lifting records who lifted it and when (`services.lift_bar`)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.fair_play import selectors, services
from tournaments.fair_play.models import Abandonment, BarLift


class _AppendOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Abandonment)
class AbandonmentAdmin(_AppendOnly):
    list_display = ("at", "player", "kind", "table", "tournament", "barred_until")
    list_filter = ("kind",)
    search_fields = ("player__username",)
    raw_id_fields = ("player", "table", "tournament")
    date_hierarchy = "at"
    actions = ["lift_bars"]

    @admin.display(description=_("barred until"))
    def barred_until(self, obj: Abandonment) -> Any:
        return selectors.standing_of(player_id=obj.player_id).until or "—"

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff and request.user.has_perm("tournaments.add_barlift"))

    @admin.action(description=_("Lift the bar of the selected abandonments' players"), permissions=["lift"])
    def lift_bars(self, request: HttpRequest, queryset: QuerySet[Abandonment]) -> None:
        player_ids = sorted(set(queryset.values_list("player_id", flat=True)))
        for player_id in player_ids:
            services.lift_bar(player_id=player_id, by=request.user)  # type: ignore[arg-type]
        self.message_user(
            request,
            ngettext(
                "Lifted the bar of %(count)s player.",
                "Lifted the bars of %(count)s players.",
                len(player_ids),
            )
            % {"count": len(player_ids)},
            messages.SUCCESS,
        )


@admin.register(BarLift)
class BarLiftAdmin(_AppendOnly):
    list_display = ("lifted_at", "player", "lifted_by")
    search_fields = ("player__username", "lifted_by__username")
    raw_id_fields = ("player", "lifted_by")
