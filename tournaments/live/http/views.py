"""HTTP API of tables and live games (docs/api.md "Playing"). Views parse, call one service or selector, and
render."""

from __future__ import annotations

import time
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import User
from django.utils.translation import gettext_noop as N_
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts.authentication import RowTokenAuthentication, TokenAuthentication
from api.pagination import PageNumberPagination
from api.params import MAX_POSITIVE, InvalidParameter, number_param, positive_int_param, version_param
from api.schema import raises
from security.addresses import client_address
from tournaments.engine import PRESETS
from tournaments.errors import Forbidden, PlayCode
from tournaments.live.http.idempotent_views import IDEMPOTENCY_HEADER, answer_once, idempotency_key
from tournaments.live.http.play_now_serializers import PlayNowSerializer
from tournaments.live.http.serializers import (
    BuyInSerializer,
    EventsSerializer,
    GameSerializer,
    JoinSerializer,
    MoveResultSerializer,
    MyRoundSerializer,
    ReplaySerializer,
    RoundSerializer,
    TableCreateSerializer,
    TableSerializer,
)
from tournaments.live.http.throttling import (
    JoinAddressThrottle,
    JoinUserThrottle,
    PlayNowThrottle,
    ReplayThrottle,
    TableCreateAddressThrottle,
    TableCreateUserThrottle,
)
from tournaments.live.messaging import wakeups
from tournaments.live.models import Table
from tournaments.live.moves import pipeline as moves
from tournaments.live.moves.body import move_schema, parse_move
from tournaments.live.rounds import history as round_history
from tournaments.live.storage import events as game_log
from tournaments.live.storage import selectors
from tournaments.live.tables import play_now
from tournaments.live.tables import services as tables
from tournaments.presence import services as presence


def _user(request: Request) -> User:
    """The authenticated caller (every view here requires authentication)."""
    return cast(User, request.user)


def _table(table: Table, request: Request) -> Any:
    """A table as the caller sees it, shaped by its serializer."""
    return TableSerializer(selectors.table_row(table=table, user=request.user)).data


def max_wait_seconds() -> float:
    return float(settings.RAMINO_EVENTS_MAX_WAIT_SECONDS)


class TableListView(APIView):
    pagination_class = PageNumberPagination
    throttle_classes = [TableCreateUserThrottle, TableCreateAddressThrottle]

    def get_throttles(self) -> list[BaseThrottle]:
        """Creating is throttled, reading the list is not (the schema reads the same: no 429 on GET)."""
        request = getattr(self, "request", None)
        return super().get_throttles() if request is not None and request.method == "POST" else []

    @extend_schema(
        responses={200: TableSerializer(many=True)},
        operation_id="v1_tables_list",
        parameters=[
            OpenApiParameter(
                "game", OpenApiTypes.STR, enum=list(PRESETS), description="Only this game's tables."
            ),
            OpenApiParameter(
                "stake",
                {"type": "integer", "minimum": 1, "maximum": MAX_POSITIVE},
                description="Only tables of this stake (PCR times multiplier).",
            ),
            OpenApiParameter(
                "seats",
                {"type": "integer", "minimum": 1, "maximum": 10},
                description="Only tables of this many seats.",
            ),
            OpenApiParameter(
                "free_seats",
                {"type": "integer", "minimum": 1, "maximum": 10},
                description="Only tables with at least this many free seats.",
            ),
        ],
    )
    def get(self, request: Request) -> Response:
        """The listed ring tables (docs/api.md "Playing"), filtered by game, stake, seats and free seats."""
        paginator = self.pagination_class()
        game = request.query_params.get("game") or None
        if game is not None and game not in PRESETS:
            raise InvalidParameter("game", N_("%(name)s must be one of the games."), {"name": "game"})
        listed = selectors.filter_tables(
            selectors.visible_tables(user=request.user),
            game=game,
            stake=positive_int_param(request, "stake"),
            seats=positive_int_param(request, "seats", maximum=10),
            free_seats=positive_int_param(request, "free_seats", maximum=10),
        )
        page = paginator.paginate_queryset(listed, request, view=self)
        rows = [selectors.table_row(table=t, user=request.user) for t in page or []]
        return paginator.get_paginated_response(TableSerializer(rows, many=True).data)

    @raises(403, 409, 422)
    @extend_schema(
        request=TableCreateSerializer, responses={201: TableSerializer}, operation_id="v1_tables_create"
    )
    def post(self, request: Request) -> Response:
        data = TableCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = tables.create_table(
            user=_user(request), address=client_address(request), **data.validated_data
        )
        return Response(_table(table, request), status=status.HTTP_201_CREATED)


