"""Shapes of the final-table deal's endpoints (docs/api.md "The final-table deal")."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.fields import StrictBooleanField
from tournaments.deals.models import DealMethod, DealStatus


class ProposeSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(
        choices=DealMethod.choices,
        help_text="the amounts offered: icm (chances of each place) or chips (chip count)",
    )


class AnswerSerializer(serializers.Serializer[Any]):
    accept = StrictBooleanField(help_text="true accepts the offer; false declines it (the offer ends)")


class AmountsSerializer(serializers.DictField):
    child = serializers.IntegerField()


# A `Deal`.
class DealSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField(source="tournament_id")
    proposer = serializers.CharField(source="proposer.username")
    level = serializers.IntegerField()
    method = serializers.ChoiceField(choices=DealMethod.choices)
    status = serializers.ChoiceField(
        choices=DealStatus.choices, help_text="open (waiting for answers), accepted, declined or expired"
    )
    players = serializers.ListField(
        child=serializers.CharField(),
        help_text="the players in the deal, in seat order from the dealer's left",
    )
    amounts = AmountsSerializer(help_text="the amount offered to each player (paid at once when all accept)")
    icm = AmountsSerializer(source="computation.icm", help_text="each player's ICM amount")
    chip_count = AmountsSerializer(
        source="computation.chip_count", help_text="each player's chip-count amount"
    )
    chips = AmountsSerializer(source="computation.stacks", help_text="each player's chips when proposed")
    keep = serializers.IntegerField(help_text="left to play for: the winner receives it")
    unpaid = serializers.IntegerField(help_text="the sum of the prizes not yet paid")
    answers = serializers.DictField(child=serializers.BooleanField(), help_text="the answers given so far")
    expires_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    transfer = serializers.IntegerField(
        source="transfer_id", allow_null=True, help_text="the payment, once paid"
    )


# A `Deal` with its whole computation (staff).
class DealAuditSerializer(DealSerializer):
    computation = serializers.DictField(
        help_text="chips, prizes, both amounts, each player's chance of each place"
    )


class DealAuditListSerializer(serializers.Serializer[Any]):
    deals = DealAuditSerializer(many=True, help_text="every deal of the tournament, newest first")


class DealPreviewSerializer(serializers.Serializer[Any]):
    unpaid = serializers.IntegerField()
    keep = serializers.IntegerField()
    chips = AmountsSerializer()
    icm = AmountsSerializer()
    chip_count = AmountsSerializer()


# A `selectors.DealView`.
class DealViewSerializer(serializers.Serializer[Any]):
    deal = DealSerializer(allow_null=True, help_text="the latest offer (open or closed), or null")
    preview = DealPreviewSerializer(
        allow_null=True,
        help_text="at the final table between rounds: both amounts a proposal would offer now",
    )
    can_propose = serializers.BooleanField()
    why_not = serializers.CharField(allow_null=True, help_text="the error code a proposal would answer now")
