"""Admin for recurring tournaments: a template's form checks its settings as a tournament's and its cron line
(`tournament_templates.check_template`, `parse_crontab`) and saves through `tournament_templates.save_template`,
which keeps its django-celery-beat periodic task in step (that task stays editable in the beat admin)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournaments.admin_fields import OptionsField
from tournaments.errors import PlayError
from tournaments.multi_table import recurring as tournament_templates
from tournaments.tournament.models import TournamentTemplate

TEMPLATE_EDITABLE = (
    "name",
    "tournament_settings",
    "crontab",
    "crontab_timezone",
    "registration_minutes",
    "active",
)


class TournamentTemplateForm(forms.ModelForm):  # type: ignore[type-arg]
    tournament_settings = OptionsField(
        label=_("Tournament settings"),
        help_text=_(
            "A multi-table tournament's settings as the API takes them, without name and times, e.g. "
            '{"game": "rummy500", "buy_in": 100, "max_entrants": 1000, "starting_stack": 1500, '
            '"pcr_schedule": [1, 2, 3], "rounds_per_level": 3}.'
        ),
    )

    class Meta:
        model = TournamentTemplate
        fields = TEMPLATE_EDITABLE
        labels = {
            "name": _("Name"),
            "crontab": _("When (cron line)"),
            "crontab_timezone": _("Time zone"),
            "registration_minutes": _("Registration minutes"),
            "active": _("Active"),
        }
        help_texts = {
            "crontab": _(
                'When a tournament is created: "minute hour day-of-month month day-of-week", e.g. '
                '"0 20 * * 5" (Fridays at 20:00).'
            ),
            "registration_minutes": _(
                "Registration opens when the template fires; the tournament starts this many minutes later."
            ),
        }

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            cleaned["tournament_settings"] = tournament_templates.check_template(
                name=cleaned.get("name"),
                tournament_settings=cleaned.get("tournament_settings"),
                registration_minutes=cleaned.get("registration_minutes"),
            )
            tournament_templates.parse_crontab(cleaned.get("crontab"), cleaned.get("crontab_timezone"))
        except PlayError as exc:
            field = exc.details.get("field")
            self.add_error(field if field in self.fields else "tournament_settings", exc.message)
        return cleaned


@admin.register(TournamentTemplate)
class TournamentTemplateAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentTemplateForm
    list_display = ("name", "crontab", "crontab_timezone", "registration_minutes", "active", "beat_task")
    list_filter = ("active",)
    search_fields = ("name",)
    readonly_fields = ("beat_task", "created_by", "created_at")

    @admin.display(description=_("periodic task"))
    def beat_task(self, obj: TournamentTemplate) -> str:
        if obj.periodic_task_id is None:
            return "-"
        url = reverse("admin:django_celery_beat_periodictask_change", args=[obj.periodic_task_id])
        return format_html('<a href="{}">{}</a>', url, obj.periodic_task)

    def save_model(self, request: HttpRequest, obj: TournamentTemplate, form: Any, change: bool) -> None:
        data = form.cleaned_data
        saved = tournament_templates.save_template(
            user=request.user,  # type: ignore[arg-type]
            name=data["name"],
            tournament_settings=data["tournament_settings"],
            crontab=data["crontab"],
            crontab_timezone=data["crontab_timezone"],
            registration_minutes=data["registration_minutes"],
            active=data["active"],
            template_id=obj.pk if change else None,
        )
        obj.pk = saved.pk
        obj.refresh_from_db()

    def delete_model(self, request: HttpRequest, obj: TournamentTemplate) -> None:
        tournament_templates.delete_template(template_id=obj.pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[TournamentTemplate]) -> None:
        for template_id in queryset.values_list("pk", flat=True):
            tournament_templates.delete_template(template_id=template_id)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)
