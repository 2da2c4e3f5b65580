"""The limits' API (docs/api.md "Responsible play"): the player's own (`/me/limits/`) and staff's reads, each
change with its history, `?format=csv` for staff."""

from __future__ import annotations

from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsStaff
from api.renderers import CSVRenderer
from api.schema import raises
from ledger.views import FORMAT_PARAMETER
from responsible.limits import selectors, services
from responsible.limits.models import LimitChange, LimitName
from responsible.limits.serializers import (
    LimitChangeSerializer,
    LimitsUpdateSerializer,
    MyLimitsSerializer,
    StaffLimitsSerializer,
    WithdrawSerializer,
)
from responsible.sessions import services as sessions


def limits_body(*, user: User) -> dict[str, Any]:
    now = timezone.now()
    states = selectors.states(player_id=user.pk, now=now)
    usage = {row.limit: row for row in services.usage(user=user, now=now)}
    body: dict[str, Any] = {}
    for name in LimitName.values:
        state, row = states[name], usage.get(name)
        body[name] = {
            "value": state.value,
            "pending": state.pending,
            "applies_at": state.applies_at,
            "used": row.used if row else None,
            "left": row.left if row else None,
            "resets_at": row.resets_at if row else None,
        }
    body["reality_check_minutes"] = sessions.interval_minutes(player_id=user.pk)
    body["raise_days"] = settings.RAMINO_LIMIT_RAISE_DAYS
    body["time_zone"] = settings.RAMINO_SITE_TIME_ZONE
    return body


class MyLimitsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["responsible play"], responses={200: MyLimitsSerializer})
    def get(self, request: Request) -> Response:
        """The caller's limits: each in force now, a pending raise or removal and when it applies, and how much of
        the period is used and left."""
        return Response(MyLimitsSerializer(limits_body(user=cast(User, request.user))).data)

    @extend_schema(
        tags=["responsible play"],
        request=LimitsUpdateSerializer,
        responses={200: MyLimitsSerializer},
        description="Set any limits (null: none). A new or lower limit applies at once; a higher one or a removal "
        "after RAMINO_LIMIT_RAISE_DAYS days (shown as pending with applies_at); sending the value in force "
        "withdraws a pending change. `reality_check_minutes` (15, 30 or 60) applies at once.",
    )
    def put(self, request: Request) -> Response:
        user = cast(User, request.user)
        data = LimitsUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        minutes = values.pop("reality_check_minutes", None)
        with transaction.atomic():
            services.set_limits(user=user, values=values)
            if minutes is not None:
                sessions.set_interval(user=user, minutes=minutes)
        return Response(MyLimitsSerializer(limits_body(user=user)).data)


class WithdrawView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(
        tags=["responsible play"],
        request=WithdrawSerializer,
        responses={200: MyLimitsSerializer},
        description="Withdraw the pending raise or removal of one limit (409 limits.nothing_pending without one).",
    )
    def post(self, request: Request) -> Response:
        user = cast(User, request.user)
        data = WithdrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.withdraw(user=user, limit=data.validated_data["limit"])
        return Response(MyLimitsSerializer(limits_body(user=user)).data)


@extend_schema(tags=["responsible play"])
class MyLimitHistoryView(generics.ListAPIView[LimitChange]):
    """Every change of the caller's limits, newest first: asked for when, applying when, withdrawn when."""

    permission_classes = [IsAuthenticated]
    serializer_class = LimitChangeSerializer

    def get_queryset(self) -> Any:
        return selectors.history(player_id=cast(int, self.request.user.pk))


PLAYER_PARAMETER = OpenApiParameter("player", str, description="Only this player's changes (a username).")


@extend_schema(tags=["responsible play"], parameters=[FORMAT_PARAMETER, PLAYER_PARAMETER])
class LimitChangeListView(generics.ListAPIView[LimitChange]):
    """Staff: every limit change, newest first (`?player=` for one player's), with `?format=csv`."""

    permission_classes = [IsStaff]
    renderer_classes = [JSONRenderer, CSVRenderer]
    serializer_class = LimitChangeSerializer

    def get_queryset(self) -> Any:
        rows = selectors.history()
        player = self.request.query_params.get("player")
        return rows.filter(player__username=player) if player else rows


class PlayerLimitsView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["responsible play"], responses={200: StaffLimitsSerializer})
    def get(self, request: Request, username: str) -> Response:
        """Staff: one player's limits as the player sees them, and their whole history."""
        user = get_object_or_404(User, username=username)
        body = {
            "username": user.username,
            "limits": limits_body(user=user),
            "history": list(selectors.history(player_id=user.pk)),
        }
        return Response(StaffLimitsSerializer(body).data)
