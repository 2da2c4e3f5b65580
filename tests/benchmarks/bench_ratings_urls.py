"""The ratings benchmark's URLs: the project's own, plus the floor endpoint.

The floor is the least a leaderboard page could cost on this stack: the same Django middleware, an anonymous
DRF view with JSON rendering, and the page's rows read by one hand-written query on the leaderboard's index
(`FLOOR_SQL`), rendered as they come: no selector, no serializer, no pagination class.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.urls import URLPattern, URLResolver, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as project_urlpatterns

__all__ = ["FLOOR_SQL", "handler400", "handler403", "handler404", "handler500", "urlpatterns"]

FLOOR_SQL = (
    "SELECT u.username, r.rating, r.games FROM ratings_rating r JOIN auth_user u ON u.id = r.player_id "
    "WHERE r.family = %s AND r.games >= %s ORDER BY r.rating DESC, r.player_id LIMIT %s OFFSET %s"
)


class FloorView(APIView):
    """GET /bench/leaderboard-floor/?page=P: the page's rows, bare."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    def get(self, request: Request) -> Response:
        page = int(request.query_params.get("page", "1"))
        size = int(request.query_params.get("page_size", "50"))
        with connection.cursor() as cursor:
            cursor.execute(
                FLOOR_SQL, ["rummy500", settings.RAMINO_RATINGS_PROVISIONAL_GAMES, size, (page - 1) * size]
            )
            rows = cursor.fetchall()
        return Response({"results": [{"username": u, "rating": r, "games": g} for u, r, g in rows]})


urlpatterns: list[URLPattern | URLResolver] = [
    path("bench/leaderboard-floor/", FloorView.as_view()),
    *project_urlpatterns,  # type: ignore[list-item]
]
