"""HTTP API of practice tables (docs/api.md "Practice tables")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.fields import StrictIntegerField
from api.schema import raises
from tournaments.live import PresetField
from tournaments.practice import services
from tournaments.practice.bots import BOT_NAMES
from tournaments.practice.models import BotLevel
from tournaments.practice.throttling import PracticeAddressThrottle, PracticeThrottle


class PracticeInputSerializer(serializers.Serializer[Any]):
    game = PresetField(max_length=32, help_text="The preset to practise (`rummy500`, `board`, ...).")
    bots = StrictIntegerField(
        min_value=1, max_value=len(BOT_NAMES), help_text="How many bots (at most the preset's players - 1)."
    )
    level = serializers.ChoiceField(
        choices=BotLevel.choices,
        help_text="The bots' strength: easy (random legal moves), medium (greedy), hard (the stronger bot: "
        "greedy play that also reads the discard pile's history and feeds no opponent's melds).",
    )


class PracticeOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(help_text="The practice table (`GET /tables/{id}/`).")
    game = serializers.IntegerField(help_text="Its game (`GET /games/{id}/`, moves, events, rounds).")


class PracticeView(APIView):
    throttle_classes = [PracticeThrottle, PracticeAddressThrottle]

    @raises(409)
    @extend_schema(
        tags=["practice"],
        request=PracticeInputSerializer,
        responses={201: PracticeOutputSerializer},
        operation_id="v1_practice_create",
        description=(
            "A practice table: the caller against 1-3 server bots, the preset's rules and a ring table's clocks, "
            "no chips, no rating, never listed. Its first round is dealt in about a second; the caller's "
            "earlier practice table closes (its running round dropped): one practice table per player at a "
            "time, kept by the database; a start that loses a race with another start of the caller's is "
            "409 `practice.already_started` (`details.table`: the table that won). Leaving it "
            "(`POST /tables/{id}/leave/`) closes it; a round its player left or went absent from is dropped, "
            "not played out. Rate-limited per player and per address (`THROTTLE_PRACTICE`, "
            "`THROTTLE_PRACTICE_ADDRESS`: 429 `throttled`)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = PracticeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.start_practice(player=request.user, **data.validated_data)
        return Response(
            PracticeOutputSerializer({"table": table.pk, "game": table.live_game.pk}).data,
            status=status.HTTP_201_CREATED,
        )
