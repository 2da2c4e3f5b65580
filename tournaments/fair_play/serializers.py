"""The fair-play record as the API answers it (docs/api.md "Fair play")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class AbandonmentSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    kind = serializers.CharField()
    table = serializers.IntegerField(allow_null=True, source="table_id")
    tournament = serializers.IntegerField(allow_null=True, source="tournament_id")


class FairPlaySerializer(serializers.Serializer[Any]):
    barred_until = serializers.DateTimeField(allow_null=True, help_text="New seats are refused until then.")
    reason = serializers.CharField(allow_null=True, help_text="`abandonment` while barred.")
    streak = serializers.IntegerField(help_text="Abandonments in the current streak (72 h apart at most).")
    warned = serializers.BooleanField(
        help_text="The streak's first abandonment, in the last 24 h: a warning."
    )
    next_bar_seconds = serializers.IntegerField(
        help_text="The bar the next abandonment would earn (0: none)."
    )
    lifted_at = serializers.DateTimeField(allow_null=True, help_text="When staff last lifted a bar.")
    abandonments = AbandonmentSerializer(many=True, help_text="The record, newest first.")
