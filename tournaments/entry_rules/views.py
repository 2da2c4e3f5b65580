"""Joining a private tournament with its code (docs/api.md "Entry rules and private tournaments")."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.fields import StrictCharField
from api.schema import raises
from tournaments.entry_rules.services import by_code
from tournaments.live import IDEMPOTENCY_HEADER, answer_once
from tournaments.tournament import registration
from tournaments.tournament.serializers import EntrySerializer


class TournamentJoinSerializer(serializers.Serializer[Any]):
    code = StrictCharField(max_length=32, help_text="the private tournament's code (spaces and case ignored)")


class JoinedSerializer(EntrySerializer):
    tournament = serializers.IntegerField(source="tournament_id")


class TournamentJoinView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(403, 404, 409, 422)
    @extend_schema(
        request=TournamentJoinSerializer,
        responses={201: JoinedSerializer},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="v1_tournaments_join",
    )
    def post(self, request: Request) -> Response:
        """Enter the private tournament this code names, as registering does (its entry rules apply)."""
        body = TournamentJoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)

        def join() -> Response:
            tournament = by_code(body.validated_data["code"])
            entry = registration.register(
                user=cast(User, request.user), tournament_id=tournament.pk, by_code=True
            )
            return Response(JoinedSerializer(entry).data, status=status.HTTP_201_CREATED)

        return answer_once(request, body=dict(request.data), respond=join)
