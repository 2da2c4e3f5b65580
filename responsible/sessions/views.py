"""The player's session and reality check (docs/api.md "Responsible play"): GET /me/session/ (the client polls it
during play and shows the check when `reality_check_due`), POST /me/session/reality-check/ {answer}."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import raises
from responsible.sessions import services
from responsible.sessions.serializers import (
    MySessionSerializer,
    RealityCheckAnswerSerializer,
    RealityCheckSerializer,
)


def session_body(view: services.SessionView | None) -> dict[str, Any]:
    if view is None:
        return {"session": None}
    return {
        "session": {
            "id": view.session.pk,
            "started_at": view.session.started_at,
            "active": view.active,
            "played_seconds": view.played_seconds,
            "net_result": view.net_result,
            "reality_check_minutes": view.interval_minutes,
            "reality_check_due": view.due_number > 0,
            "reality_check_number": view.due_number or view.answered,
            "next_check_at": view.next_check_at,
        }
    }


class MySessionView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["responsible play"], responses={200: MySessionSerializer})
    def get(self, request: Request) -> Response:
        """The caller's session going on (null when not seated at a ring or tournament table in the last 15
        minutes): time played, net result, and whether a reality check is due."""
        view = services.current(user=cast(User, request.user))
        return Response(MySessionSerializer(session_body(view)).data)


class RealityCheckView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(
        tags=["responsible play"],
        request=RealityCheckAnswerSerializer,
        responses={201: RealityCheckSerializer},
        description="Answer the reality check due: `continue`, or `leave` (every ring table is left, at the round's "
        "end during a round; tournaments go on). The same check answered twice keeps the first answer. 409 "
        "session.none when not playing, reality_check.not_due before the first check is due.",
    )
    def post(self, request: Request) -> Response:
        data = RealityCheckAnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        check, left = services.answer(user=cast(User, request.user), choice=data.validated_data["answer"])
        body = {
            "number": check.number,
            "answer": check.answer,
            "answered_at": check.answered_at,
            "played_seconds": check.played_seconds,
            "net_result": check.net_result,
            "tables_left": left,
        }
        return Response(RealityCheckSerializer(body).data, status=201)
