"""A chat room's new message over the sockets costs the same few database statements however many sockets read
the room (live_room/hub.py, chat/socket.py `shared_read`), with every reader's rules exact: whom they muted or
blocked (kept by each socket, told of a change over its user's group), who is a member of a tournament's room
now, staff reading every room, a room whose chat an admin turned off."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest
from django.db.backends import utils as db_utils
from django.utils import timezone

from chat import services
from chat.models import Message, Room
from tests.clients import api_client
from tests.live_room.sockets import receive, signed_in, subscribe
from tests.live_room.threads import in_thread
from tournaments.live import fanout
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = pytest.mark.django_db(transaction=True)

SOCKET_THREADS = "ramino-socket-db"


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


@pytest.fixture
def socket_statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every SQL statement the socket tier's reading threads run (live_room/reads.py), as it runs."""
    seen: list[str] = []
    original = db_utils.CursorWrapper._execute  # type: ignore[attr-defined]  # private, counted here

    def counted(self: Any, sql: str, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name.startswith(SOCKET_THREADS):
            seen.append(sql)
        return original(self, sql, *args, **kwargs)

    monkeypatch.setattr(db_utils.CursorWrapper, "_execute", counted)
    yield seen


@pytest.fixture(autouse=True)
def _no_recheck(settings: Any) -> None:
    # The process's periodic recheck reads too (once per process, not per socket): kept out of the counts.
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 3600


async def events_of(socket: Any) -> list[tuple[str, str]]:
    answer = await receive(socket)
    assert answer["type"] == "events", answer
    return [(e["author"], e["text"]) for e in answer["events"]]


async def silent(socket: Any) -> bool:
    return bool(await socket.receive_nothing(timeout=0.3))


async def readers_of(topic: str, users: list[Any]) -> list[Any]:
    sockets = []
    for user in users:
        socket = await signed_in(user)
        assert (await subscribe(socket, topic))["type"] == "subscribed"
        sockets.append(socket)
    return sockets


def test_a_message_costs_the_same_reads_for_2_readers_as_for_8(
    seated: Any, make_player: Any, socket_statements: list[str]
) -> None:
    ann, bob, cid = (seated["users"][n] for n in ("ann", "bob", "cid"))
    spectators = [make_player(f"spectator{n}") for n in range(6)]
    services.mute(owner=spectators[0], username="ann")
    topic = f"chat:{seated['room']}"

    async def post_and_count(text: str, hearing: list[Any], deaf: list[Any]) -> int:
        socket_statements.clear()
        await in_thread(lambda: services.post(user=ann, room_key=seated["room"], text=text))()
        for socket in hearing:
            assert await events_of(socket) == [("ann", text)]
        for socket in deaf:
            assert await silent(socket)
        return len(socket_statements)

    async def scenario() -> None:
        few = await readers_of(topic, [bob, cid])
        with_two = await post_and_count("for two", few, [])
        many = await readers_of(topic, spectators)
        for socket in many[1:]:  # the room's history on subscribing (their own reads, not counted)
            assert await events_of(socket) == [("ann", "for two")]
        assert await silent(many[0])
        # spectator0 muted ann: the message is read for the room once and left out of their socket.
        with_eight = await post_and_count("for eight", [*few, *many[1:]], [many[0]])
        assert 1 <= with_two <= 4, socket_statements
        assert with_eight == with_two, socket_statements
        for socket in [*few, *many]:
            await socket.disconnect()

    run(scenario)


def test_a_mute_or_block_over_rest_reaches_the_open_sockets(seated: Any) -> None:
    ann, bob, cid = (seated["users"][n] for n in ("ann", "bob", "cid"))
    topic = f"chat:{seated['room']}"

    async def said(text: str) -> None:
        await in_thread(lambda: services.post(user=ann, room_key=seated["room"], text=text))()

    async def scenario() -> None:
        bob_socket, cid_socket = await readers_of(topic, [bob, cid])
        await said("one")
        assert await events_of(bob_socket) == [("ann", "one")]
        assert await events_of(cid_socket) == [("ann", "one")]
        muted = await in_thread(lambda: api_client(bob).post("/api/v1/me/chat/mutes/", {"username": "ann"}))()
        assert muted.status_code in (200, 201), muted.content
        await asyncio.sleep(0.2)  # the socket's read of its mutes, told over bob's group
        await said("two")
        assert await events_of(cid_socket) == [("ann", "two")]
        assert await silent(bob_socket)
        undone = await in_thread(lambda: api_client(bob).delete("/api/v1/me/chat/mutes/ann/"))()
        assert undone.status_code == 204, undone.content
        await asyncio.sleep(0.2)
        await said("three")
        assert await events_of(bob_socket) == [("ann", "three")]
        assert await events_of(cid_socket) == [("ann", "three")]
        # cid blocks ann: a block hides her messages too.
        blocked = await in_thread(
            lambda: api_client(cid).post("/api/v1/me/chat/blocks/", {"username": "ann"})
        )()
        assert blocked.status_code in (200, 201), blocked.content
        await asyncio.sleep(0.2)
        await said("four")
        assert await events_of(bob_socket) == [("ann", "four")]
        assert await silent(cid_socket)
        await bob_socket.disconnect()
        await cid_socket.disconnect()

    run(scenario)


def test_a_tournament_room_reaches_its_members_and_staff_only(
    make_player: Any, staff_user: Any, socket_statements: list[str]
) -> None:
    from tests.factories import TournamentFactory

    tournament = TournamentFactory.create()
    ann, bob, dan = (make_player(n) for n in ("ann", "bob", "dan"))
    entries = {
        u.username: TournamentEntry.objects.create(
            tournament=tournament, player=u, status=EntryStatus.PLAYING
        )
        for u in (ann, bob, dan)
    }
    room = f"tournament:{tournament.pk}"
    topic = f"chat:{room}"

    async def scenario() -> None:
        sockets = await readers_of(topic, [bob, dan, staff_user])
        bob_socket, dan_socket, staff_socket = sockets
        await in_thread(lambda: services.post(user=ann, room_key=room, text="gl all"))()
        for socket in sockets:
            assert await events_of(socket) == [("ann", "gl all")]
        # dan's entry is no longer a member's (refunded): his socket is refused the room, as the REST read is.
        await in_thread(
            lambda: TournamentEntry.objects.filter(pk=entries["dan"].pk).update(status=EntryStatus.REFUNDED)
        )()
        await in_thread(lambda: services.post(user=ann, room_key=room, text="still here?"))()
        assert await events_of(bob_socket) == [("ann", "still here?")]
        assert await events_of(staff_socket) == [("ann", "still here?")]
        refused = await receive(dan_socket)
        assert refused["type"] == "error" and refused["code"] == "chat.not_member", refused
        assert refused["topic"] == topic

        # An admin turns the room's chat off, and a message written just before reaches the sockets after: each
        # reader is told by its own read that chat is off there, as the REST read tells them.
        def off_after_a_message() -> None:
            Room.objects.filter(tournament=tournament).update(enabled=False)
            written = Message.objects.create(
                room=Room.objects.get(tournament=tournament), author=ann, text="late", at=timezone.now()
            )
            fanout.send_version(topic=topic, version=written.pk)

        await in_thread(off_after_a_message)()
        for socket in (bob_socket, staff_socket):
            answer = await receive(socket)
            assert answer["type"] == "error" and answer["code"] == "chat.disabled", answer
        for socket in sockets:
            await socket.disconnect()

    run(scenario)
