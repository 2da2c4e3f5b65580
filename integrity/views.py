"""The staff API of integrity flags: the list (paginated, `?format=csv`) and staff's decision on one."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsStaff
from api.renderers import CSVRenderer
from integrity import selectors, services
from integrity.filters import FlagFilter
from integrity.models import Flag
from integrity.serializers import FlagDecisionSerializer, FlagDetailSerializer, FlagSerializer
from ledger.views import FORMAT_PARAMETER


@extend_schema(tags=["integrity"], parameters=[FORMAT_PARAMETER])
class FlagListView(generics.ListAPIView[Flag]):
    """Integrity flags, newest first (docs/integrity.md): filter by `status` and `kind`."""

    permission_classes = [IsStaff]
    renderer_classes = [JSONRenderer, CSVRenderer]
    serializer_class = FlagSerializer
    filterset_class = FlagFilter

    def get_queryset(self) -> Any:
        return selectors.flag_list()


class FlagDetailView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=["integrity"], responses={200: FlagDetailSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return Response(FlagDetailSerializer(get_object_or_404(selectors.flag_list(), pk=pk)).data)

    @extend_schema(
        tags=["integrity"],
        request=FlagDecisionSerializer,
        responses={200: FlagDetailSerializer},
        description="Staff set the flag's status (open, dismissed, confirmed) and note, each optional: a field left "
        "out keeps its value, and an empty body changes nothing (200 with the flag as it is). The admin's log "
        "keeps each change.",
    )
    def patch(self, request: Request, pk: int) -> Response:
        data = FlagDecisionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        get_object_or_404(Flag, pk=pk)
        flag = services.decide(
            flag_id=pk,
            status=data.validated_data.get("status"),
            note=data.validated_data.get("note"),
            by=request.user,  # type: ignore[arg-type]
        )
        return Response(FlagDetailSerializer(flag).data)
