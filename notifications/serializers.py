"""The notifications' API bodies (docs/api.md "Notifications")."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from notifications import kinds
from notifications.models import Channel, NotificationKind


class NotificationSerializer(serializers.Serializer[Any]):
    """A notification as the centre shows it (selectors.rendered): texts in the request's language."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=NotificationKind.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    link = serializers.CharField(help_text="Where it leads in the player client (a path with its #route).")
    data = serializers.DictField(  # type: ignore[assignment]  # a field named `data`, as the API names it
        help_text="Its ids and names: tournament_id, tournament, table, amount, ..."
    )
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


class UnreadSerializer(serializers.Serializer[Any]):
    unread = serializers.IntegerField(help_text="Notifications in the centre not yet marked read.")


class MarkReadSerializer(serializers.Serializer[Any]):
    ids = serializers.ListField(
        child=StrictIntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="The notifications to mark read; left out: every one.",
    )


class MarkedSerializer(serializers.Serializer[Any]):
    marked = serializers.IntegerField(help_text="How many were marked read now.")
    unread = serializers.IntegerField()


class ChannelSwitchesSerializer(serializers.Serializer[Any]):
    client = StrictBooleanField(required=False)
    email = StrictBooleanField(required=False)
    push = StrictBooleanField(required=False)


class SwitchesSerializer(serializers.Serializer[Any]):
    """Each kind's channels; on a change every field is optional (what is left out keeps its value)."""

    your_turn = ChannelSwitchesSerializer(required=False)
    tournament_soon = ChannelSwitchesSerializer(required=False)
    tournament_started = ChannelSwitchesSerializer(required=False)
    table_moved = ChannelSwitchesSerializer(required=False)
    prize_won = ChannelSwitchesSerializer(required=False)
    deal_proposed = ChannelSwitchesSerializer(required=False)


class PushInfoSerializer(serializers.Serializer[Any]):
    available = serializers.BooleanField(help_text="Whether the site pushes (its VAPID keys are set).")
    public_key = serializers.CharField(
        help_text="The VAPID public key (applicationServerKey), base64url; empty."
    )
    subscriptions = serializers.IntegerField(help_text="The caller's browsers subscribed.")


class NotificationSettingsSerializer(serializers.Serializer[Any]):
    language = serializers.ChoiceField(choices=settings.LANGUAGES)
    switches = SwitchesSerializer()
    email = serializers.BooleanField(help_text="Whether the account has an e-mail address to send to.")
    push = PushInfoSerializer()
    defaults = SwitchesSerializer(help_text="The switches a player who changed nothing has.")


class NotificationSettingsUpdateSerializer(serializers.Serializer[Any]):
    language = serializers.ChoiceField(choices=settings.LANGUAGES, required=False)
    switches = SwitchesSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = set(self.initial_data) - set(self.fields) if isinstance(self.initial_data, dict) else set()
        if unknown:
            raise serializers.ValidationError({sorted(unknown)[0]: [_("Unknown field.")]})
        switches = self.initial_data.get("switches") if isinstance(self.initial_data, dict) else None
        if isinstance(switches, dict):
            for kind, channels in switches.items():
                if kind not in kinds.KINDS:
                    raise serializers.ValidationError({"switches": [_("Unknown kind: %s.") % kind]})
                extra = set(channels) - set(Channel.values) if isinstance(channels, dict) else set()
                if extra:
                    raise serializers.ValidationError(
                        {"switches": [_("Unknown channel: %s.") % sorted(extra)[0]]}
                    )
        return attrs


class PushKeysSerializer(serializers.Serializer[Any]):
    p256dh = StrictCharField(max_length=200, help_text="The browser's public key, base64url.")
    auth = StrictCharField(max_length=100, help_text="The authentication secret, base64url.")


class PushSubscriptionSerializer(serializers.Serializer[Any]):
    """A browser's PushSubscription, as `subscription.toJSON()` gives it (`expirationTime` is ignored)."""

    endpoint = serializers.URLField(max_length=1000, help_text="The push service's address for this browser.")
    keys = PushKeysSerializer()

    def validate_endpoint(self, value: str) -> str:
        """Only the push services' own addresses (RAMINO_PUSH_SERVICES): the workers post to it, and an
        address of anyone's choosing would let a player make them post inside the site's network."""
        address = urlsplit(value)
        host = (address.hostname or "").lower()
        allowed = address.scheme == "https" or (
            address.scheme == "http" and bool(settings.RAMINO_PUSH_ALLOW_HTTP)
        )
        if not allowed or not any(host == s or host.endswith("." + s) for s in settings.RAMINO_PUSH_SERVICES):
            raise serializers.ValidationError(_("This is not the address of a known push service."))
        return value


class PushEndpointSerializer(serializers.Serializer[Any]):
    endpoint = serializers.URLField(max_length=1000)
