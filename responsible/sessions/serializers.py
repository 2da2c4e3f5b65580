"""The session and reality check's API bodies (docs/api.md "Responsible play")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from responsible.sessions.models import RealityCheckAnswer


class SessionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    active = serializers.BooleanField(
        help_text="A seat is held now (else the last was left under 15 minutes ago)."
    )
    played_seconds = serializers.IntegerField()
    net_result = serializers.IntegerField(
        help_text="Chips back minus chips staked in the session, seats included."
    )
    reality_check_minutes = serializers.IntegerField()
    reality_check_due = serializers.BooleanField()
    reality_check_number = serializers.IntegerField(
        help_text="The check due now, else the last answered (0: none)."
    )
    next_check_at = serializers.DateTimeField()


class MySessionSerializer(serializers.Serializer[Any]):
    session = SessionSerializer(allow_null=True)


class RealityCheckAnswerSerializer(serializers.Serializer[Any]):
    answer = serializers.ChoiceField(choices=RealityCheckAnswer.choices)


class RealityCheckSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    answer = serializers.CharField()
    answered_at = serializers.DateTimeField()
    played_seconds = serializers.IntegerField()
    net_result = serializers.IntegerField()
    tables_left = serializers.ListField(child=serializers.IntegerField())
