"""The live room's socket on the embedded default: SQLite and the in-memory channel layer. Two players at a ring
table follow the game over their sockets (the ASGI application's consumer, Channels' communicator) while moves
are made over HTTP: each receives every event once, in order, its own draw with its card and the other's in its
public form, exactly as the REST events read gives them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from live_room import reads
from tests.live_room.sockets import receive, rest_events, signed_in, subscribe
from tests.live_room.threads import in_thread
from tests.sqlite.harness import Site
from tests.tournaments.live.helpers import simple_move
from tournaments.live.models import Game

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def _simple_move(site: Site, game_id: int) -> dict[str, Any]:
    """The player to act draws from the stock, or discards (tests.tournaments.live.helpers.simple_move), over HTTP."""
    mover = site.users[Game.objects.get(pk=game_id).turn_player or ""]
    view = mover.get(f"/games/{game_id}/")
    return dict(
        mover.post(f"/games/{game_id}/moves/", {**simple_move(view), "expected_version": view["version"]})
    )


def test_two_players_follow_a_ring_table_over_their_sockets(sqlite_site: Site) -> None:
    site = sqlite_site
    admin = site.admin()
    for name in ("ann", "bob"):
        site.player(name, chips=5000, admin=admin)
    table = admin.call(
        "POST",
        "/tables/",
        {"game": "rummy500", "options": {"turn_seconds": 30, "time_bank_seconds": 0}, "seats": 2, "pcr": 1}
        | {"min_buy_in": 100, "max_buy_in": 2000},
        expect=201,
    )
    for name in ("ann", "bob"):
        site.users[name].post(f"/tables/{table['id']}/sit/", {"buy_in": 1000})
    site.run_messages()  # the start task deals round 1
    game = Game.objects.get(table_id=table["id"])
    start = game.version
    assert start >= 1
    users = {name: get_user_model().objects.get(username=name) for name in ("ann", "bob")}

    async def scenario() -> None:
        sockets = {name: await signed_in(user) for name, user in users.items()}
        for socket in sockets.values():
            assert (await subscribe(socket, f"game:{game.pk}", after=start))["version"] == start
        seen: dict[str, list[dict[str, Any]]] = {"ann": [], "bob": []}
        for _move in range(4):
            answer = await in_thread(_simple_move)(site, game.pk)
            for name, socket in sockets.items():
                while not seen[name] or seen[name][-1]["version"] < answer["version"]:
                    seen[name].extend((await receive(socket))["events"])
        for name, events in seen.items():
            assert [e["version"] for e in events] == list(range(start + 1, events[-1]["version"] + 1))
            assert events == await rest_events(users[name], game.pk, start)
            draws = [e for e in events if e.get("move") == {"type": "draw", "source": "stock"}]
            assert {d["player"] for d in draws} == {"ann", "bob"}
            for draw in draws:
                assert ("card" in draw) == (draw["player"] == name), (name, draw)
        for socket in sockets.values():
            await socket.disconnect()

    try:
        asyncio.run(scenario())
    finally:
        reads.close()
