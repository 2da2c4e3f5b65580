"""HTTP API of the final-table deal (docs/api.md "The final-table deal"): read the offer, propose, answer; staff
read every deal with its computation."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsStaff
from api.schema import raises
from tournaments.deals import selectors, services
from tournaments.deals.serializers import (
    AnswerSerializer,
    DealAuditListSerializer,
    DealSerializer,
    DealViewSerializer,
    ProposeSerializer,
)
from tournaments.entry_rules.services import refuse_unseen
from tournaments.live import IDEMPOTENCY_HEADER, answer_once
from tournaments.tournament.selectors import tournament_for


class DealView(APIView):
    def get_permissions(self) -> list[AllowAny | IsAuthenticated]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(responses={200: DealViewSerializer}, operation_id="v1_tournaments_deal_read")
    def get(self, request: Request, tournament_id: int) -> Response:
        """The latest deal of the tournament, and what a proposal would offer now."""
        tournament = tournament_for(tournament_id=tournament_id)
        refuse_unseen(tournament=tournament, user=request.user)
        view = selectors.deal_view(tournament=tournament, user=request.user)
        return Response(DealViewSerializer(view).data)

    @raises(409)
    @extend_schema(
        request=ProposeSerializer,
        responses={201: DealSerializer},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="v1_tournaments_deal_propose",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """A player at the final table, between rounds, proposes a deal (at most once per level)."""
        body = ProposeSerializer(data=request.data)
        body.is_valid(raise_exception=True)

        def propose() -> Response:
            deal = services.propose(
                user=cast(User, request.user),
                tournament_id=tournament_id,
                method=body.validated_data["method"],
            )
            return Response(DealSerializer(deal).data, status=status.HTTP_201_CREATED)

        return answer_once(request, body=dict(request.data), respond=propose)


class DealAnswerView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(
        request=AnswerSerializer,
        responses={200: DealSerializer},
        parameters=[IDEMPOTENCY_HEADER],
        operation_id="v1_tournaments_deal_answer",
    )
    def post(self, request: Request, tournament_id: int, deal_id: int) -> Response:
        """Accept or decline: a refusal ends the offer; the last acceptance pays every player at once."""
        body = AnswerSerializer(data=request.data)
        body.is_valid(raise_exception=True)

        def answer() -> Response:
            deal = services.answer(
                user=cast(User, request.user),
                tournament_id=tournament_id,
                deal_id=deal_id,
                accept=body.validated_data["accept"],
            )
            return Response(DealSerializer(deal).data)

        return answer_once(request, body=dict(request.data), respond=answer)


class DealAuditView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(responses={200: DealAuditListSerializer}, operation_id="v1_tournaments_deals_audit")
    def get(self, request: Request, tournament_id: int) -> Response:
        """Staff: every deal of the tournament, newest first, with its computation."""
        tournament = tournament_for(tournament_id=tournament_id)
        return Response(DealAuditListSerializer({"deals": selectors.deals(tournament=tournament)}).data)
