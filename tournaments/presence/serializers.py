"""The schema of the "I'm back" summary (`GET /games/{id}/while-away/`)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.live import MoveField


class AwayMoveSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    at = serializers.DateTimeField()
    move = MoveField()
    card = serializers.CharField(required=False, help_text="The card the server drew for you from the stock.")
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The cards the server drew for you."
    )


class AwayRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    over = serializers.BooleanField(
        help_text="Whether the round is settled (then points and chips are given)."
    )
    points = serializers.IntegerField(allow_null=True, help_text="Your settlement score in the round.")
    chips = serializers.IntegerField(
        allow_null=True, help_text="Chips the round's settlement paid you (negative: what it cost you)."
    )
    moves = AwayMoveSerializer(many=True)


class WhileAwaySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    away_since = serializers.DateTimeField(allow_null=True, help_text="When your connection last dropped.")
    back_at = serializers.DateTimeField(allow_null=True, help_text="When it came back.")
    moves = serializers.IntegerField(help_text="How many moves the server played for you in between.")
    truncated = serializers.BooleanField(help_text="More moves than listed (the newest 500 are).")
    rounds = AwayRoundSerializer(many=True)
