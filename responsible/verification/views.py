"""Age and verification over HTTP (docs/api.md "Responsible play"): the player's own (`/me/verification/`) and
staff's record (`/responsible/verifications/`, `?format=csv`)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import django_filters
from django.contrib.auth import get_user_model
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
from responsible.verification import selectors, services
from responsible.verification.models import Verification, VerificationStatus
from responsible.verification.serializers import (
    MyVerificationSerializer,
    RecordVerificationSerializer,
    VerificationRowSerializer,
)


class MyVerificationView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["responsible"], responses={200: MyVerificationSerializer})
    def get(self, request: Request) -> Response:
        """The caller's date of birth, whether staff verified the account, and the deadline when one is set."""
        state = selectors.state_of(user=request.user)  # type: ignore[arg-type]
        return Response(MyVerificationSerializer(asdict(state)).data)


class VerificationFilter(django_filters.FilterSet):  # type: ignore[misc]
    player = django_filters.CharFilter(field_name="player__username", help_text="A username.")
    status = django_filters.ChoiceFilter(choices=VerificationStatus.choices)

    class Meta:
        model = Verification
        fields = ["player", "status"]


@extend_schema(tags=["responsible"], parameters=[FORMAT_PARAMETER])
class VerificationListView(generics.ListAPIView[Verification]):
    """Every verification record, newest first: who checked which kind of document for whom, and when (staff)."""

    permission_classes = [IsStaff]
    renderer_classes = [JSONRenderer, CSVRenderer]
    serializer_class = VerificationRowSerializer
    filterset_class = VerificationFilter

    def get_queryset(self) -> Any:
        return selectors.verification_list()

    @raises(400, 404)
    @extend_schema(
        tags=["responsible"], request=RecordVerificationSerializer, responses={201: VerificationRowSerializer}
    )
    def post(self, request: Request) -> Response:
        """Staff mark an account verified (`document_type` required) or withdraw its verification (`note`
        required); written to the admin's log."""
        data = RecordVerificationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        player = get_object_or_404(get_user_model(), username=values["username"])
        if values["status"] == VerificationStatus.VERIFIED:
            row = services.mark_verified(
                player=player,
                by=request.user,  # type: ignore[arg-type]
                document_type=values["document_type"],
                note=values["note"],
            )
        else:
            row = services.withdraw_verification(player=player, by=request.user, note=values["note"])  # type: ignore[arg-type]
        return Response(VerificationRowSerializer(row).data, status=status.HTTP_201_CREATED)
