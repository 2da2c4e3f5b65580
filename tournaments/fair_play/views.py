"""The player's own fair-play record and bar: GET /api/v1/me/fair-play/ (docs/api.md "Fair play")."""

from __future__ import annotations

from typing import Any, cast

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.fair_play import schedule, selectors
from tournaments.fair_play.serializers import FairPlaySerializer


def fair_play_body(*, player_id: int) -> dict[str, Any]:
    now = timezone.now()
    standing = selectors.standing_of(player_id=player_id, now=now)
    lift = selectors.last_lift(player_id=player_id)
    following = schedule.bar_for(standing.streak + 1)
    return {
        "barred_until": standing.until,
        "reason": "abandonment" if standing.until is not None else None,
        "streak": standing.streak,
        "warned": standing.warned,
        "next_bar_seconds": int(following.total_seconds()) if following else 0,
        "lifted_at": lift.lifted_at if lift else None,
        "abandonments": selectors.recent_abandonments(player_id=player_id, limit=50),
    }


class MyFairPlayView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: FairPlaySerializer})
    def get(self, request: Request) -> Response:
        """The caller's abandonments (the newest 50) and whether, and until when, new seats are barred."""
        player_id = cast(int, request.user.pk)  # IsAuthenticated: a saved user
        return Response(FairPlaySerializer(fair_play_body(player_id=player_id)).data)
