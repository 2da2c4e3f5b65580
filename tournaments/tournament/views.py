"""HTTP API of tournaments (docs/api.md "Tournaments"). Views parse, call one service or selector, and
render. Anyone reads; players register; admins create and run; staff read the payout report."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from typing import Any, cast

from django.contrib.auth.models import User
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.errors import ApiCode
from api.pagination import PageNumberPagination
from api.params import number_param, version_param
from api.permissions import IsAdmin, IsStaff
from api.renderers import CSVRenderer
from api.schema import raises
from database import replica
from tournaments.engine.rules import PRESETS
from tournaments.entry_rules.services import refuse_unseen, refuse_unseen_id
from tournaments.errors import InvalidRequest
from tournaments.live import EVENTS_PARAMETERS, IDEMPOTENCY_HEADER, answer_once, max_wait_seconds, wakeups
from tournaments.multi_table import selectors as multi_selectors
from tournaments.tournament import admin_actions, lobby, presence, registration, selectors, setup
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus
from tournaments.tournament.selectors import TournamentTable
from tournaments.tournament.serializers import (
    CancelSerializer,
    EntrySerializer,
    LobbyVersionSerializer,
    PayoutReportSerializer,
    RegisterSerializer,
    StandingSerializer,
    TournamentCreateSerializer,
    TournamentEventsSerializer,
    TournamentSerializer,
    TournamentTableSerializer,
)

FILTERS = [
    OpenApiParameter("kind", OpenApiTypes.STR, enum=TournamentKind.values),
    OpenApiParameter(
        "status",
        OpenApiTypes.STR,
        enum=TournamentStatus.values,
        many=True,
        description="One status or several (`?status=running&status=paused`, or `?status=running,paused`).",
    ),
    OpenApiParameter("game", OpenApiTypes.STR, enum=PRESETS, description="a preset name, e.g. rummy500"),
]


CREATE_EXAMPLES = [
    OpenApiExample(
        "A sit-and-go of 4 to 500 points",
        request_only=True,
        value={
            "name": "Friday sit-and-go",
            "kind": "single",
            "game": "rummy500",
            "options": {"turn_seconds": 30},
            "buy_in": 500,
            "fee": 50,
            "max_entrants": 4,
            "target_score": 500,
            "tiebreak_rounds": 5,
            "payouts": [70, 30],
        },
    ),
    OpenApiExample(
        "A quick game of 2 rounds",
        request_only=True,
        value={
            "name": "Quick 2",
            "kind": "quick",
            "game": "rummy500",
            "buy_in": 100,
            "max_entrants": 3,
            "rounds": 2,
        },
    ),
]
# One row (the schema shows it inside a page): the winner of a sit-and-go decided by a tie-breaker.
PLAYER = OpenApiParameter(
    "player", OpenApiTypes.STR, description="one player's row only (none without a live entry)"
)
STANDINGS_EXAMPLE = OpenApiExample(
    "The winner of a tie-breaker",
    response_only=True,
    value={
        "place": 1,
        "username": "bob",
        "status": "finished",
        "total": 160,
        "tiebreak_total": 25,
        "chips": None,
        "table": None,
        "prize": 210,
    },
)


def _user(request: Request) -> User:
    return cast(User, request.user)


def _page(view: APIView, request: Request, rows: list[Any], serializer: type[Serializer[Any]]) -> Response:
    """One page of `rows`, each rendered by `serializer`."""
    paginator = PageNumberPagination()  # the view's pagination_class (the schema reads it there)
    page: list[Any] | None = paginator.paginate_queryset(rows, request, view=view)  # type: ignore[arg-type]
    return paginator.get_paginated_response(serializer(page or [], many=True).data)


def _tournament(tournament: Tournament, request: Request) -> Any:
    """The tournament as the caller sees it, rendered by its serializer."""
    return TournamentSerializer(selectors.tournament_row(tournament=tournament, user=request.user)).data


def _invalid(name: str, allowed: Sequence[str]) -> InvalidRequest:
    return InvalidRequest(
        "%(name)s must be one of %(allowed)s.",
        params={"name": name, "allowed": ", ".join(allowed)},
        code=ApiCode.INVALID_PARAMETER,
        details={"parameter": name},
    )


def _statuses(request: Request) -> list[str]:
    """`?status=` once or repeated, each a status or several separated by commas."""
    found = [part for value in request.query_params.getlist("status") for part in value.split(",") if part]
    if any(s not in TournamentStatus.values for s in found):
        raise _invalid("status", TournamentStatus.values)
    return found


def _registered(request: Request) -> bool:
    value = request.query_params.get("registered")
    if value in (None, "", "false"):
        return False
    if value == "true":
        return True
    raise _invalid("registered", ["true", "false"])


def _etag(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def conditional(request: Request, response: Response, etag: str | None = None) -> Response:
    """Answer 304 with no body when the caller's `If-None-Match` names this answer's ETag (the hash of its
    body unless given), else the answer with its ETag. The answer is the caller's own: never kept by a
    shared cache."""
    tag = etag or _etag(response.data)
    headers = {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Accept-Language"}
    asked = [part.strip() for part in request.headers.get("If-None-Match", "").split(",")]
    if tag in asked:
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    for name, value in headers.items():
        response[name] = value
    return response


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="The `ETag` of an earlier answer: 304 with no body while nothing changed.",
)
ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description="This answer's version: send it back as `If-None-Match` to be answered 304 while it holds.",
)
CONDITIONAL = [IF_NONE_MATCH, ETAG]


def _filter(request: Request, name: str, allowed: Sequence[str] | None = None) -> str | None:
    value = request.query_params.get(name) or None
    if value is not None and allowed is not None and value not in allowed:
        raise InvalidRequest(
            "%(name)s must be one of %(allowed)s.",
            params={"name": name, "allowed": ", ".join(allowed)},
            code=ApiCode.INVALID_PARAMETER,
            details={"parameter": name},
        )
    return value


class TournamentListView(APIView):
    pagination_class = PageNumberPagination

    def get_permissions(self) -> list[BasePermission]:
        return [AllowAny()] if self.request.method == "GET" else [IsAdmin()]

    @extend_schema(
        parameters=[
            *FILTERS,
            OpenApiParameter(
                "registered",
                OpenApiTypes.STR,
                enum=["true", "false"],
                description="`true`: only those where the caller has a live entry (none when anonymous): "
                "with `status=registering,running,paused`, the caller's tournaments and, in `my_table`, "
                "their table in each (what every page of the player client polls to learn of a start)",
            ),
            *CONDITIONAL,
        ],
        responses={200: TournamentSerializer(many=True), 304: None},
        operation_id="v1_tournaments_list",
    )
    def get(self, request: Request) -> Response:
        found = selectors.tournaments(
            kind=_filter(request, "kind", TournamentKind.values),
            statuses=_statuses(request),
            game=_filter(request, "game", PRESETS),
            registered_by=request.user if _registered(request) else None,
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(found, request, view=self)
        rows = selectors.tournament_rows(items=list(page or []), user=request.user)
        return conditional(
            request, paginator.get_paginated_response(TournamentSerializer(rows, many=True).data)
        )

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentSerializer},
        operation_id="v1_tournaments_create",
    )
    def post(self, request: Request) -> Response:
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = setup.create_tournament(user=_user(request), settings=data.validated_data)
        tournament = selectors.tournament_for(tournament_id=created.pk)
        return Response(_tournament(tournament, request), status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentSerializer})
    @replica.lobby_view
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        refuse_unseen(tournament=tournament, user=request.user)
        return Response(_tournament(tournament, request))


class RegisterView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(400, 403, 409, 422)
    @extend_schema(
        request=RegisterSerializer, responses={201: EntrySerializer}, parameters=[IDEMPOTENCY_HEADER]
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Pay buy_in + fee, or a ticket (`payment`), and enter; a one-table tournament starts when this fills
        it."""
        body = RegisterSerializer(data=request.data if isinstance(request.data, dict) else {})
        body.is_valid(raise_exception=True)
        payment = str(body.validated_data["payment"])

        def register() -> Response:
            entry = registration.register(user=_user(request), tournament_id=tournament_id, payment=payment)
            return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

        return answer_once(request, body={"payment": payment}, respond=register)


