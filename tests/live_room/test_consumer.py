"""The live room's socket (`/ws/v1/`, docs/api.md "Live socket") over a real WebSocket connection to the ASGI
application (Channels' communicator, the in-memory channel layer): signing in, refusals with the REST codes,
hidden information per player, resuming after a reconnect with no event lost or repeated, tournaments, the
lobby and the user's own topic."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from tests.clients import api_client
from tests.live_room.sockets import (
    closed_with,
    game_view,
    opened,
    play,
    quiet,
    receive,
    rest_events,
    signed_in,
    subscribe,
    token_for,
)
from tests.live_room.threads import in_thread
from tests.operations.scrape import scrape, value
from tests.tournaments.live.helpers import simple_move
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.live.messaging import fanout
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.tournament import events as tournament_events
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


@pytest.fixture
def table_of_two(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob at a public ring table with round 1 dealt (version 1); cid is a bystander."""
    table = make_table()
    users = {name: make_player(name) for name in ("ann", "bob", "cid")}
    for name in ("ann", "bob"):
        assert (
            client_for(users[name]).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}).status_code
            == 200
        )
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    assert game.version == 1
    return {"game": game, "users": users, "table": table}


def test_a_socket_signs_in_with_its_first_message(make_player: Any, settings: Any) -> None:
    ann = make_player("ann")

    async def scenario() -> None:
        # Anything before `auth`: refused, closed.
        socket = await opened()
        await socket.send_json_to({"type": "subscribe", "topic": "lobby"})
        error = await receive(socket)
        assert error["type"] == "error" and error["code"] == "auth.not_authenticated", error
        assert await closed_with(socket) == 4401
        # A wrong token: auth.failed, closed.
        socket = await opened()
        await socket.send_json_to({"type": "auth", "token": "not-a-token"})
        error = await receive(socket)
        assert error["code"] == "auth.failed" and error["details"] == {}, error
        assert await closed_with(socket) == 4401
        # The messages follow the handshake's language.
        socket = await opened(**{"accept-language": "it"})
        await socket.send_json_to({"type": "auth", "token": "x" * 300})
        error = await receive(socket)
        assert error["code"] == "auth.failed" and error["message"] != "Invalid token.", error
        await closed_with(socket)
        # The right token: welcome, then the socket answers.
        socket = await signed_in(ann)
        await socket.send_json_to({"type": "ping"})
        assert await receive(socket) == {"type": "pong"}
        await socket.send_json_to({"type": "auth", "token": await token_for(ann)})
        assert (await receive(socket))["code"] == "request.invalid"
        await socket.disconnect()
        # Silent for too long: closed.
        settings.RAMINO_SOCKET_AUTH_SECONDS = 0.2
        socket = await opened()
        assert (await receive(socket))["code"] == "auth.not_authenticated"
        assert await closed_with(socket) == 4401

    run(scenario)


def test_a_revoked_token_closes_its_socket(make_player: Any, settings: Any) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.2
    ann = make_player("ann")

    async def scenario() -> None:
        socket = await signed_in(ann)
        await in_thread(lambda: ann.auth_token_set.all().delete())()
        error = await receive(socket)
        assert error["code"] == "auth.failed"
        assert await closed_with(socket) == 4401

    run(scenario)


