"""Age and verification as the API reads and writes them (docs/api.md "Responsible play")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import StrictCharField
from responsible.verification.models import DocumentType, Verification, VerificationStatus

MAX_NOTE = 500


class MyVerificationSerializer(serializers.Serializer[Any]):
    date_of_birth = serializers.DateField(allow_null=True, help_text="As given at registration.")
    verified = serializers.BooleanField()
    verified_at = serializers.DateTimeField(allow_null=True)
    document_type = serializers.ChoiceField(choices=DocumentType.choices, allow_null=True)
    verify_by = serializers.DateTimeField(
        allow_null=True,
        help_text="With RAMINO_VERIFY_DAYS set and the account not verified: the deadline, after which it plays "
        "practice tables only.",
    )
    practice_only = serializers.BooleanField(
        help_text="The deadline passed: only practice tables until verified."
    )


class VerificationRowSerializer(serializers.ModelSerializer[Verification]):
    username = serializers.CharField(source="player.username", read_only=True)
    by = serializers.CharField(source="by.username", read_only=True)
    document_type = serializers.SerializerMethodField(help_text="Null for a withdrawal.")

    class Meta:
        model = Verification
        fields = ["id", "username", "status", "document_type", "by", "at", "note"]
        read_only_fields = fields

    @extend_schema_field(serializers.ChoiceField(choices=DocumentType.choices, allow_null=True))
    def get_document_type(self, row: Verification) -> str | None:
        return row.document_type or None


class RecordVerificationSerializer(serializers.Serializer[Any]):
    username = StrictCharField(max_length=150)
    status = serializers.ChoiceField(choices=VerificationStatus.choices, default=VerificationStatus.VERIFIED)
    document_type = serializers.ChoiceField(
        choices=DocumentType.choices,
        required=False,
        help_text="The kind of document checked (required to verify); the document itself is never stored.",
    )
    note = StrictCharField(max_length=MAX_NOTE, required=False, allow_blank=True, default="")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["status"] == VerificationStatus.VERIFIED and not attrs.get("document_type"):
            raise serializers.ValidationError({"document_type": _("Say which kind of document was checked.")})
        if attrs["status"] == VerificationStatus.WITHDRAWN and not attrs.get("note"):
            raise serializers.ValidationError({"note": _("Say why the verification is withdrawn.")})
        return attrs