class UnregisterView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(request=None, responses={200: EntrySerializer}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request: Request, tournament_id: int) -> Response:
        """Before the start only: buy-in and fee refunded."""

        def unregister() -> Response:
            entry = registration.unregister(user=_user(request), tournament_id=tournament_id)
            return Response(EntrySerializer(entry).data)

        return answer_once(request, body={}, respond=unregister)


class BackView(APIView):
    permission_classes = [IsAuthenticated]

    @raises(409)
    @extend_schema(request=None, responses={200: TournamentTableSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        """An absent player (timed out too often, auto-played since) plays their own turns again."""
        seat = presence.come_back(user=_user(request), tournament_id=tournament_id)
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        return Response(TournamentTableSerializer(_table_row(tournament, seat.table_id)).data)


def _table_row(tournament: Tournament, table_id: int) -> TournamentTable:
    """One table of the tournament as a row of `tables/`; 404 `table.not_found` for any other."""
    if tournament.kind != TournamentKind.MULTI:
        found = [t for t in selectors.tables(tournament=tournament) if t.table == table_id]
        if not found:
            raise multi_selectors.no_such_table()
        return found[0]
    table = multi_selectors.table_of(tournament=tournament, table_id=table_id)
    return multi_selectors.table_rows(tournament=tournament, tables=[table])[0]


def _db_page(view: APIView, request: Request, found: Any) -> tuple[PageNumberPagination, list[Any]]:
    """One page of a query, read from the database (a count and a page: never the whole list)."""
    paginator = PageNumberPagination()
    return paginator, list(paginator.paginate_queryset(found, request, view=view) or [])


class StandingsView(APIView):
    permission_classes = [AllowAny]
    pagination_class = PageNumberPagination

    @extend_schema(
        responses={200: StandingSerializer(many=True)}, examples=[STANDINGS_EXAMPLE], parameters=[PLAYER]
    )
    @replica.lobby_view
    def get(self, request: Request, tournament_id: int) -> Response:
        """Players still in first (multi: by chips, highest first; else by total), then by place."""
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        refuse_unseen(tournament=tournament, user=request.user)
        if (player := request.query_params.get("player")) is not None:  # one player's row
            of = (
                multi_selectors.standing_of
                if tournament.kind == TournamentKind.MULTI
                else selectors.standing_of
            )
            return _page(self, request, of(tournament=tournament, username=player), StandingSerializer)
        if tournament.kind != TournamentKind.MULTI:
            return _page(self, request, selectors.standings(tournament=tournament), StandingSerializer)
        paginator, page = _db_page(self, request, multi_selectors.standings(tournament=tournament))
        rows = [multi_selectors.standing_row(r) for r in page]
        return paginator.get_paginated_response(StandingSerializer(rows, many=True).data)


class TablesView(APIView):
    permission_classes = [AllowAny]
    pagination_class = PageNumberPagination

    @extend_schema(responses={200: TournamentTableSerializer(many=True)})
    @replica.lobby_view
    def get(self, request: Request, tournament_id: int) -> Response:
        """Multi: the open tables; one-table kinds: the table, open or closed."""
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        refuse_unseen(tournament=tournament, user=request.user)
        if tournament.kind != TournamentKind.MULTI:
            return _page(self, request, selectors.tables(tournament=tournament), TournamentTableSerializer)
        paginator, page = _db_page(self, request, multi_selectors.open_tables(tournament=tournament))
        rows = multi_selectors.table_rows(tournament=tournament, tables=page)
        return paginator.get_paginated_response(TournamentTableSerializer(rows, many=True).data)


class TableView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentTableSerializer})
    @replica.lobby_view
    def get(self, request: Request, tournament_id: int, table_id: int) -> Response:
        """One table of the tournament, as a row of `tables/` (a closed one too)."""
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        refuse_unseen(tournament=tournament, user=request.user)
        return Response(TournamentTableSerializer(_table_row(tournament, table_id)).data)