def test_refusals_answer_the_rest_codes(
    table_of_two: Any, make_table: Any, make_player: Any, settings: Any
) -> None:
    settings.RAMINO_SOCKET_MAX_TOPICS = 3
    cid = table_of_two["users"]["cid"]
    game = table_of_two["game"]
    private = make_table(private=True, creator=table_of_two["users"]["ann"])
    api_client(table_of_two["users"]["ann"]).post(f"/api/v1/tables/{private.pk}/sit/", {"buy_in": 200})
    private_game = Game.objects.get(table=private)
    assert api_client(cid).get(f"/api/v1/games/{private_game.pk}/events/").status_code == 404
    assert api_client(cid).get(f"/api/v1/games/{game.pk}/events/").status_code == 403

    async def scenario() -> None:
        socket = await signed_in(cid)
        refusals: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
            ({"topic": f"game:{private_game.pk}"}, "game.not_found", {}),
            ({"topic": "game:999999"}, "game.not_found", {}),
            ({"topic": f"game:{game.pk}"}, "auth.forbidden", {}),
            ({"topic": "tournament:999999"}, "tournament.not_found", {}),
            ({"topic": "chat:1"}, "request.invalid", {"field": "topic"}),
            ({"topic": "game:01"}, "request.invalid", {"field": "topic"}),
            ({"topic": "lobby", "after": -1}, "request.invalid", {"field": "after"}),
            ({"topic": "lobby", "after": "3"}, "request.invalid", {"field": "after"}),
        ]
        for message, code, details in refusals:
            await socket.send_json_to({"type": "subscribe", **message})
            error = await receive(socket)
            assert (error["type"], error["code"], error["details"]) == ("error", code, details), (
                message,
                error,
            )
            assert error.get("topic") in (None, message["topic"])
        for text, code in (
            ("{", "request.malformed"),
            ("[]", "request.invalid"),
            ("x" * 5000, "request.malformed"),
        ):
            await socket.send_to(text_data=text)
            assert (await receive(socket))["code"] == code
        await socket.send_json_to({"type": "shout"})
        assert (await receive(socket))["details"] == {"field": "type"}
        # At most RAMINO_SOCKET_MAX_TOPICS topics; refused subscriptions took none.
        for topic in ("lobby", "me", f"tournament:{tournament_id}"):
            assert (await subscribe(socket, topic))["type"] == "subscribed"
            if topic == "lobby":
                assert (await receive(socket))["type"] == "lobby"
        assert await quiet(socket, 0.2)
        error = await subscribe(socket, f"game:{private_game.pk}")
        assert error["code"] == "request.invalid" and error["details"] == {"field": "topic", "limit": 3}
        await socket.send_json_to({"type": "unsubscribe", "topic": "me"})
        assert await receive(socket) == {"type": "unsubscribed", "topic": "me"}
        await socket.disconnect()

    tournament_id = multi.multi_tournament(table_of_two["users"]["ann"]).pk
    run(scenario)


def _other(name: str) -> str:
    return "bob" if name == "ann" else "ann"


def test_each_player_sees_their_own_private_event_and_the_public_form_of_the_other(table_of_two: Any) -> None:
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]

    async def scenario() -> None:
        sockets = {name: await signed_in(users[name]) for name in ("ann", "bob")}
        for socket in sockets.values():
            assert await subscribe(socket, f"game:{game_id}", after=1) == {
                "type": "subscribed",
                "topic": f"game:{game_id}",
                "version": 1,
            }
        seen: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
        drawers = []
        # Each plays a whole turn (a draw from the stock: a private card; a discard), the other follows.
        for _turn in range(2):
            view = await game_view(users["ann"], game_id)
            mover = view["turn"]["player"]
            drawers.append(mover)
            version = view["version"]
            while True:
                view = await game_view(users[mover], game_id)
                if view["turn"]["player"] != mover or not view.get("legal_moves"):
                    break
                answer = await play(users[mover], game_id, simple_move(view), view["version"])
                for name, socket in sockets.items():
                    while not seen[name] or seen[name][-1]["version"] < answer["version"]:
                        message = await receive(socket)
                        assert message["type"] == "events" and message["topic"] == f"game:{game_id}", message
                        seen[name].extend(message["events"])
            assert version < view["version"]
        assert set(drawers) == {"ann", "bob"}
        for name, events in seen.items():
            versions = [e["version"] for e in events]
            assert versions == list(range(2, versions[-1] + 1)), versions  # each once, in order
            # Exactly what the REST long-poll gives the same viewer: the same redaction.
            assert events == await rest_events(users[name], game_id, 1)
            draws = [e for e in events if e.get("move", {}).get("type") == "draw"]
            assert len(draws) == 2
            for draw in draws:
                if draw["player"] == name:
                    assert draw["card"], draw  # my own draw: the card I took
                else:
                    assert "card" not in draw and draw["move"] == {"type": "draw", "source": "stock"}, draw
        for socket in sockets.values():
            assert await quiet(socket, 0.3)
            await socket.disconnect()

    run(scenario)


def test_a_socket_that_reconnects_resumes_with_no_event_lost_or_repeated(
    table_of_two: Any, settings: Any
) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.2  # the recheck runs often: it must not repeat what was sent
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]

    async def one_move() -> int:
        view = await game_view(users["ann"], game_id)
        mover = view["turn"]["player"]
        view = await game_view(users[mover], game_id)
        return int((await play(users[mover], game_id, simple_move(view), view["version"]))["version"])

    async def scenario() -> None:
        socket = await signed_in(users["ann"])
        await subscribe(socket, f"game:{game_id}", after=1)
        first = await one_move()
        message = await receive(socket)
        assert [e["version"] for e in message["events"]] == [first] and message["next_after"] == first
        await socket.disconnect()
        # While ann is away the game moves on twice.
        missed = [await one_move(), await one_move()]
        socket = await signed_in(users["ann"])
        subscribed = await subscribe(socket, f"game:{game_id}", after=first)
        assert subscribed["version"] == missed[-1]
        message = await receive(socket)
        assert [e["version"] for e in message["events"]] == missed
        assert message["events"] == await rest_events(users["ann"], game_id, first)
        later = await one_move()
        message = await receive(socket)
        assert [e["version"] for e in message["events"]] == [later]
        # Rechecks come and go: nothing is sent twice.
        assert await quiet(socket, 0.8)
        await socket.disconnect()

    run(scenario)


