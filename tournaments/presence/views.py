"""`GET /games/{id}/while-away/`: the "I'm back" summary (summary.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import raises
from tournaments.live import PLAY_AUTH_SCHEMA, PLAY_AUTHENTICATION_CLASSES
from tournaments.presence import summary
from tournaments.presence.serializers import WhileAwaySerializer


class WhileAwayView(APIView):
    authentication_classes = PLAY_AUTHENTICATION_CLASSES

    @raises(403)
    @extend_schema(responses={200: WhileAwaySerializer}, auth=PLAY_AUTH_SCHEMA)  # type: ignore[arg-type]
    def get(self, request: Request, game_id: int) -> Response:
        return Response(summary.while_away(user=request.user, game_id=game_id))
