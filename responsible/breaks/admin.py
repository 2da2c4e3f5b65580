"""Staff read every break and apply one (docs/rules.md "Responsible play"): the record is never changed nor
deleted (a break is never shortened); an application goes through `services.apply_break`, which writes it to the
admin's log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from api.errors import ServiceError
from responsible.breaks import selectors, services
from responsible.breaks.models import Break, BreakKind


class ApplyBreakForm(forms.ModelForm):  # type: ignore[type-arg]
    player = forms.ModelChoiceField(queryset=get_user_model().objects.all(), label=_("player"))
    kind = forms.ChoiceField(choices=BreakKind.choices, label=_("kind"))
    days = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        label=_("days"),
        choices=[("", "—"), *((d, d) for d in sorted({1, 2, 7, 30, 42, 60, 90}))],
        help_text=_(
            "A cool-off: 1, 2, 7, 30 or 42 days; a self-exclusion: 30, 60 or 90 days, or indefinite."
        ),
    )
    indefinite = forms.BooleanField(required=False, label=_("indefinite"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=500, label=_("reason"))

    class Meta:
        model = Break
        fields = ["player", "kind", "days", "indefinite", "reason"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("player") is not None and data.get("kind"):
            try:
                services.refuse_invalid(
                    player_id=data["player"].pk,
                    kind=data["kind"],
                    days=data.get("days"),
                    indefinite=bool(data.get("indefinite")),
                )
            except ServiceError as refused:
                raise ValidationError(refused.localized_message()) from refused
        return data


@admin.register(Break)
class BreakAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("starts_at", "player", "kind", "days", "indefinite", "ends_at", "in_force", "applied_by")
    list_filter = ("kind", "indefinite")
    search_fields = ("player__username",)
    date_hierarchy = "starts_at"
    form = ApplyBreakForm
    raw_id_fields = ()

    @admin.display(boolean=True, description=_("in force"))
    def in_force(self, obj: Break) -> bool:
        return Break.objects.filter(selectors.active(), pk=obj.pk).exists()

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None:
            return [f.name for f in Break._meta.fields]
        return ()

    def save_model(self, request: HttpRequest, obj: Break, form: Any, change: bool) -> None:
        data = form.cleaned_data
        row = services.apply_break(
            player=data["player"],
            by=request.user,  # type: ignore[arg-type]
            kind=data["kind"],
            days=data.get("days"),
            indefinite=bool(data.get("indefinite")),
            reason=data["reason"],
        )
        obj.pk = row.pk
        obj.refresh_from_db()

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        # `services.apply_break` wrote it already, with the reason.
        return None
