"""Staff read the dates of birth and the verification record, and record a verification (docs/rules.md
"Responsible play"): nothing is changed nor deleted; a new record goes through the services, which write it to
the admin's log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from responsible.verification import services
from responsible.verification.models import DateOfBirth, DocumentType, Verification, VerificationStatus


class RecordVerificationForm(forms.ModelForm):  # type: ignore[type-arg]
    player = forms.ModelChoiceField(queryset=get_user_model().objects.all(), label=_("player"))
    status = forms.ChoiceField(choices=VerificationStatus.choices, label=_("status"))
    document_type = forms.ChoiceField(
        choices=[("", "—"), *DocumentType.choices],
        required=False,
        label=_("document type"),
        help_text=_("The kind of document checked; the document itself is never stored."),
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False, max_length=500, label=_("note")
    )

    class Meta:
        model = Verification
        fields = ["player", "status", "document_type", "note"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("status") == VerificationStatus.VERIFIED and not data.get("document_type"):
            raise ValidationError(_("Say which kind of document was checked."))
        if data.get("status") == VerificationStatus.WITHDRAWN and not data.get("note"):
            raise ValidationError(_("Say why the verification is withdrawn."))
        return data


class _ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Verification)
class VerificationAdmin(_ReadOnly):
    list_display = ("at", "player", "status", "document_type", "by")
    list_filter = ("status", "document_type")
    search_fields = ("player__username", "by__username")
    date_hierarchy = "at"
    form = RecordVerificationForm

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [f.name for f in Verification._meta.fields] if obj is not None else ()

    def save_model(self, request: HttpRequest, obj: Verification, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if data["status"] == VerificationStatus.VERIFIED:
            row = services.mark_verified(
                player=data["player"],
                by=request.user,  # type: ignore[arg-type]
                document_type=data["document_type"],
                note=data.get("note", ""),
            )
        else:
            row = services.withdraw_verification(player=data["player"], by=request.user, note=data["note"])  # type: ignore[arg-type]
        obj.pk = row.pk
        obj.refresh_from_db()

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        # The service wrote it already.
        return None


@admin.register(DateOfBirth)
class DateOfBirthAdmin(_ReadOnly):
    list_display = ("player", "date_of_birth", "recorded_at")
    search_fields = ("player__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