def test_tournament_events_and_the_users_own_topic(admin_user: Any, make_player: Any) -> None:
    tournament = multi.multi_tournament(admin_user)
    ann, bob = make_player("ann"), make_player("bob")

    def record(kind: str, **data: Any) -> None:
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
            tournament_events.record(tournament=locked, kind=kind, data=data)

    record("registration_open")

    async def scenario() -> None:
        sockets = {"ann": await signed_in(ann), "bob": await signed_in(bob)}
        subscribed = await subscribe(sockets["ann"], f"tournament:{tournament.pk}", after=0)
        assert subscribed["version"] == 1
        backlog = await receive(sockets["ann"])
        rest = await in_thread(
            lambda: api_client(None).get(f"/api/v1/tournaments/{tournament.pk}/events/").json()
        )()
        assert backlog["events"] == rest["events"] and backlog["next_after"] == 1
        await in_thread(record)("level", level=2)
        message = await receive(sockets["ann"])
        assert [(e["version"], e["kind"], e["data"]) for e in message["events"]] == [
            (2, "level", {"level": 2})
        ]
        for socket in sockets.values():
            assert (await subscribe(socket, "me"))["type"] == "subscribed"
        await in_thread(lambda: fanout.user_message_on_commit(user_id=ann.pk, kind="hello", data={"n": 1}))()
        assert await receive(sockets["ann"]) == {"type": "me", "kind": "hello", "data": {"n": 1}}
        assert await quiet(sockets["bob"], 0.3)
        for socket in sockets.values():
            await socket.disconnect()

    run(scenario)


def test_the_lobby_topic_sends_the_lobby_version_when_it_changes(
    make_player: Any, make_table: Any, settings: Any
) -> None:
    settings.RAMINO_SOCKET_LOBBY_SECONDS = 0.1
    settings.RAMINO_LOBBY_DIGEST_SECONDS = 0
    ann = make_player("ann")

    def rest_version() -> str:
        return str(api_client(None).get("/api/v1/lobby/version/").json()["version"])

    async def scenario() -> None:
        socket = await signed_in(ann)
        assert await subscribe(socket, "lobby") == {"type": "subscribed", "topic": "lobby"}
        first = await receive(socket)
        assert first == {"type": "lobby", "version": await in_thread(rest_version)()}
        assert await quiet(socket, 0.3)  # unchanged: not sent again
        await in_thread(make_table)()
        second = await receive(socket)
        assert second["type"] == "lobby" and second["version"] != first["version"]
        assert second["version"] == await in_thread(rest_version)()
        await socket.disconnect()

    run(scenario)


def test_the_socket_tier_is_counted_in_the_metrics(table_of_two: Any) -> None:
    """`ramino_sockets_open`, `ramino_socket_messages_sent_total{type}` and `ramino_socket_fanout_seconds` move
    with the sockets (docs/operations.md "The metrics")."""
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]

    def samples() -> Any:
        return scrape(Client())

    async def scenario() -> None:
        before = await in_thread(samples)()
        sockets = [await signed_in(users[name]) for name in ("ann", "bob")]
        for socket in sockets:
            await subscribe(socket, f"game:{game_id}", after=1)
        opened = await in_thread(samples)()
        view = await game_view(users["ann"], game_id)
        mover = users[view["turn"]["player"]]
        await play(mover, game_id, simple_move(await game_view(mover, game_id)), view["version"])
        for socket in sockets:
            assert (await receive(socket))["type"] == "events"
            await socket.disconnect()
        after = await in_thread(samples)()

        def delta(later: Any, name: str, **labels: str) -> float:
            return value(later, name, **labels) - value(before, name, **labels)

        assert delta(opened, "ramino_sockets_open") == 2 and delta(after, "ramino_sockets_open") == 0
        assert delta(after, "ramino_socket_messages_sent_total", type="welcome") == 2
        assert delta(after, "ramino_socket_messages_sent_total", type="subscribed") == 2
        assert delta(after, "ramino_socket_messages_sent_total", type="events") == 2
        assert delta(after, "ramino_socket_fanout_seconds_count") == 2

    run(scenario)
