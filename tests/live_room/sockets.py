"""Helpers of the socket tests: a signed-in socket on the ASGI application (Channels' WebsocketCommunicator,
the consumer's real routing and code, in this process), and the REST events a user reads, to compare with."""

from __future__ import annotations

from typing import Any

from channels.testing.websocket import WebsocketCommunicator
from knox.models import AuthToken

from config.asgi import application
from tests.clients import api_client
from tests.live_room.threads import in_thread

TIMEOUT = 5


async def token_for(user: Any) -> str:
    return str(await in_thread(lambda: AuthToken.objects.create(user)[1])())


async def opened(**headers: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, "/ws/v1/", headers=[(k.encode(), v.encode()) for k, v in headers.items()]
    )
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    return socket


async def signed_in(user: Any) -> WebsocketCommunicator:
    socket = await opened()
    await socket.send_json_to({"type": "auth", "token": await token_for(user)})
    welcome = await socket.receive_json_from(timeout=TIMEOUT)
    assert welcome == {"type": "welcome", "username": user.username}, welcome
    return socket


async def receive(socket: WebsocketCommunicator, *, presence: bool = False) -> dict[str, Any]:
    """The socket's next message; `presence` messages (who is connected) are passed over unless asked for."""
    while True:
        message = dict(await socket.receive_json_from(timeout=TIMEOUT))
        if presence or message["type"] != "presence":
            return message


async def subscribe(socket: WebsocketCommunicator, topic: str, after: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "subscribe", "topic": topic}
    if after is not None:
        message["after"] = after
    await socket.send_json_to(message)
    return await receive(socket)


async def closed_with(socket: WebsocketCommunicator) -> int:
    output = await socket.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return int(output["code"])


async def _call(user: Any, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """An API call of `user` (in a thread, as Django's sync code must run), its 200 answer's body."""

    def call() -> Any:
        client = api_client(user)
        answer = client.post(path, body) if method == "POST" else client.get(path)
        assert answer.status_code == 200, answer.content
        return answer.json()

    return await in_thread(call)()


async def rest_events(user: Any, game_id: int, after: int) -> list[dict[str, Any]]:
    return list((await _call(user, "GET", f"/api/v1/games/{game_id}/events/?after={after}"))["events"])


async def play(user: Any, game_id: int, move: dict[str, Any], version: int) -> dict[str, Any]:
    body = {**move, "expected_version": version}
    return dict(await _call(user, "POST", f"/api/v1/games/{game_id}/moves/", body))


async def game_view(user: Any, game_id: int) -> dict[str, Any]:
    return dict(await _call(user, "GET", f"/api/v1/games/{game_id}/"))


async def quiet(socket: WebsocketCommunicator, timeout: float) -> bool:
    """Nothing but `presence` messages arrives for `timeout` seconds."""
    while True:
        if await socket.receive_nothing(timeout=timeout):
            return True
        message = dict(await socket.receive_json_from(timeout=TIMEOUT))
        assert message["type"] == "presence", message
