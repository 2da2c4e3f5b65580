"""Breaks as the API reads and writes them (docs/api.md "Responsible play")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from responsible.breaks.models import Break, BreakKind

MAX_REASON = 500


class BreakRowSerializer(serializers.ModelSerializer[Break]):
    applied_by = serializers.SerializerMethodField(
        help_text="Staff who applied it; null when the player took it."
    )

    class Meta:
        model = Break
        fields = [
            "id",
            "kind",
            "days",
            "indefinite",
            "starts_at",
            "ends_at",
            "applied_by",
            "reason",
            "revocation_asked_at",
        ]
        read_only_fields = fields

    def get_applied_by(self, row: Break) -> str | None:
        return row.applied_by.get_username() if row.applied_by is not None else None


class StaffBreakRowSerializer(BreakRowSerializer):
    username = serializers.CharField(source="player.username", read_only=True)

    class Meta(BreakRowSerializer.Meta):
        fields = ["id", "username", *BreakRowSerializer.Meta.fields[1:], "enforced_at"]
        read_only_fields = fields


class BreakStateSerializer(serializers.Serializer[Any]):
    on_break = serializers.BooleanField()
    kind = serializers.ChoiceField(choices=BreakKind.choices, allow_null=True)
    until = serializers.DateTimeField(allow_null=True, help_text="Null while an indefinite exclusion stands.")
    indefinite = serializers.BooleanField()
    revocable_at = serializers.DateTimeField(
        allow_null=True,
        help_text="An indefinite exclusion in force: from when its revocation may be asked for.",
    )
    revocation_applies_at = serializers.DateTimeField(
        allow_null=True, help_text="A revocation asked for: when the exclusion ends."
    )
    breaks = BreakRowSerializer(many=True, help_text="Every break taken, newest first.")


class TakeBreakSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=BreakKind.choices)
    days = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=366,
        help_text="A cool-off: 1, 2, 7, 30 or 42 (24 h to 6 weeks); a self-exclusion: 30, 60 or 90. "
        "Another number: 400 `break.invalid`.",
    )
    indefinite = StrictBooleanField(
        required=False, default=False, help_text="A self-exclusion without an end (then no `days`)."
    )


class ApplyBreakSerializer(TakeBreakSerializer):
    username = StrictCharField(max_length=150)
    reason = StrictCharField(max_length=MAX_REASON)
