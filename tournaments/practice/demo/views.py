"""HTTP API of the landing page's demo (docs/api.md "The demo")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from accounts.authentication import TokenAuthentication
from tournaments.practice.demo import script as demo_script
from tournaments.practice.demo import services as demo
from tournaments.practice.throttling import PracticeAddressThrottle, PracticeThrottle


class DemoAddressThrottle(SimpleRateThrottle):
    """Per address, signed in or not: each anonymous demo makes an account, which must not be free to
    mass-produce (THROTTLE_DEMO)."""

    scope = "demo"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class DemoStepSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="The step (`draw_stock`, `discard`, ... `score`).")
    expect = serializers.DictField(
        help_text="The situation of the step as the player sees it: `turn` (`player` or `bot`), `phase`, "
        "and optionally `hand` (exactly these cards), `holds` (at least these), `pile` (bottom first), "
        "`melds` (each meld's cards), `table` (a meld on the table holds at least these cards)."
    )
    move = serializers.DictField(allow_null=True, help_text="The move the guide asks for (null: none).")
    text = serializers.CharField(help_text="The instruction's key (the client has its words).")
    hint = serializers.CharField(help_text="The hint's key, for a player who seems stuck.")
    select = serializers.ListField(child=serializers.CharField(), help_text="The cards to select.")
    meld = serializers.CharField(allow_null=True, help_text="The meld to lay off on, or null.")
    bot_moves = serializers.ListField(child=serializers.DictField(), help_text="The bot's moves in its turn.")
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="The scores at the end.")


class DemoOutputSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(help_text="The demo's practice table (`GET /tables/{id}/`).")
    game = serializers.IntegerField(help_text="Its game (`GET /games/{id}/`, moves, events, rounds).")
    username = serializers.CharField(help_text="Who plays it: the caller, or the new guest.")
    token = serializers.CharField(
        allow_null=True,
        help_text="The new guest's API token (`Authorization: Token ...`); null when the caller was signed in.",
    )
    steps = DemoStepSerializer(many=True, help_text="The guide's script, one step after another.")


class DemoView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes = [TokenAuthentication]
    throttle_classes = [DemoAddressThrottle, PracticeThrottle, PracticeAddressThrottle]

    @extend_schema(
        tags=["practice"],
        request=None,
        responses={201: DemoOutputSerializer},
        operation_id="v1_demo_create",
        description=(
            "The landing page's demo: a practice table of Rummy 500 against one bot (Bot Anna, the greedy "
            "bot) whose first round is dealt from a stacked deck, so that a player following the guide's "
            "script (`steps`) meets every rule in order: a draw from the stock, a deep draw from the discard "
            "pile and its must-use rule, a set, a run with a joker, a lay-off on the bot's meld, discarding, "
            "going out and the scoring. Anyone may call it: an anonymous caller gets a new guest account "
            "(`Guest XXXXXX`, no password, no chips) and its `token`; a signed-in caller plays as themself "
            "(`token` null). No chips, no rating. Rate-limited per address (`THROTTLE_DEMO`) and, as a practice start, per player "
            "and per address (`THROTTLE_PRACTICE`, `THROTTLE_PRACTICE_ADDRESS`): 429 `throttled`."
        ),
    )
    def post(self, request: Request) -> Response:
        started = demo.start_demo(user=request.user)
        answer = {
            "table": started.table,
            "game": started.game,
            "username": started.username,
            "token": started.token,
            "steps": demo_script.script(),
        }
        return Response(DemoOutputSerializer(answer).data, status=status.HTTP_201_CREATED)
