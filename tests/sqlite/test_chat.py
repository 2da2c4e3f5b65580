"""Chat on the embedded default (SQLite and the in-memory channel layer): two players at a ring table, one
following the room over a socket; messages written over HTTP and over the socket reach it; the rate limit
answers 429 with Retry-After and writes nothing; a mute hides a player's messages; a block keeps the blocked
player out of the blocker's private table."""

from __future__ import annotations

import asyncio

import pytest
from django.contrib.auth import get_user_model

from chat.models import Message
from live_room import reads
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory
from tests.live_room.sockets import receive, signed_in, subscribe
from tests.live_room.threads import in_thread

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db(transaction=True)]


def test_chat_at_a_ring_table_on_sqlite() -> None:
    ann, bob = (PlayerFactory.create(username=name, chips=5000) for name in ("ann", "bob"))
    table = TableFactory.create()
    for user in (ann, bob):
        assert api_client(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300}).status_code == 200
    room = f"table:{table.pk}"
    url = f"/api/v1/chat/rooms/{room}/messages/"

    async def scenario() -> None:
        socket = await signed_in(bob)
        assert (await subscribe(socket, f"chat:{room}"))["type"] == "subscribed"
        answer = await in_thread(lambda: api_client(ann).post(url, {"text": "ciao"}, format="json"))()
        assert answer.status_code == 201
        events = await receive(socket)
        assert [e["text"] for e in events["events"]] == ["ciao"]
        await socket.send_json_to({"type": "chat", "room": room, "phrase": "good_luck"})
        assert (await receive(socket))["type"] == "chat_sent"
        assert (await receive(socket))["events"][0]["phrase"] == "good_luck"
        await socket.disconnect()

    try:
        asyncio.run(scenario())
    finally:
        reads.close()
    client = api_client(ann)
    for n in range(4):
        assert client.post(url, {"text": f"m{n}"}, format="json").status_code == 201
    before = Message.objects.count()
    refused = client.post(url, {"text": "too many"}, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "chat.rate_limited"
    assert int(refused["Retry-After"]) >= 1 and Message.objects.count() == before
    assert (
        api_client(bob).post("/api/v1/me/chat/mutes/", {"username": "ann"}, format="json").status_code == 201
    )
    assert [m["author"] for m in api_client(bob).get(url).json()["messages"]] == ["bob"]
    eve = get_user_model().objects.get(username="ann")
    private = TableFactory.create(private=True, creator=eve)
    assert (
        api_client(eve).post("/api/v1/me/chat/blocks/", {"username": "bob"}, format="json").status_code == 201
    )
    joined = api_client(bob).post(
        "/api/v1/tables/join/", {"code": private.code, "buy_in": 300}, format="json"
    )
    assert joined.status_code == 403 and joined.json()["error"]["code"] == "chat.blocked"
