"""The socket's part (live_room's consumer, over Channels' communicator): a new notification reaches the player's
sockets that follow `me`, rendered in their language; a socket subscribed to a game marks its player as looking
at that table (connected: presence) until it unsubscribes or closes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.db import transaction

from notifications import services
from tests.live_room.sockets import receive, signed_in, subscribe
from tests.live_room.threads import in_thread
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.presence import selectors as presence

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_notification_reaches_the_players_sockets_on_me(make_player: Any, client_for: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    client_for(ann).put("/api/v1/me/notification-settings/", {"language": "it"}, format="json")

    async def scenario() -> None:
        mine = await signed_in(ann)
        theirs = await signed_in(bob)
        for socket in (mine, theirs):
            assert (await subscribe(socket, "me"))["type"] == "subscribed"

        def tell() -> int:
            with transaction.atomic():
                told = services.notify(
                    user_id=ann.pk,
                    kind="tournament_soon",
                    key="tournament:9:soon",
                    data={"tournament_id": 9, "tournament": "Coppa"},
                )
                assert told is not None
                return told.pk

        told_id = await in_thread(tell)()
        message = await receive(mine)
        assert message["type"] == "me" and message["kind"] == "notification", message
        data = message["data"]
        assert data["id"] == told_id
        assert data["title"] == "Il tuo torneo sta per iniziare"
        assert data["body"] == "Coppa inizia tra 5 minuti."
        assert data["link"] == "/play/#/tournament/9"
        assert data["read"] is False
        assert await theirs.receive_nothing(timeout=0.3)
        for socket in (mine, theirs):
            await socket.disconnect()

    asyncio.run(scenario())


def test_a_socket_on_a_game_marks_its_player_as_looking(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table()
    ann, bob = make_player("ann"), make_player("bob")
    for user in (ann, bob):
        client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)

    async def looking() -> bool:
        return bool(await in_thread(lambda: presence.is_connected(game_id=game.pk, player_id=ann.pk))())

    async def told_presence(socket: Any) -> None:
        # The lease is written before the socket tells its client who is connected (its own player among them).
        while (message := await receive(socket, presence=True))["type"] != "presence":
            assert message["type"] == "events", message
        assert message["players"]["ann"] is True

    async def scenario() -> None:
        socket = await signed_in(ann)
        assert not await looking()
        assert (await subscribe(socket, f"game:{game.pk}"))["type"] == "subscribed"
        await told_presence(socket)
        assert await looking()
        await socket.send_json_to({"type": "unsubscribe", "topic": f"game:{game.pk}"})
        while (await receive(socket))["type"] != "unsubscribed":
            pass
        assert not await looking()
        assert (await subscribe(socket, f"game:{game.pk}"))["type"] == "subscribed"
        await told_presence(socket)
        assert await looking()
        await socket.disconnect()
        # The socket closed: its lease ended with it.
        for _ in range(50):
            if not await looking():
                break
            await asyncio.sleep(0.05)
        assert not await looking()

    asyncio.run(scenario())
