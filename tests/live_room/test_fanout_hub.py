"""The socket tier's shared reads (live_room/hub.py): one events read per topic and new version for all of a
process's sockets, each seated player's socket given its own player's view of it, anyone else reading their own;
every socket gets exactly the REST read's events for its user, once and in order."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client

from live_room import hub, topics
from live_room.topics import SharedPage, Topic
from tests.live_room.sockets import game_view, play, receive, rest_events, signed_in, subscribe
from tests.live_room.test_consumer import run, table_of_two  # noqa: F401  (a fixture, registered by import)
from tests.live_room.threads import in_thread
from tests.operations.scrape import scrape, value
from tests.tournaments.live.helpers import simple_move
from tournaments.live.models import GameEvent


@pytest.mark.django_db(transaction=True)
def test_one_read_per_version_serves_every_seated_socket_its_own_view(
    table_of_two: Any,  # noqa: F811
    staff_user: Any,
    settings: Any,
) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 600  # no recheck during the test: only the wake-ups read
    game_id = table_of_two["game"].pk
    users = {**table_of_two["users"], "staff": staff_user}
    # Two sockets for ann (a phone and a laptop), one for bob, one for a staff member (not seated: reads alone).
    owners = ["ann", "ann", "bob", "staff"]

    def samples() -> Any:
        return scrape(Client())

    async def scenario() -> None:
        sockets = [await signed_in(users[name]) for name in owners]
        for socket in sockets:
            assert (await subscribe(socket, f"game:{game_id}", after=1))["version"] == 1
        before = await in_thread(samples)()
        seen: list[list[dict[str, Any]]] = [[] for _ in sockets]
        last = 1
        for _turn in range(2):
            view = await game_view(users["ann"], game_id)
            mover = view["turn"]["player"]
            while True:
                view = await game_view(users[mover], game_id)
                if view["turn"]["player"] != mover or not view.get("legal_moves"):
                    break
                last = (await play(users[mover], game_id, simple_move(view), view["version"]))["version"]
                for i, socket in enumerate(sockets):
                    while not seen[i] or seen[i][-1]["version"] < last:
                        message = await receive(socket)
                        assert message["type"] == "events", message
                        seen[i].extend(message["events"])
        after = await in_thread(samples)()
        for i, name in enumerate(owners):
            # Each once, in order, exactly as the REST read gives the same user (redaction included).
            assert [e["version"] for e in seen[i]] == list(range(2, last + 1))
            assert seen[i] == await rest_events(users[name], game_id, 1)
        assert seen[0] == seen[1]
        assert seen[0] != seen[2]  # ann's draws show her cards, bob's show his
        for socket in sockets:
            assert await socket.receive_nothing(timeout=0.3)
            await socket.disconnect()

        def delta(name: str, **labels: str) -> float:
            return value(after, name, **labels) - value(before, name, **labels)

        versions = last - 1
        shared = delta("ramino_socket_reads_total", kind="shared")
        own = delta("ramino_socket_reads_total", kind="own")
        # At most one shared read per new version, whatever the number of seated sockets; the staff member's
        # socket alone reads its own (once per wake-up); four sockets reading alone would have read 4x.
        assert 1 <= shared <= versions, (shared, versions)
        assert 1 <= own <= versions, (own, versions)

    run(scenario)


# ----------------------------------------------------------------------------------- the window, by itself


class _FakeTopic:
    """A topic's events in memory, read as `topics.shared_read` reads them (counted)."""

    def __init__(self, topic: Topic, events: list[Any], seated: frozenset[int] = frozenset()) -> None:
        self.topic = topic
        self.events = events
        self.seated = seated
        self.reads: list[int] = []
        self.lock = threading.Lock()

    def read(self, *, topic: Topic, after: int) -> SharedPage:
        assert topic == self.topic
        with self.lock:
            self.reads.append(after)
            found = [e for e in self.events if topics.event_version(e) > after][: topics.PAGE]
            version = topics.event_version(self.events[-1]) if self.events else 0
        upto = version if len(found) < topics.PAGE else topics.event_version(found[-1])
        return SharedPage(version=version, upto=upto, events=found, seated=self.seated)