class TableDetailView(APIView):
    @extend_schema(responses={200: TableSerializer})
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_for(user=request.user, table_id=table_id)
        return Response(_table(table, request))


class TableSitView(APIView):
    @raises(403, 409, 422)
    @extend_schema(request=BuyInSerializer, responses={200: TableSerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request, table_id: int) -> Response:
        data = BuyInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        buy_in = data.validated_data["buy_in"]

        def sit() -> Response:
            seat = tables.sit(
                user=_user(request), table_id=table_id, buy_in=buy_in, address=client_address(request)
            )
            return Response(_table(seat.table, request))

        return answer_once(request, body={"buy_in": buy_in}, respond=sit)


class PlayNowView(APIView):
    throttle_classes = [PlayNowThrottle]

    @raises(403, 409, 422)
    @extend_schema(
        request=PlayNowSerializer,
        responses={200: TableSerializer, 201: TableSerializer},
        parameters=[IDEMPOTENCY_HEADER],
    )
    def post(self, request: Request) -> Response:
        """Seat the caller at the best open table of a game and stake (docs/api.md "Play now"): 201 with the
        table sat at, or 200 with the matching table the caller already sits at."""
        data = PlayNowSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = {k: data.validated_data.get(k) for k in ("game", "stake", "buy_in")}

        def seat() -> Response:
            found = play_now.play_now(user=_user(request), address=client_address(request), **body)
            return Response(
                _table(found.table, request),
                status=status.HTTP_201_CREATED if found.seated_now else status.HTTP_200_OK,
            )

        return answer_once(request, body=body, respond=seat)


class TableCloseView(APIView):
    @raises(403)
    @extend_schema(request=None, responses={200: TableSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        """Admins: close the table (players cashed out now, or once the running round is settled)."""
        table = selectors.table_for(user=request.user, table_id=table_id)
        if not getattr(request.user, "is_superuser", False):
            raise Forbidden("Only admins close tables.", code=PlayCode.TABLE_CLOSE_FORBIDDEN)
        table = tables.close_table(table_id=table.pk)
        return Response(_table(table, request))


class TableJoinView(APIView):
    throttle_classes = [JoinUserThrottle, JoinAddressThrottle]

    @raises(403, 404, 409, 422)
    @extend_schema(request=JoinSerializer, responses={200: TableSerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request) -> Response:
        data = JoinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        code, buy_in = data.validated_data["code"], data.validated_data["buy_in"]

        def join() -> Response:
            seat = tables.join(user=_user(request), code=code, buy_in=buy_in, address=client_address(request))
            return Response(_table(seat.table, request))

        return answer_once(request, body={"code": code, "buy_in": buy_in}, respond=join)


class TableLeaveView(APIView):
    @raises(409)
    @extend_schema(request=None, responses={200: TableSerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request, table_id: int) -> Response:
        def leave() -> Response:
            seat = tables.leave(user=_user(request), table_id=table_id)
            return Response(_table(seat.table, request))

        return answer_once(request, body={}, respond=leave)


# The project's authentication classes with token authentication done by `RowTokenAuthentication`; for the
# live-play endpoints, which every client calls once per move.
PLAY_AUTHENTICATION_CLASSES: list[type[BaseAuthentication]] = [
    RowTokenAuthentication if cls is TokenAuthentication else cls
    for cls in cast(list[type[BaseAuthentication]], api_settings.DEFAULT_AUTHENTICATION_CLASSES)
]
# What the schema shows for them: the project's schemes (drf-spectacular would otherwise register the
# subclass as a second "tokenAuth"; its `auth` is typed as a list of names, but takes requirements).
PLAY_AUTH_SCHEMA: list[dict[str, list[str]]] = [{"tokenAuth": []}, {"cookieAuth": []}]


class GameDetailView(APIView):
    authentication_classes = PLAY_AUTHENTICATION_CLASSES

    @extend_schema(responses={200: GameSerializer}, auth=PLAY_AUTH_SCHEMA)  # type: ignore[arg-type]
    def get(self, request: Request, game_id: int) -> Response:
        access = selectors.game_access(user=request.user, game_id=game_id, with_history=True)
        return Response(selectors.game_view(access=access))


class GameMovesView(APIView):
    authentication_classes = PLAY_AUTHENTICATION_CLASSES

    @raises(403, 409, 422)
    @extend_schema(
        request=move_schema(request=True),
        responses={200: MoveResultSerializer},
        parameters=[IDEMPOTENCY_HEADER],
        auth=PLAY_AUTH_SCHEMA,  # type: ignore[arg-type]
    )
    def post(self, request: Request, game_id: int) -> Response:
        # One way (docs/architecture.md "Two requests, file by file"): the body, the key, then the service.
        move, expected_version = parse_move(request.data)
        key = idempotency_key(request)
        result = moves.submit_move(
            user=cast(User, request.user),
            game_id=game_id,
            move=move,
            expected_version=expected_version,
            idempotency_key=key,
            request_path=request.path,
        )
        return Response(result)


# The long-polls' parameters, and the header of an answer given at once because too many wait already
# (docs/api.md): the schema says what `version_param` and `number_param` take.
EVENTS_PARAMETERS = [
    OpenApiParameter(
        "after",
        {"type": "integer", "minimum": 0, "maximum": MAX_POSITIVE},
        description="Events after this version (default 0).",
    ),
    OpenApiParameter(
        "wait",
        {"type": "number", "minimum": 0},
        description="Seconds to wait for an event (default 0), a finite number; more than the server's most (25 s) waits that long.",
    ),
    OpenApiParameter(
        "Retry-After",
        OpenApiTypes.INT,
        OpenApiParameter.HEADER,
        response=[200],
        description="Sent (`1`) when the server answered at once because too many requests wait already: "
        "call again after that many seconds.",
    ),
]


class GameEventsView(APIView):
    authentication_classes = PLAY_AUTHENTICATION_CLASSES
    page_limit = 500

    @raises(403)
    @extend_schema(
        auth=PLAY_AUTH_SCHEMA,  # type: ignore[arg-type]
        responses={200: EventsSerializer},
        parameters=EVENTS_PARAMETERS,
    )
    def get(self, request: Request, game_id: int) -> Response:
        after = version_param(request, "after")
        wait = number_param(request, "wait", 0, minimum=0, maximum=max_wait_seconds())
        deadline = time.monotonic() + wait
        with wakeups.waiting(game_id=game_id, after=after, seconds=wait, user_id=_user(request).pk) as watch:
            # Private parts are keyed by player: one only ever sees their own.
            viewer, version, events = selectors.readable_events_after(
                user=_user(request), game_id=game_id, after=after, limit=self.page_limit
            )
            if viewer is not None:
                # A player following by long-poll is connected for the next 30 s (docs/rules.md).
                presence.polled(game_id=game_id, player_id=_user(request).pk)
            version, events = wakeups.read_until_found(
                watch,
                deadline=deadline,
                first=(version, events),
                read=lambda: selectors.events_after(game_id=game_id, after=after, limit=self.page_limit),
            )
        rows = [game_log.event_for(e, viewer) for e in events]
        body = {
            "version": version,
            "events": rows,
            "next_after": rows[-1]["version"] if rows else after,
        }
        # Too many waiting in this process (or of this user) already: the client is asked to come back.
        busy = wait > 0 and watch is None and not rows
        return Response(body, headers={"Retry-After": "1"} if busy else None)


class GameRoundsView(APIView):
    pagination_class = PageNumberPagination

    @raises(403)
    @extend_schema(responses={200: RoundSerializer(many=True)})
    def get(self, request: Request, game_id: int) -> Response:
        access = selectors.game_access(user=request.user, game_id=game_id)
        if not selectors.may_read_history(access=access):
            raise Forbidden("Only the table's players and staff read its rounds.")
        rows: list[Any] = selectors.rounds_data(access=access)
        paginator = self.pagination_class()
        page: list[Any] | None = paginator.paginate_queryset(rows, request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response(RoundSerializer(page or [], many=True).data)


class RoundReplayView(APIView):
    throttle_classes = [ReplayThrottle]

    @raises(409)
    @extend_schema(responses={200: ReplaySerializer})
    def get(self, request: Request, game_id: int, number: int) -> Response:
        """A finished round step by step, for its players and staff (docs/api.md "Replays")."""
        return Response(round_history.round_replay(user=request.user, game_id=game_id, number=number))


class MyRoundsView(APIView):
    pagination_class = PageNumberPagination

    @extend_schema(responses={200: MyRoundSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """The caller's finished rounds, newest first."""
        paginator = self.pagination_class()
        user = _user(request)
        page = paginator.paginate_queryset(round_history.my_rounds(user=user), request, view=self)
        username = user.get_username()
        rows = [round_history.my_round_row(row, username=username) for row in page or []]
        return paginator.get_paginated_response(MyRoundSerializer(rows, many=True).data)
