"""Chat's REST API (docs/api.md "Chat"), for clients without a socket and for staff: a room's history and
posting, quick phrases, reports, one's mutes and blocks; staff's time-outs, reports and rooms' modes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.params import MAX_POSITIVE, positive_int_param
from api.permissions import IsStaff
from api.schema import raises
from chat import phrases, rooms, selectors, services
from chat.errors import ChatCode, NotAllowed
from chat.models import Mute
from chat.serializers import (
    MessageSerializer,
    MuteListSerializer,
    MuteSerializer,
    PhraseListSerializer,
    PlayerSerializer,
    PostSerializer,
    ReportAnswerSerializer,
    ReportListSerializer,
    ReportSerializer,
    RoomModesSerializer,
    RoomPageSerializer,
    RoomSerializer,
    TimeOutListSerializer,
    TimeOutRequestSerializer,
    TimeOutSerializer,
)

ROOM = OpenApiParameter(
    "room", str, OpenApiParameter.PATH, description="`table:<id>`, `tournament:<id>` or `lobby`."
)
TAGS = ["chat"]


def _room_body(room: Any, user: Any) -> dict[str, Any]:
    return {
        "name": room.key,
        "slow_mode": room.slow_mode,
        "members_only": room.members_only,
        "can_write": rooms.can_write(room, user),
    }


class PhrasesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(tags=TAGS, responses={200: PhraseListSerializer})
    def get(self, request: Request) -> Response:
        """The quick phrases, in the request's language (a message sends one by its `code`)."""
        return Response({"phrases": phrases.listed()})


class RoomMessagesView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(403, 409)
    @extend_schema(
        tags=TAGS,
        parameters=[
            ROOM,
            OpenApiParameter(
                "before",
                {"type": "integer", "minimum": 1, "maximum": MAX_POSITIVE},
                description="The page of messages older than this id.",
            ),
            OpenApiParameter(
                "after",
                {"type": "integer", "minimum": 1, "maximum": MAX_POSITIVE},
                description="The messages newer than this id (at most 50).",
            ),
        ],
        responses={200: RoomPageSerializer},
    )
    def get(self, request: Request, room: str) -> Response:
        """A page of the room's history: the newest 50, older ones with `before`, newer ones with `after`."""
        before = positive_int_param(request, "before")
        after = positive_int_param(request, "after")
        found = rooms.room_for(rooms.parse_key(room), request.user)
        rooms.refuse_read(found, request.user)
        page = selectors.history(room=found, viewer_id=request.user.pk, before=before, after=after)
        older = (
            bool(page)
            and after is None
            and selectors.history(room=found, viewer_id=request.user.pk, before=page[0].pk, limit=1)
        )
        return Response(
            RoomPageSerializer(
                {
                    "room": _room_body(found, request.user),
                    "messages": [selectors.message_body(m) for m in page],
                    "next_before": page[0].pk if older else None,
                }
            ).data
        )

    @raises(403, 409, 429)
    @extend_schema(tags=TAGS, parameters=[ROOM], request=PostSerializer, responses={201: MessageSerializer})
    def post(self, request: Request, room: str) -> Response:
        """Write in the room: `text` (1 to 280 characters) or a quick phrase's `phrase`. Per player per room at
        most 5 messages in 10 s and 30 a minute (`chat.rate_limited`, 429 with `Retry-After`)."""
        body = PostSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = services.post(
            user=request.user,
            room_key=room,
            text=body.validated_data.get("text"),
            phrase=body.validated_data.get("phrase"),
        )
        return Response(selectors.message_body(message), status=status.HTTP_201_CREATED)


class RoomView(APIView):
    permission_classes = [IsStaff]

    @raises(409)
    @extend_schema(tags=TAGS, parameters=[ROOM], request=RoomModesSerializer, responses={200: RoomSerializer})
    def patch(self, request: Request, room: str) -> Response:
        """Staff set the room's slow mode (one message per player per 10 s) and members-only mode; admins also
        turn its chat off or on (`enabled`). Recorded (who, when, the modes after)."""
        body = RoomModesSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if "enabled" in body.validated_data and not request.user.is_superuser:
            raise NotAllowed("Only admins turn a room's chat off or on.", code=ChatCode.NOT_MEMBER)
        changed = services.set_room(room_key=room, by=request.user, **body.validated_data)
        return Response(_room_body(changed, request.user))


