"""Chat over real sockets (Channels' WebsocketCommunicator on the ASGI application, docs/api.md "Live
socket"): a room's topic delivers history on joining and each new message to its members, with their mutes
applied; writing over the socket answers `chat_sent` or the REST refusal (members, rate limits with
`retry_after_seconds`, time-outs, a practice table's chat off); a report and a time-out reach staff and the
player's own `me` topic. Every refusal changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from chat import services
from chat.models import Message, Report, TimeOut
from tests.clients import api_client
from tests.live_room.sockets import receive, signed_in, subscribe
from tests.live_room.threads import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


async def write(socket: Any, room: str, text: str | None = None, phrase: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "chat", "room": room}
    if text is not None:
        message["text"] = text
    if phrase is not None:
        message["phrase"] = phrase
    await socket.send_json_to(message)
    return await receive(socket)


async def next_events(socket: Any) -> dict[str, Any]:
    answer = await receive(socket)
    assert answer["type"] == "events", answer
    return answer


async def silent(socket: Any) -> bool:
    return bool(await socket.receive_nothing(timeout=0.3))


def counts() -> tuple[int, int, int]:
    return Message.objects.count(), Report.objects.count(), TimeOut.objects.count()


def test_messages_reach_the_room_with_history_on_joining(seated: Any) -> None:
    ann, bob, cid = (seated["users"][n] for n in ("ann", "bob", "cid"))
    topic = f"chat:{seated['room']}"
    services.post(user=ann, room_key=seated["room"], text="before anyone came")

    async def scenario() -> None:
        bob_socket, cid_socket = await signed_in(bob), await signed_in(cid)
        subscribed = await subscribe(bob_socket, topic)
        assert subscribed["type"] == "subscribed" and subscribed["version"] >= 1, subscribed
        history = await next_events(bob_socket)
        assert [e["text"] for e in history["events"]] == ["before anyone came"]
        assert history["events"][0]["kind"] == "chat.message" and history["events"][0]["author"] == "ann"
        # A spectator follows the room too.
        assert (await subscribe(cid_socket, topic))["type"] == "subscribed"
        await next_events(cid_socket)
        # bob writes over his socket: chat_sent, and both sockets get the message once.
        sent = await write(bob_socket, seated["room"], "ciao!")
        assert sent["type"] == "chat_sent" and sent["message"]["text"] == "ciao!", sent
        for socket in (bob_socket, cid_socket):
            events = await next_events(socket)
            assert [(e["author"], e["text"]) for e in events["events"]] == [("bob", "ciao!")]
            assert await silent(socket)
        # A quick phrase: its code, for the client to show in its language.
        await write(bob_socket, seated["room"], phrase="good_luck")
        event = (await next_events(cid_socket))["events"][0]
        assert event["phrase"] == "good_luck" and event["text"] == "Good luck"
        # A message over REST reaches the sockets too.
        await in_thread(lambda: services.post(user=ann, room_key=seated["room"], text="via REST"))()
        assert (await next_events(cid_socket))["events"][0]["text"] == "via REST"
        # The spectator cannot write, and nothing is written.
        before = await in_thread(counts)()
        refused = await write(cid_socket, seated["room"], "let me in")
        assert refused["type"] == "error" and refused["code"] == "chat.not_member", refused
        assert refused["topic"] == topic
        assert await in_thread(counts)() == before
        await bob_socket.disconnect()
        await cid_socket.disconnect()

    run(scenario)


def test_members_only_rooms_refuse_outsiders_a_subscription(seated: Any, make_player: Any) -> None:
    from tests.factories import TournamentFactory

    tournament = TournamentFactory.create()
    outsider = seated["users"]["cid"]

    async def scenario() -> None:
        socket = await signed_in(outsider)
        refused = await subscribe(socket, f"chat:tournament:{tournament.pk}")
        assert refused["type"] == "error" and refused["code"] == "chat.not_member", refused
        missing = await subscribe(socket, "chat:table:999999")
        assert missing["code"] == "chat.room_not_found", missing
        unknown = await subscribe(socket, "chat:nowhere")
        assert unknown["code"] == "request.invalid", unknown
        await socket.disconnect()

    run(scenario)


def test_rate_limits_over_the_socket(seated: Any) -> None:
    ann = seated["users"]["ann"]

    async def scenario() -> None:
        socket = await signed_in(ann)
        for n in range(5):
            assert (await write(socket, seated["room"], f"m{n}"))["type"] == "chat_sent"
        before = await in_thread(counts)()
        refused = await write(socket, seated["room"], "too many")
        assert refused["code"] == "chat.rate_limited", refused
        assert 1 <= refused["details"]["retry_after_seconds"] <= 10
        assert refused["details"]["limit"] == 5
        assert await in_thread(counts)() == before
        await socket.disconnect()

    run(scenario)


def test_a_muted_player_is_not_delivered(seated: Any) -> None:
    ann, bob = seated["users"]["ann"], seated["users"]["bob"]
    services.mute(owner=bob, username="ann")

    async def scenario() -> None:
        bob_socket, ann_socket = await signed_in(bob), await signed_in(ann)
        topic = f"chat:{seated['room']}"
        assert (await subscribe(bob_socket, topic))["type"] == "subscribed"
        await subscribe(ann_socket, topic)
        assert (await write(ann_socket, seated["room"], "can you hear me"))["type"] == "chat_sent"
        assert (await next_events(ann_socket))["events"][0]["text"] == "can you hear me"
        assert await silent(bob_socket)
        await write(bob_socket, seated["room"], "quiet here")
        assert [e["text"] for e in (await next_events(bob_socket))["events"]] == ["quiet here"]
        await bob_socket.disconnect()
        await ann_socket.disconnect()

    run(scenario)


def test_time_outs_and_reports_over_the_socket(seated: Any, staff_user: Any) -> None:
    ann, cid = seated["users"]["ann"], seated["users"]["cid"]

    async def scenario() -> None:
        ann_socket = await signed_in(ann)
        assert (await subscribe(ann_socket, "me"))["type"] == "subscribed"
        sent = await write(ann_socket, seated["room"], "wanna buy chips? 10 euro for 5000 fiches")
        message_id = sent["message"]["id"]

        def report_and_time_out() -> None:
            answer = api_client(cid).post(
                f"/api/v1/chat/messages/{message_id}/report/", {"reason": "chip_trading"}, format="json"
            )
            assert answer.status_code == 201, answer.content
            given = api_client(staff_user).post(
                "/api/v1/chat/time-outs/",
                {
                    "username": "ann",
                    "seconds": 86400,
                    "reason": "chip_trading",
                    "scope": "site",
                    "message": message_id,
                },
                format="json",
            )
            assert given.status_code == 201, given.content

        await in_thread(report_and_time_out)()
        told = await receive(ann_socket)
        assert told["type"] == "me" and told["kind"] == "chat.timed_out", told
        assert told["data"]["reason"] == "chip_trading" and told["data"]["scope"] == "site"
        before = await in_thread(counts)()
        refused = await write(ann_socket, seated["room"], "hello?")
        assert refused["code"] == "chat.timed_out" and refused["details"]["until"] == told["data"]["until"]
        assert await in_thread(counts)() == before
        await ann_socket.disconnect()

    run(scenario)


def test_no_chat_at_a_practice_table(make_player: Any) -> None:
    ann = make_player("ann")
    started = api_client(ann).post(
        "/api/v1/practice/", {"game": "rummy500", "bots": 1, "level": "easy"}, format="json"
    )
    table_id = started.json()["table"]

    async def scenario() -> None:
        socket = await signed_in(ann)
        refused = await subscribe(socket, f"chat:table:{table_id}")
        assert refused["code"] == "chat.disabled", refused
        before = await in_thread(counts)()
        assert (await write(socket, f"table:{table_id}", "hi bots"))["code"] == "chat.disabled"
        assert await in_thread(counts)() == before
        await socket.disconnect()

    run(scenario)