class EventsView(APIView):
    """The lobby's live updates: the tournament's events after a version, waiting for one (long-poll)."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: TournamentEventsSerializer},
        parameters=EVENTS_PARAMETERS,
    )
    @replica.lobby_view
    def get(self, request: Request, tournament_id: int) -> Response:
        after = version_param(request, "after")
        wait = number_param(request, "wait", 0, minimum=0, maximum=max_wait_seconds())
        deadline = time.monotonic() + wait
        refuse_unseen_id(tournament_id=tournament_id, user=request.user)  # a private one's log: its entrants'
        # Anyone may follow a tournament: an anonymous caller's waits are counted by address (as the throttles
        # read it: behind the deployment's proxies, `NUM_PROXIES`).
        caller = (
            request.user.pk
            if request.user.is_authenticated
            else f"address:{BaseThrottle().get_ident(request)}"
        )

        def read() -> tuple[int, list[Any]]:
            return multi_selectors.events_after(tournament_id=tournament_id, after=after)

        with wakeups.waiting(tournament_id=tournament_id, after=after, seconds=wait, user_id=caller) as watch:
            version, events = wakeups.read_until_found(watch, deadline=deadline, first=read(), read=read)
        found = multi_selectors.EventPage(version=version, events=events, after=after)
        # Too many waiting in this process (or of this caller) already: the client is asked to come back.
        busy = wait > 0 and watch is None and not events
        return Response(
            TournamentEventsSerializer(found).data, headers={"Retry-After": "1"} if busy else None
        )


class _AdminAction(APIView):
    permission_classes = [IsAdmin]
    run: Any = None

    @raises(409)
    @extend_schema(request=None, responses={200: TournamentSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        type(self).run(tournament_id=tournament_id)
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        return Response(_tournament(tournament, request))


class StartView(_AdminAction):
    """Admins: start now (at least min_entrants registered)."""

    run = staticmethod(admin_actions.start)


class PauseView(_AdminAction):
    """Admins: deal no new round (a round in play finishes)."""

    run = staticmethod(admin_actions.pause)


class ResumeView(_AdminAction):
    run = staticmethod(admin_actions.resume)


class CancelView(APIView):
    permission_classes = [IsAdmin]

    @raises(409)
    @extend_schema(request=None, responses={200: CancelSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        """Admins: cancel (docs/tournaments.md "Lifecycle": refunds before the start, the unpaid pool split
        after); returns its transfers."""
        _cancelled, transfers = admin_actions.cancel(tournament_id=tournament_id)
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        cancelled = selectors.Cancelled(
            tournament=selectors.tournament_row(tournament=tournament, user=request.user),
            transfers=[selectors.transfer_legs(t) for t in transfers],
        )
        return Response(CancelSerializer(cancelled).data)


class PayoutsView(APIView):
    permission_classes = [IsStaff]
    renderer_classes: Sequence[type[BaseRenderer]] = [JSONRenderer, CSVRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format", OpenApiTypes.STR, enum=["json", "csv"], description="`csv`: the prizes as CSV"
            )
        ],
        responses={200: PayoutReportSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.tournament_for(tournament_id=tournament_id)
        report = PayoutReportSerializer(selectors.payouts(tournament=tournament)).data
        if getattr(request.accepted_renderer, "format", "json") == "csv":
            return Response(report["prizes"])
        return Response(report)


class LobbyVersionView(APIView):
    """The lobby's version: a digest that changes whenever the public tables (seats, status) or the tournaments
    (status, entrants, events) change. Poll it with `If-None-Match`: 304 with no body while nothing changed."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=CONDITIONAL,
        responses={200: LobbyVersionSerializer, 304: None},
        operation_id="v1_lobby_version",
    )
    def get(self, request: Request) -> Response:
        version = lobby.lobby_version()
        return conditional(request, Response({"version": version}), etag=f'"{version}"')
