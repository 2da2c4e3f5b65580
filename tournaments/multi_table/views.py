"""The API of rebuys and the add-on (docs/api.md "Tournaments"; docs/rules.md "Rebuys and the add-on"): what the
caller may buy now, a rebuy, the add-on. Thin: the services in `rebuys` decide and refuse."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import raises
from tournaments.live import IDEMPOTENCY_HEADER, answer_once
from tournaments.multi_table import rebuys
from tournaments.tournament import selectors


class RebuyOptionsSerializer(serializers.Serializer[Any]):
    can_rebuy = serializers.BooleanField(help_text="a rebuy would be taken now")
    can_addon = serializers.BooleanField(help_text="the add-on would be taken now (the table's add-on break)")
    rebuys = serializers.IntegerField(help_text="rebuys since the entry's last (re-)entry")
    max_rebuys = serializers.IntegerField(help_text="0: no limit")
    addon = serializers.BooleanField(help_text="the add-on taken")
    chips = serializers.IntegerField(help_text="tournament chips at the seat")
    bounty = serializers.IntegerField(help_text="the bounty on the caller's head (site chips)")
    bounties_won = serializers.IntegerField()
    rebuy_price = serializers.IntegerField(help_text="rebuy_cost + rebuy_fee, site chips")
    rebuy_chips = serializers.IntegerField()
    addon_price = serializers.IntegerField(help_text="addon_cost + addon_fee, site chips")
    addon_chips = serializers.IntegerField()


def _answer(request: Request, tournament_id: int) -> Response:
    tournament = selectors.tournament_for(tournament_id=tournament_id)
    user = cast(User, request.user)
    return Response(RebuyOptionsSerializer(asdict(rebuys.options_for(tournament=tournament, user=user))).data)


class RebuyView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(404)
    @extend_schema(responses={200: RebuyOptionsSerializer})
    def get(self, request: Request, tournament_id: int) -> Response:
        """What the caller may buy now in a multi-table tournament: a rebuy, the add-on, and their prices."""
        return _answer(request, tournament_id)

    @raises(403, 404, 409)
    @extend_schema(request=None, responses={200: RebuyOptionsSerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request, tournament_id: int) -> Response:
        """Rebuy: pay rebuy_cost + rebuy_fee for rebuy_chips, between rounds of the caller's table in the
        rebuy period (409 with the rule's code otherwise)."""

        def rebuy() -> Response:
            rebuys.rebuy(tournament_id=tournament_id, user=cast(User, request.user))
            return _answer(request, tournament_id)

        return answer_once(request, body={}, respond=rebuy)


class AddonView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(403, 404, 409)
    @extend_schema(request=None, responses={200: RebuyOptionsSerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request, tournament_id: int) -> Response:
        """The add-on: pay addon_cost + addon_fee for addon_chips, once, during the caller's table's add-on
        break (409 with the rule's code otherwise)."""

        def addon() -> Response:
            rebuys.take_addon(tournament_id=tournament_id, user=cast(User, request.user))
            return _answer(request, tournament_id)

        return answer_once(request, body={}, respond=addon)
