"""The tickets API (docs/api.md "Tickets and satellites"): a player's tickets, and an admin's grant."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsAdmin
from api.schema import raises
from ledger.serializers import TransferSerializer
from ledger.views import MAX_IDEMPOTENCY_KEY, required_idempotency_key
from tournaments.tickets import selectors, services
from tournaments.tickets.serializers import HeldTicketSerializer, HeldTicketsSerializer, TicketGrantSerializer


class MyTicketsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["tournaments"], responses={200: HeldTicketsSerializer})
    def get(self, request: Request) -> Response:
        """The tickets the caller holds, by target (docs/rules.md "Tickets")."""
        user: AbstractBaseUser = request.user  # type: ignore[assignment]
        return Response({"tickets": HeldTicketSerializer(selectors.tickets_of(user=user), many=True).data})


class TicketGrantView(APIView):
    permission_classes = [IsAdmin]

    @raises(400, 409)
    @extend_schema(
        tags=["tournaments"],
        request=TicketGrantSerializer,
        responses={201: TransferSerializer},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY, "pattern": r"\S"},
                OpenApiParameter.HEADER,
                required=True,
                description="The same key grants once: a replay answers the first grant.",
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Grant tickets to a player (a tournament or a recurring tournament's next one) with a reason."""
        key = required_idempotency_key(request)
        data = TicketGrantSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        admin: AbstractBaseUser = request.user  # type: ignore[assignment]
        transfer = services.grant(
            user=data.validated_data["username"],
            tournament_id=data.validated_data["tournament"],
            template_id=data.validated_data["template"],
            count=data.validated_data["count"],
            reason=data.validated_data["reason"],
            idempotency_key=f"{admin.pk}:{key}",
            posted_by=admin,
        )
        return Response(TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)
