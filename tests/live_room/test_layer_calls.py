"""A socket's channel-layer calls (live_room/layer.py): bounded per process, retried, and never worth the socket;
groups joined again only when due (`RAMINO_SOCKET_REJOIN_SECONDS`), not at every recheck.

At 5,000 sockets (`make bench-live`, 2026-12-06) the every-30-s re-joins and a rush of sign-ins exhausted the
Redis layer's pool; each failed call closed its socket, whose reconnection fed the rush (docs/performance.md)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from channels.layers import InMemoryChannelLayer

from live_room import layer
from live_room.presence import socket as presence_socket
from tests.live_room.sockets import game_view, play, quiet, receive, rest_events, signed_in, subscribe
from tests.live_room.test_consumer import run, table_of_two  # noqa: F401  (the fixture, registered by import)
from tests.tournaments.live.helpers import simple_move
from tournaments.live.messaging import fanout


@pytest.fixture(autouse=True)
def _quick_backoff(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(layer, "BACKOFF_SECONDS", (0.01, 0.02))
    yield


class _Calls:
    """The in-memory layer's group calls counted, the next `failing` of each kind raising as Redis does when
    its pool is exhausted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.adds: list[str] = []
        self.failing = {"group_add": 0, "group_discard": 0}
        for name in ("group_add", "group_discard"):
            original = getattr(InMemoryChannelLayer, name)
            monkeypatch.setattr(InMemoryChannelLayer, name, self._wrap(name, original))

    def _wrap(self, name: str, original: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        async def call(layer_self: Any, group: str, channel: str) -> None:
            if self.failing[name] > 0:
                self.failing[name] -= 1
                raise ConnectionError("Too many connections")
            if name == "group_add":
                self.adds.append(group)
            await original(layer_self, group, channel)

        return call


def test_the_calls_of_a_process_wait_their_turn_under_the_bound(settings: Any) -> None:
    settings.RAMINO_SOCKET_LAYER_CALLS = 3
    running = [0]
    most = [0]

    async def one() -> None:
        running[0] += 1
        most[0] = max(most[0], running[0])
        await asyncio.sleep(0.01)
        running[0] -= 1

    async def scenario() -> None:
        results = await asyncio.gather(*(layer.call("group_add", one) for _ in range(20)))
        assert results == [True] * 20

    run(scenario)
    assert most[0] == 3


@pytest.mark.parametrize(("failures", "succeeds"), [(0, True), (2, True), (3, False)], ids=["0", "2", "3"])
def test_a_failed_call_is_tried_again_then_reported_not_raised(failures: int, succeeds: bool) -> None:
    attempts = [0]

    async def flaky() -> None:
        attempts[0] += 1
        if attempts[0] <= failures:
            raise ConnectionError("Timeout connecting to server")

    async def scenario() -> None:
        assert await layer.call("group_add", flaky) is succeeds

    run(scenario)
    assert attempts[0] == min(failures + 1, 3)


@pytest.mark.django_db(transaction=True)
def test_a_socket_whose_join_fails_stays_open_and_joins_at_the_next_recheck(
    table_of_two: Any,  # noqa: F811
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.2
    settings.RAMINO_SOCKET_REJOIN_SECONDS = 600
    calls = _Calls(monkeypatch)
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]
    group = fanout.group_name(f"game:{game_id}")

    async def one_move() -> int:
        view = await game_view(users["ann"], game_id)
        mover = view["turn"]["player"]
        view = await game_view(users[mover], game_id)
        return int((await play(users[mover], game_id, simple_move(view), view["version"]))["version"])

    async def scenario() -> None:
        socket = await signed_in(users["ann"])
        calls.failing["group_add"] = 3  # every attempt of the subscription's join
        subscribed = await subscribe(socket, f"game:{game_id}", after=1)
        assert subscribed["type"] == "subscribed" and subscribed["version"] == 1
        assert calls.adds == []
        # The recheck reads the move (no wake-up reached the socket) and joins the group again.
        moved = await one_move()
        message = await receive(socket)
        assert [e["version"] for e in message["events"]] == [moved]
        assert message["events"] == await rest_events(users["ann"], game_id, 1)
        for _ in range(50):
            if calls.adds:
                break
            await asyncio.sleep(0.05)
        assert [g for g in calls.adds if g.startswith("ramino.game.")] == [group]
        # Joined: further rechecks do not join again (due in 600 s), and nothing is sent twice.
        assert await quiet(socket, 1.0)
        assert [g for g in calls.adds if g.startswith("ramino.game.")] == [group]
        # A failed leave is not worth the socket either.
        calls.failing["group_discard"] = 3
        await socket.send_json_to({"type": "unsubscribe", "topic": f"game:{game_id}"})
        assert await receive(socket) == {"type": "unsubscribed", "topic": f"game:{game_id}"}
        await socket.send_json_to({"type": "ping"})
        assert await receive(socket) == {"type": "pong"}
        await socket.disconnect()

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_socket_joins_its_groups_again_only_when_due(
    table_of_two: Any,  # noqa: F811
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.1
    settings.RAMINO_SOCKET_REJOIN_SECONDS = 600
    calls = _Calls(monkeypatch)
    game_id = table_of_two["game"].pk

    async def scenario() -> None:
        socket = await signed_in(table_of_two["users"]["ann"])
        await subscribe(socket, f"game:{game_id}", after=1)
        await subscribe(socket, "me")
        assert len(calls.adds) == 2
        await asyncio.sleep(0.8)  # several rechecks
        assert len(calls.adds) == 2
        settings.RAMINO_SOCKET_REJOIN_SECONDS = 0.3
        await asyncio.sleep(1.0)
        assert len(calls.adds) >= 4
        assert set(calls.adds) == {
            fanout.group_name(f"game:{game_id}"),
            fanout.user_group(table_of_two["users"]["ann"].pk),
        }
        await socket.disconnect()

    run(scenario)


def test_a_games_presence_is_read_once_for_the_sockets_of_a_process_asking_together() -> None:
    """`live_room/presence/socket.py` `_Snapshots`: the periodic checks of many sockets share one read; a change
    published after a read started is never answered from it."""
    reads: list[int] = []

    async def read(game_id: int) -> dict[str, bool]:
        reads.append(game_id)
        await asyncio.sleep(0.02)
        return {"ann": len(reads) > 1}

    async def scenario() -> None:
        shared = presence_socket._Snapshots()
        began = time.time()
        answers = await asyncio.gather(*(shared.get(7, began - 1.0, read) for _ in range(50)))
        assert reads == [7] and answers == [{"ann": False}] * 50
        assert await shared.get(7, began - 1.0, read) == {"ann": False}  # recent enough: no read
        changed = time.time()
        assert await shared.get(7, changed, read) == {
            "ann": True
        }  # a change after the read began: read again
        assert reads == [7, 7]

    run(scenario)
