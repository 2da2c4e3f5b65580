"""Chat's request and answer bodies (docs/api.md "Chat")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from chat.models import MAX_TEXT, TIME_OUT_SECONDS, ReportReason, TimeOutScope


class PhraseSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    text = serializers.CharField(help_text="In the request's language.")


class MessageSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    room = serializers.CharField(help_text="`table:<id>`, `tournament:<id>` or `lobby`.")
    author = serializers.CharField()
    text = serializers.CharField(help_text="Plain text (a quick phrase: in the reader's language).")
    phrase = serializers.CharField(allow_null=True, help_text="The quick phrase's code, or null.")
    at = serializers.DateTimeField()


class RoomSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    slow_mode = serializers.BooleanField()
    members_only = serializers.BooleanField()
    can_write = serializers.BooleanField(
        help_text="Whether the caller may write here now (rate limits aside)."
    )


class RoomPageSerializer(serializers.Serializer[dict[str, Any]]):
    room = RoomSerializer()
    messages = MessageSerializer(many=True, help_text="Oldest first; a muted player's are left out.")
    next_before = serializers.IntegerField(
        allow_null=True, help_text="`before` for the older page, or null when there is none."
    )


class PostSerializer(serializers.Serializer[dict[str, Any]]):
    text = StrictCharField(
        required=False, max_length=1000, trim_whitespace=False, help_text="1 to 280 characters."
    )
    phrase = StrictCharField(
        required=False, max_length=32, help_text="A quick phrase's code instead of text."
    )


class ReportSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    note = StrictCharField(required=False, allow_blank=True, max_length=MAX_TEXT, default="")


class ReportAnswerSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    message = MessageSerializer()
    reporter = serializers.CharField()
    reason = serializers.CharField()
    note = serializers.CharField()
    at = serializers.DateTimeField()


class PlayerSerializer(serializers.Serializer[dict[str, Any]]):
    username = StrictCharField(max_length=150)


class MuteSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    block = serializers.BooleanField()
    at = serializers.DateTimeField()


class TimeOutRequestSerializer(serializers.Serializer[dict[str, Any]]):
    username = StrictCharField(max_length=150)
    seconds = serializers.ChoiceField(choices=[(s, str(s)) for s in TIME_OUT_SECONDS])
    reason = serializers.ChoiceField(choices=ReportReason.choices)
    scope = serializers.ChoiceField(choices=TimeOutScope.choices)
    room = StrictCharField(required=False, max_length=40, help_text="The room, for `scope` `room`.")
    note = StrictCharField(required=False, allow_blank=True, max_length=MAX_TEXT, default="")
    message = StrictIntegerField(required=False, min_value=1, help_text="The message that earned it, if any.")


class TimeOutSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    player = serializers.CharField()
    reason = serializers.CharField()
    scope = serializers.CharField()
    room = serializers.CharField(allow_null=True)
    seconds = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    note = serializers.CharField()
    message = serializers.IntegerField(allow_null=True)
    by = serializers.CharField()


class RoomModesSerializer(serializers.Serializer[dict[str, Any]]):
    slow_mode = StrictBooleanField(required=False)
    members_only = StrictBooleanField(required=False)
    enabled = StrictBooleanField(required=False, help_text="Admins only: chat on or off in this room.")


class PhraseListSerializer(serializers.Serializer[dict[str, Any]]):
    phrases = PhraseSerializer(many=True)


class ReportListSerializer(serializers.Serializer[dict[str, Any]]):
    reports = ReportAnswerSerializer(many=True, help_text="Newest first.")


class MuteListSerializer(serializers.Serializer[dict[str, Any]]):
    players = MuteSerializer(many=True, help_text="Newest first.")


class TimeOutListSerializer(serializers.Serializer[dict[str, Any]]):
    time_outs = TimeOutSerializer(many=True, help_text="Newest first.")
