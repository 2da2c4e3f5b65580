"""Breaks over HTTP (docs/api.md "Responsible play"): the player's own (`/me/breaks/`) and staff's list and
application (`/responsible/breaks/`, `?format=csv`)."""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsStaff
from api.renderers import CSVRenderer
from api.schema import raises
from ledger.views import FORMAT_PARAMETER
from responsible.breaks import selectors, services
from responsible.breaks.models import Break, BreakKind
from responsible.breaks.serializers import (
    ApplyBreakSerializer,
    BreakStateSerializer,
    StaffBreakRowSerializer,
    TakeBreakSerializer,
)


def state_body(*, player_id: int) -> dict[str, Any]:
    state = selectors.state_of(player_id=player_id)
    return {
        "on_break": state.on_break,
        "kind": state.kind,
        "until": state.until,
        "indefinite": state.indefinite,
        "revocable_at": state.revocable_at,
        "revocation_applies_at": state.revocation_applies_at,
        "breaks": list(selectors.history(player_id=player_id)[:100]),
    }


class MyBreaksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["responsible"], responses={200: BreakStateSerializer})
    def get(self, request: Request) -> Response:
        """Whether the caller is on a break, until when, and every break they took (the newest 100)."""
        return Response(BreakStateSerializer(state_body(player_id=int(request.user.pk))).data)  # type: ignore[arg-type]

    @raises(400, 409)
    @extend_schema(tags=["responsible"], request=TakeBreakSerializer, responses={201: BreakStateSerializer})
    def post(self, request: Request) -> Response:
        """Take a cool-off or exclude yourself. It cannot be shortened (409 `break.shorter` when one already in
        force lasts longer); your seats are left at the round's end and your registrations in tournaments not
        yet started refunded."""
        data = TakeBreakSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.take_break(user=request.user, **data.validated_data)  # type: ignore[arg-type]
        body = BreakStateSerializer(state_body(player_id=int(request.user.pk)))  # type: ignore[arg-type]
        return Response(body.data, status=status.HTTP_201_CREATED)


class RevokeMyExclusionView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(tags=["responsible"], request=None, responses={200: BreakStateSerializer})
    def post(self, request: Request) -> Response:
        """Ask to end an indefinite self-exclusion: allowed 6 months after it began (409 `break.not_revocable`
        before, with `details.revocable_at`); it ends 7 days after this request."""
        services.revoke(user=request.user)  # type: ignore[arg-type]
        return Response(BreakStateSerializer(state_body(player_id=int(request.user.pk))).data)  # type: ignore[arg-type]


class BreakFilter(django_filters.FilterSet):  # type: ignore[misc]
    player = django_filters.CharFilter(field_name="player__username", help_text="A username.")
    kind = django_filters.ChoiceFilter(choices=BreakKind.choices)
    active = django_filters.BooleanFilter(
        method="filter_active", help_text="`true`: only breaks in force now."
    )

    class Meta:
        model = Break
        fields = ["player", "kind", "active"]

    def filter_active(self, queryset: QuerySet[Break], name: str, value: bool | None) -> QuerySet[Break]:
        if value is None:
            return queryset
        return queryset.filter(selectors.active()) if value else queryset.exclude(selectors.active())


@extend_schema(tags=["responsible"], parameters=[FORMAT_PARAMETER])
class BreakListView(generics.ListAPIView[Break]):
    """Every player's breaks and exclusions, newest first, with who applied them and why (staff)."""

    permission_classes = [IsStaff]
    renderer_classes = [JSONRenderer, CSVRenderer]
    serializer_class = StaffBreakRowSerializer
    filterset_class = BreakFilter

    def get_queryset(self) -> Any:
        return selectors.break_list()

    @raises(400, 409)
    @extend_schema(
        tags=["responsible"], request=ApplyBreakSerializer, responses={201: StaffBreakRowSerializer}
    )
    def post(self, request: Request) -> Response:
        """Staff apply a break to a player, with a reason (written to the admin's log). It never shortens one
        in force (409 `break.shorter`)."""
        data = ApplyBreakSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        player = get_object_or_404(get_user_model(), username=values.pop("username"))
        row = services.apply_break(player=player, by=request.user, **values)  # type: ignore[arg-type]
        return Response(StaffBreakRowSerializer(row).data, status=status.HTTP_201_CREATED)
