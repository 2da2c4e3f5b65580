"""Players' profiles, their rating histories and the leaderboards: public reads (docs/api.md, "Players and leaderboards")."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.pagination import PageNumberPagination
from api.params import InvalidParameter
from ratings import selectors
from ratings.models import Family
from ratings.pagination import UncountedPageNumberPagination
from ratings.serializers import (
    HistoryPointSerializer,
    LeaderboardRowSerializer,
    ProfileSerializer,
)

GAME_PARAMETER = OpenApiParameter(
    "game",
    OpenApiTypes.STR,
    required=True,
    description="A game family (rummy500, basic, board) or one of its presets (e.g. romme).",
)


def _family(request: Request) -> str:
    raw = request.query_params.get("game") or ""
    family = selectors.resolve_family(raw)
    if family is None:
        raise InvalidParameter(
            "game", f"game must be one of {', '.join(Family.values)} or one of their presets."
        )
    return family


def _viewer(request: Request) -> AbstractBaseUser | None:
    user = request.user
    return user if user.is_authenticated else None


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=["players"], responses={200: ProfileSerializer})
    def get(self, request: Request, username: str) -> Response:
        """A player's ratings per game family, recent rated games and finished tournaments."""
        return Response(ProfileSerializer(selectors.profile(username=username, viewer=_viewer(request))).data)


class PlayerHistoryView(APIView):
    permission_classes = [AllowAny]
    pagination_class = PageNumberPagination

    @extend_schema(
        tags=["players"], parameters=[GAME_PARAMETER], responses={200: HistoryPointSerializer(many=True)}
    )
    def get(self, request: Request, username: str) -> Response:
        """The player's rating after each rated result of the family, oldest first (for a chart)."""
        family = _family(request)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            selectors.history(username=username, family=family), request, view=self
        )
        return paginator.get_paginated_response(HistoryPointSerializer(page or [], many=True).data)


class LeaderboardView(APIView):
    permission_classes = [AllowAny]
    pagination_class = UncountedPageNumberPagination

    @extend_schema(
        tags=["players"], parameters=[GAME_PARAMETER], responses={200: LeaderboardRowSerializer(many=True)}
    )
    def get(self, request: Request) -> Response:
        """The family's established players, best first; provisional players are left out."""
        family = _family(request)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.leaderboard(family=family), request, view=self)
        # Rendered as LeaderboardRowSerializer declares them, without its per-field machinery: this page is read
        # far more than anything here (docs/performance.md, "Leaderboard"); tests/ratings/test_api.py holds the
        # rows to the serializer's fields.
        first = paginator.first_index
        rows = [
            {"rank": first + i, "username": username, "rating": rating, "games": games}
            for i, (username, rating, games) in enumerate(page)
        ]
        return paginator.get_paginated_response(rows)
