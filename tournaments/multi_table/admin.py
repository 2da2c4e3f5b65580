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

from tournaments.admin_fields import PercentagesField, game_options_form, option_field_names
from tournaments.errors import PlayError
from tournaments.live import MAX_BUY_IN, MAX_MULTIPLIER, MIN_SEATS
from tournaments.multi_table import recurring as tournament_templates
from tournaments.tournament.admin_forms import HELP, LABELS, SERVICE_SENTENCES
from tournaments.tournament.models import MULTI_MAX_ENTRANTS, TournamentTemplate
from tournaments.tournament.payouts import PERCENT

TEMPLATE_EDITABLE = (
    "name",
    "crontab",
    "crontab_timezone",
    "registration_minutes",
    "active",
)


# A template's tournament settings, one field each (a multi-table tournament's, without name and times).
SETTINGS = (
    "game",
    "buy_in",
    "fee",
    "guarantee",
    "min_entrants",
    "max_entrants",
    "multiplier",
    "payouts",
    "seats",
    "starting_stack",
    "pcr_schedule",
    "rounds_per_level",
    "late_registration_levels",
    "reentry",
)
DEFAULTED = ("fee", "guarantee", "min_entrants", "multiplier", "payouts", "seats", "late_registration_levels")


class TournamentTemplateFormBase(forms.ModelForm):  # type: ignore[type-arg]
    """The template's schedule, and the settings of the tournaments it creates as fields (the game a select, each
    option a field, payouts and the PCR schedule comma-separated numbers), checked as a tournament's
    (`tournament_templates.check_template`) and stored as `tournament_settings`."""

    buy_in = forms.IntegerField(label=LABELS["buy_in"], min_value=0, max_value=MAX_BUY_IN)
    fee = forms.IntegerField(label=LABELS["fee"], required=False, min_value=0, max_value=MAX_BUY_IN)
    guarantee = forms.IntegerField(
        label=LABELS["guarantee"], required=False, min_value=0, max_value=MAX_BUY_IN
    )
    min_entrants = forms.IntegerField(
        label=LABELS["min_entrants"], required=False, min_value=2, help_text=HELP["min_entrants"]
    )
    max_entrants = forms.IntegerField(label=LABELS["max_entrants"], min_value=2, max_value=MULTI_MAX_ENTRANTS)
    multiplier = forms.IntegerField(
        label=LABELS["multiplier"], required=False, min_value=1, max_value=MAX_MULTIPLIER
    )
    payouts = PercentagesField(
        total=PERCENT, required=False, label=LABELS["payouts"], help_text=HELP["payouts"]
    )
    seats = forms.IntegerField(
        label=LABELS["seats"], required=False, min_value=MIN_SEATS, help_text=_("Blank: 4.")
    )
    starting_stack = forms.IntegerField(label=LABELS["starting_stack"], min_value=1, max_value=MAX_BUY_IN)
    pcr_schedule = PercentagesField(label=LABELS["pcr_schedule"], help_text=HELP["pcr_schedule"])
    rounds_per_level = forms.IntegerField(label=LABELS["rounds_per_level"], min_value=1)
    late_registration_levels = forms.IntegerField(
        label=LABELS["late_registration_levels"],
        required=False,
        min_value=0,
        help_text=HELP["late_registration_levels"],
    )
    reentry = forms.BooleanField(label=LABELS["reentry"], required=False)

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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance.tournament_settings if self.instance.pk is not None else {}
        for name in SETTINGS:
            if name in stored and name in self.fields:
                self.fields[name].initial = stored[name]

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        options = self.option_values(cleaned)  # type: ignore[attr-defined]
        if self.errors:
            return cleaned
        settings = {name: cleaned.get(name) for name in SETTINGS}
        settings["options"] = options
        for name in DEFAULTED:
            if settings[name] is None:
                del settings[name]  # the service's default
        try:
            cleaned["tournament_settings"] = tournament_templates.check_template(
                name=cleaned.get("name"),
                tournament_settings=settings,
                registration_minutes=cleaned.get("registration_minutes"),
            )
            tournament_templates.parse_crontab(cleaned.get("crontab"), cleaned.get("crontab_timezone"))
        except PlayError as exc:
            self.service_error(exc, SERVICE_SENTENCES)  # type: ignore[attr-defined]
        return cleaned


TournamentTemplateForm = game_options_form("TournamentTemplateForm", TournamentTemplateFormBase)


@admin.register(TournamentTemplate)
class TournamentTemplateAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentTemplateForm
    list_display = ("name", "crontab", "crontab_timezone", "registration_minutes", "active", "beat_task")
    list_filter = ("active",)
    search_fields = ("name",)
    readonly_fields = ("beat_task", "created_by", "created_at")

    class Media:
        js = ("admin/ramino/game-options.js",)

    def get_fieldsets(self, request: HttpRequest, obj: TournamentTemplate | None = None) -> Any:
        sets: list[Any] = [
            (None, {"fields": TEMPLATE_EDITABLE}),
            (_("Game"), {"fields": ("game",)}),
            (_("Game options (blank: the game's default)"), {"fields": option_field_names()}),
            (_("Chips and entrants"), {"fields": SETTINGS[1:8]}),
            (_("Multi-table tournament"), {"fields": SETTINGS[8:]}),
        ]
        return sets if obj is None else [*sets, (_("State"), {"fields": self.readonly_fields})]

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