def _versions(message: hub.Message | None) -> list[int]:
    import orjson

    assert message is not None and message is not hub.NOTHING
    return [int(e["version"]) for e in orjson.loads(message.text)["events"]]


def test_a_window_read_once_serves_every_waiting_socket_and_extends_exactly(monkeypatch: Any) -> None:
    topic = Topic(topics.TOURNAMENT, 7)
    fake = _FakeTopic(topic, [{"version": v, "kind": "level"} for v in range(1, 4)])
    monkeypatch.setattr(topics, "shared_read", fake.read)
    monkeypatch.setattr(hub, "KEEP", 4)

    async def scenario() -> None:
        shared = hub.current()
        for _ in range(5):
            shared.follow(topic.name)
        got = await asyncio.gather(
            *(shared.message(topic, after=0, wanted=3, user_id=1, viewer="ann") for _ in range(5))
        )
        assert fake.reads == [0]  # five sockets, one read
        texts = {m.text if m is not None else None for m in got}
        assert len(texts) == 1 and _versions(got[0]) == [1, 2, 3]
        # Three more versions: one read from the window's end, the window trimmed to KEEP events (2..6 → 3..6).
        fake.events += [{"version": v, "kind": "level"} for v in range(4, 7)]
        assert _versions(await shared.message(topic, after=3, wanted=6, user_id=1, viewer="ann")) == [4, 5, 6]
        assert fake.reads == [0, 3]
        assert _versions(await shared.message(topic, after=4, wanted=6, user_id=1, viewer="ann")) == [5, 6]
        assert await shared.message(topic, after=6, wanted=6, user_id=1, viewer="ann") is hub.NOTHING
        assert fake.reads == [0, 3]
        # A socket behind the window (version 1, dropped): the window read again from there, nothing skipped.
        assert _versions(await shared.message(topic, after=1, wanted=6, user_id=1, viewer="ann")) == [
            2,
            3,
            4,
            5,
            6,
        ]
        assert fake.reads == [0, 3, 1]
        # The last socket gone: the window goes with it, and a read finished late keeps nothing.
        for _ in range(5):
            shared.unfollow(topic.name)
        assert shared.following(topic.name) == 0 and topic.name not in shared._windows

    asyncio.run(scenario())


def _event(version: int, private: dict[str, Any]) -> GameEvent:
    return GameEvent(
        version=version,
        kind="move",
        public={"player": "ann", "move": {"type": "draw", "source": "stock"}},
        private=private,
        created_at=datetime(2026, 12, 6, tzinfo=UTC),
    )


def test_a_game_window_gives_each_seated_viewer_only_their_own_private_part_and_no_one_else_anything(
    monkeypatch: Any,
) -> None:
    topic = Topic(topics.GAME, 9)
    fake = _FakeTopic(topic, [_event(2, {"ann": {"card": "7H"}})], seated=frozenset({1, 2}))
    monkeypatch.setattr(topics, "shared_read", fake.read)

    async def scenario() -> None:
        import orjson

        shared = hub.current()
        shared.follow(topic.name)
        mine = await shared.message(topic, after=1, wanted=2, user_id=1, viewer="ann")
        theirs = await shared.message(topic, after=1, wanted=2, user_id=2, viewer="bob")
        assert mine is not None and theirs is not None
        assert orjson.loads(mine.text)["events"][0]["card"] == "7H"
        assert "card" not in orjson.loads(theirs.text)["events"][0]
        # Not seated (staff, a past player, someone who stood up): no share of the window; they read their own.
        assert await shared.message(topic, after=1, wanted=2, user_id=3, viewer="cid") is None
        assert fake.reads == [1]
        shared.unfollow(topic.name)

    asyncio.run(scenario())
