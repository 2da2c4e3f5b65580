"""The integrity flags as the staff API shows them, and staff's decision on one."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import StrictCharField
from chat import selectors as chat_selectors
from integrity.models import Flag, FlagStatus

MAX_NOTE = 2000


class FlagSerializer(serializers.ModelSerializer[Flag]):
    players = serializers.ListField(child=serializers.CharField(), read_only=True)
    evidence = serializers.DictField(
        read_only=True, help_text="Ids of the rounds, transfers and tables, and the signal's numbers."
    )
    decided_by = serializers.SerializerMethodField()

    class Meta:
        model = Flag
        fields = [
            "id",
            "kind",
            "players",
            "score",
            "evidence",
            "status",
            "note",
            "decided_by",
            "decided_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_decided_by(self, flag: Flag) -> str | None:
        return flag.decided_by.get_username() if flag.decided_by else None


class ChatEvidenceSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    room = serializers.CharField()
    author = serializers.CharField()
    text = serializers.CharField()
    phrase = serializers.CharField(allow_null=True)
    at = serializers.DateTimeField()
    why = serializers.ListField(
        child=serializers.ChoiceField(choices=["pattern", "reported"]),
        help_text="`pattern`: the check of chat/transfer_talk.py; `reported`: reported as chip trading.",
    )


class FlagDetailSerializer(FlagSerializer):
    """A flag with its chat evidence: its players' messages that arrange chip transfers (docs/integrity.md)."""

    chat_evidence = serializers.SerializerMethodField()

    class Meta(FlagSerializer.Meta):
        fields = [*FlagSerializer.Meta.fields, "chat_evidence"]
        read_only_fields = fields

    @extend_schema_field(ChatEvidenceSerializer(many=True))
    def get_chat_evidence(self, flag: Flag) -> list[dict[str, Any]]:
        return chat_selectors.transfer_evidence(usernames=list(flag.players or []))


class FlagDecisionSerializer(serializers.Serializer[dict[str, Any]]):
    """Both optional (a PATCH): a field left out keeps its value; an empty body changes nothing."""

    status = serializers.ChoiceField(choices=FlagStatus.choices, required=False)
    note = StrictCharField(max_length=MAX_NOTE, allow_blank=True, required=False)
