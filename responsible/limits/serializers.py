"""The limits' API bodies (docs/api.md "Responsible play")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import StrictCharField, StrictIntegerField
from responsible.limits.models import MAX_CHIPS, MAX_MINUTES, LimitChange, LimitName
from responsible.sessions.models import REALITY_CHECK_CHOICES


class LimitStateSerializer(serializers.Serializer[Any]):
    value = serializers.IntegerField(allow_null=True, help_text="In force now; null: no limit.")
    pending = serializers.IntegerField(
        allow_null=True,
        help_text="The value a raise or removal asked for will set (null with applies_at null: none).",
    )
    applies_at = serializers.DateTimeField(allow_null=True, help_text="When the pending change applies.")
    used = serializers.IntegerField(
        allow_null=True, help_text="Chips staked, net loss, or minutes seated in the period so far."
    )
    left = serializers.IntegerField(
        allow_null=True, help_text="What may still be staked or played in the period."
    )
    resets_at = serializers.DateTimeField(allow_null=True, help_text="When the period ends.")


class MyLimitsSerializer(serializers.Serializer[Any]):
    stakes_day = LimitStateSerializer()
    stakes_week = LimitStateSerializer()
    stakes_month = LimitStateSerializer()
    loss_day = LimitStateSerializer()
    loss_week = LimitStateSerializer()
    loss_month = LimitStateSerializer()
    minutes_day = LimitStateSerializer()
    reality_check_minutes = serializers.IntegerField()
    raise_days = serializers.IntegerField(help_text="Days before a raise or a removal applies.")
    time_zone = serializers.CharField(help_text="The time zone of the days, weeks and months.")


def _limit_field(name: str) -> StrictIntegerField:
    ceiling = MAX_MINUTES if name == LimitName.MINUTES_DAY else MAX_CHIPS
    return StrictIntegerField(min_value=1, max_value=ceiling, allow_null=True, required=False)


class LimitsUpdateSerializer(serializers.Serializer[Any]):
    """Any of the limits (null: none) and the reality check's interval; a field left out is not changed."""

    stakes_day = _limit_field(LimitName.STAKES_DAY)
    stakes_week = _limit_field(LimitName.STAKES_WEEK)
    stakes_month = _limit_field(LimitName.STAKES_MONTH)
    loss_day = _limit_field(LimitName.LOSS_DAY)
    loss_week = _limit_field(LimitName.LOSS_WEEK)
    loss_month = _limit_field(LimitName.LOSS_MONTH)
    minutes_day = _limit_field(LimitName.MINUTES_DAY)
    reality_check_minutes = serializers.ChoiceField(choices=list(REALITY_CHECK_CHOICES), required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = (
            sorted(set(self.initial_data) - set(self.fields)) if isinstance(self.initial_data, dict) else []
        )
        if unknown:
            raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return attrs


class WithdrawSerializer(serializers.Serializer[Any]):
    limit = serializers.ChoiceField(choices=LimitName.choices)


class LimitChangeSerializer(serializers.ModelSerializer[LimitChange]):
    username = serializers.CharField(source="player.username", read_only=True)
    requested_by = serializers.CharField(source="requested_by.username", read_only=True, allow_null=True)
    kind = serializers.SerializerMethodField(help_text="new, lower, raise, removal or same.")

    class Meta:
        model = LimitChange
        fields = [
            "id",
            "username",
            "limit",
            "value",
            "previous",
            "kind",
            "requested_at",
            "applies_at",
            "withdrawn_at",
            "requested_by",
        ]

    def get_kind(self, change: LimitChange) -> str:
        if change.previous is None:
            return "new" if change.value is not None else "same"
        if change.value is None:
            return "removal"
        return (
            "lower"
            if change.value < change.previous
            else "raise"
            if change.value > change.previous
            else "same"
        )


class StaffLimitsSerializer(serializers.Serializer[Any]):
    username = StrictCharField()
    limits = MyLimitsSerializer()
    history = LimitChangeSerializer(many=True)
