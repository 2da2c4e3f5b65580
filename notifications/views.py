"""The player's own notifications (docs/api.md "Notifications"): the centre's list, its unread count and read
marks, the switches and language, and the browser's Web Push subscription."""

from __future__ import annotations

from typing import Any, cast

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_noop as N_
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.params import InvalidParameter
from notifications import kinds, selectors, services, vapid
from notifications.models import PushSubscription
from notifications.serializers import (
    MarkedSerializer,
    MarkReadSerializer,
    NotificationSerializer,
    NotificationSettingsSerializer,
    NotificationSettingsUpdateSerializer,
    PushEndpointSerializer,
    PushSubscriptionSerializer,
    UnreadSerializer,
)

TAGS = ["notifications"]
UNREAD_PARAMETER = OpenApiParameter(
    "unread",
    OpenApiTypes.STR,
    enum=["true", "false"],
    description="true: only those not yet read.",
    required=False,
)


def _user_id(request: Request) -> int:
    return cast(int, request.user.pk)  # IsAuthenticated: a saved user


def _unread_param(request: Request) -> bool:
    raw = request.query_params.get("unread")
    if raw in (None, "", "false"):
        return False
    if raw == "true":
        return True
    raise InvalidParameter("unread", N_("%(name)s must be true or false."), {"name": "unread"})


class MyNotificationsView(generics.ListAPIView[Any]):
    """The caller's notifications kept in the client, newest first, in the request's language (paginated)."""

    permission_classes = [IsAuthenticated]
    serializer_class = NotificationSerializer

    def get_queryset(self) -> Any:
        return selectors.notifications_of(user_id=_user_id(self.request), unread=_unread_param(self.request))

    @extend_schema(tags=TAGS, parameters=[UNREAD_PARAMETER])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset()) or []
        language = translation.get_language()
        rows = [selectors.rendered(n, language=language) for n in page]
        return self.get_paginated_response(NotificationSerializer(rows, many=True).data)


class MyUnreadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAGS, responses={200: UnreadSerializer})
    def get(self, request: Request) -> Response:
        """How many of the caller's notifications are not yet read (the badge)."""
        return Response({"unread": selectors.unread_count(user_id=_user_id(request))})


class MarkReadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAGS, request=MarkReadSerializer, responses={200: MarkedSerializer})
    def post(self, request: Request) -> Response:
        """Mark the caller's notifications `ids` read (left out: all of them); ids of others change nothing."""
        body = MarkReadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user_id = _user_id(request)
        marked = services.mark_read(user_id=user_id, ids=body.validated_data.get("ids"))
        return Response({"marked": marked, "unread": selectors.unread_count(user_id=user_id)})


def settings_body(*, user_id: int) -> dict[str, Any]:
    row = selectors.settings_of(user_id=user_id)
    return {
        "language": selectors.language_of(user_id=user_id),
        "switches": kinds.switches(row.switches),
        "email": bool(selectors.email_of(user_id=user_id)),
        "push": {
            "available": vapid.configured(),
            "public_key": vapid.public_key() if vapid.configured() else "",
            "subscriptions": PushSubscription.objects.filter(user_id=user_id).count(),
        },
        "defaults": kinds.switches({}),
    }


class MyNotificationSettingsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAGS, responses={200: NotificationSettingsSerializer})
    def get(self, request: Request) -> Response:
        """The caller's language for what is sent to them, and each kind's switch per channel."""
        return Response(NotificationSettingsSerializer(settings_body(user_id=_user_id(request))).data)

    @extend_schema(
        tags=TAGS,
        request=NotificationSettingsUpdateSerializer,
        responses={200: NotificationSettingsSerializer},
        description="Change the language and any switches: what is left out keeps its value.",
    )
    def put(self, request: Request) -> Response:
        body = NotificationSettingsUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user_id = _user_id(request)
        with transaction.atomic():
            services.update_settings(
                user_id=user_id,
                language=body.validated_data.get("language"),
                switches=body.validated_data.get("switches"),
            )
        return Response(NotificationSettingsSerializer(settings_body(user_id=user_id)).data)


class PushSubscriptionsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAGS, request=PushSubscriptionSerializer, responses={201: PushEndpointSerializer})
    def post(self, request: Request) -> Response:
        """Keep this browser's Web Push subscription (the same endpoint again replaces its keys)."""
        body = PushSubscriptionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        subscription = services.subscribe_push(
            user_id=_user_id(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
        )
        return Response({"endpoint": subscription.endpoint}, status=status.HTTP_201_CREATED)


class PushUnsubscribeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=TAGS, request=PushEndpointSerializer, responses={204: None})
    def post(self, request: Request) -> Response:
        """Forget this browser's subscription (204 whether or not the caller had one there)."""
        body = PushEndpointSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.unsubscribe_push(user_id=_user_id(request), endpoint=body.validated_data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)