class ReportView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(tags=TAGS, request=ReportSerializer, responses={201: ReportAnswerSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Report a message to staff (spam, insult, chip trading, other), once per message."""
        body = ReportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        made = services.report(reporter=request.user, message_id=pk, **body.validated_data)
        return Response(selectors.report_body(made), status=status.HTTP_201_CREATED)


class ReportListView(APIView):
    permission_classes = [IsStaff]

    @extend_schema(tags=TAGS, responses={200: ReportListSerializer})
    def get(self, request: Request) -> Response:
        """The newest 100 reports, with each message."""
        return Response({"reports": [selectors.report_body(r) for r in selectors.reports()]})


def _mutes(owner: Any, *, block: bool) -> list[dict[str, Any]]:
    rows = Mute.objects.filter(owner=owner).select_related("target").order_by("-at", "-id")
    if block:
        rows = rows.filter(block=True)
    return [{"username": m.target.get_username(), "block": m.block, "at": m.at} for m in rows]


class MyMutesView(APIView):
    permission_classes = [IsAuthenticated]
    block = False

    @extend_schema(tags=TAGS, responses={200: MuteListSerializer})
    def get(self, request: Request) -> Response:
        """The players whose messages are hidden from the caller (blocked ones included; `block` says)."""
        return Response(MuteListSerializer({"players": _mutes(request.user, block=self.block)}).data)

    @raises(404)
    @extend_schema(tags=TAGS, request=PlayerSerializer, responses={201: MuteSerializer})
    def post(self, request: Request) -> Response:
        """Hide a player's messages from the caller in every room (a block also keeps them out of the private
        tables the caller creates)."""
        body = PlayerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        made = services.mute(owner=request.user, username=body.validated_data["username"], block=self.block)
        return Response(
            MuteSerializer({"username": made.target.get_username(), "block": made.block, "at": made.at}).data,
            status=status.HTTP_201_CREATED,
        )


class MyBlocksView(MyMutesView):
    block = True


class MyMuteView(APIView):
    permission_classes = [IsAuthenticated]
    block = False

    @extend_schema(tags=TAGS, responses={204: None})
    def delete(self, request: Request, username: str) -> Response:
        """Undo a mute (and its block); for a block, only the block (the player stays muted)."""
        services.unmute(owner=request.user, username=username, block_only=self.block)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyBlockView(MyMuteView):
    block = True


class TimeOutsView(APIView):
    permission_classes = [IsStaff]

    @raises(404)
    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("player", str, required=True, description="The player's username.")],
        responses={200: TimeOutListSerializer},
    )
    def get(self, request: Request) -> Response:
        """A player's time-outs, newest first."""
        player = services.player_named(request.query_params.get("player"))
        found = [selectors.time_out_body(t) for t in selectors.time_outs_of(player_id=player.pk)]
        return Response({"time_outs": found})

    @raises(404)
    @extend_schema(tags=TAGS, request=TimeOutRequestSerializer, responses={201: TimeOutSerializer})
    def post(self, request: Request) -> Response:
        """Time a player out of chat for 600, 3600 or 86400 seconds, in one room or the whole site, with a
        reason (spam, insult, chip trading, other). Recorded with who gave it."""
        body = TimeOutRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        given = services.time_out(
            asked=services.TimeOutAsked(
                username=data["username"],
                seconds=int(data["seconds"]),
                reason=data["reason"],
                scope=data["scope"],
                room=data.get("room"),
                note=data.get("note", ""),
                message_id=data.get("message"),
            ),
            by=request.user,
        )
        return Response(selectors.time_out_body(given), status=status.HTTP_201_CREATED)
