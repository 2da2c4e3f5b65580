"""Presence and the reconnection allowance on the embedded default (SQLite, the in-memory channel layer): a
player's socket makes them connected in the other's game view and on the other's socket; the turn clock waits for
a disconnected player once a round and plays at once for a connected one; back, the summary lists what the server
played."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from live_room import reads
from tests.live_room.sockets import receive, signed_in, subscribe
from tests.live_room.threads import in_thread
from tests.sqlite.harness import Site
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameEvent

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def _due_now(game_id: int) -> int:
    game = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return game.turn_version


def test_presence_and_the_allowance_on_sqlite(sqlite_site: Site) -> None:
    site = sqlite_site
    admin = site.admin()
    for name in ("ann", "bob"):
        site.player(name, chips=5000, admin=admin)
    options = {"turn_seconds": 30, "time_bank_seconds": 0, "reconnect_seconds": 60}
    table = admin.call(
        "POST",
        "/tables/",
        {"game": "rummy500", "options": options, "seats": 2, "pcr": 1}
        | {"min_buy_in": 100, "max_buy_in": 2000},
        expect=201,
    )
    for name in ("ann", "bob"):
        site.users[name].post(f"/tables/{table['id']}/sit/", {"buy_in": 1000})
    site.run_messages()  # the start task deals round 1
    game = Game.objects.get(table_id=table["id"])
    users = {name: get_user_model().objects.get(username=name) for name in ("ann", "bob")}
    mover = game.turn_player
    other = "bob" if mover == "ann" else "ann"

    def connected() -> dict[str, bool]:
        view = site.users[other].get(f"/games/{game.pk}/")
        return {row["username"]: row["connected"] for row in view["players"]}

    async def scenario() -> None:
        # The player not to move follows the game by socket: connected; the mover is not.
        socket = await signed_in(users[other])
        assert (await subscribe(socket, f"game:{game.pk}", after=game.version))["type"] == "subscribed"
        told = await receive(socket, presence=True)
        assert told["players"] == {mover: False, other: True}
        assert await in_thread(connected)() == {mover: False, other: True}
        # The mover's clock runs out: disconnected, they are waited for (no move), once.
        before = await in_thread(lambda: GameEvent.objects.filter(game=game, kind="move").count())()
        assert not await in_thread(clock_runs.run_turn_clock)(game_id=game.pk, version=game.turn_version)
        version = await in_thread(_due_now)(game.pk)
        assert not await in_thread(clock_runs.run_turn_clock)(game_id=game.pk, version=version)
        kinds = await in_thread(
            lambda: list(
                GameEvent.objects.filter(game=game).order_by("version").values_list("kind", flat=True)
            )
        )()
        assert kinds[-1] == "reconnect_wait"
        assert await in_thread(lambda: GameEvent.objects.filter(game=game, kind="move").count())() == before
        # The allowance runs out: the server plays the mover's turn.
        version = await in_thread(_due_now)(game.pk)
        assert await in_thread(clock_runs.run_turn_clock)(game_id=game.pk, version=version)
        # The connected player's turn: played at once when their clock runs out.
        turn = await in_thread(lambda: Game.objects.get(pk=game.pk).turn_player)()
        assert turn == other
        version = await in_thread(_due_now)(game.pk)
        assert await in_thread(clock_runs.run_turn_clock)(game_id=game.pk, version=version)
        await socket.disconnect()

    try:
        asyncio.run(scenario())
    finally:
        reads.close()
    kinds = list(GameEvent.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds.count("reconnect_wait") == 1
