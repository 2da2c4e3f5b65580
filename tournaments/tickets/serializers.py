"""The tickets API's shapes (docs/api.md "Tickets and satellites")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.fields import StrictCharField, StrictIntegerField
from tournaments.tickets.services import MAX_GRANT


# A `selectors.HeldTicket`.
class HeldTicketSerializer(serializers.Serializer[Any]):
    chip_type = serializers.CharField(help_text="ticket:tournament:<id> or ticket:template:<id>")
    count = serializers.IntegerField(help_text="tickets held: each buys one entry")
    target_kind = serializers.ChoiceField(choices=["tournament", "template"])
    target_id = serializers.IntegerField()
    target_name = serializers.CharField()
    face_value = serializers.IntegerField(help_text="the target's buy-in plus fee, in chips")
    target_status = serializers.CharField(
        allow_null=True, help_text="the target tournament's status; null: a template"
    )


class HeldTicketsSerializer(serializers.Serializer[Any]):
    """A player's tickets: never more than one row per target they hold, so a list without pages."""

    tickets = HeldTicketSerializer(many=True)


class TicketGrantSerializer(serializers.Serializer[Any]):
    username = StrictCharField(max_length=150)
    tournament = StrictIntegerField(
        required=False, allow_null=True, default=None, help_text="the target tournament"
    )
    template = StrictIntegerField(
        required=False, allow_null=True, default=None, help_text="or the recurring tournament (its next one)"
    )
    count = StrictIntegerField(min_value=1, max_value=MAX_GRANT, required=False, default=1)
    reason = StrictCharField(max_length=500)

    def validate_username(self, value: str) -> Any:
        user = get_user_model().objects.filter(username=value).first()
        if user is None:
            raise serializers.ValidationError(_("No user has this username."))
        return user
