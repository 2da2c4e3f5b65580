"""Presence, the reconnection allowance and the "I'm back" summary (docs/rules.md "Presence and reconnection") over
real sockets (Channels' communicator, the in-memory channel layer): who is connected is seen by the other player
on the socket and in the game view and shows nothing hidden; the allowance delays the server's play only for a
disconnected player, once per round, and is no timeout; the summary lists what the server played for a player
while their connection was down and what the round cost them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from live_room.presence import socket as presence_socket
from live_room.presence.socket import SocketPresence
from tests.clients import api_client
from tests.live_room.sockets import game_view, receive, signed_in, subscribe
from tests.live_room.threads import in_thread
from tests.tournaments.live.helpers import play_out_by_clock
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameEvent, GameStatus, Round, Seat
from tournaments.live.rounds import start as round_start
from tournaments.presence import services as presence_services
from tournaments.presence.models import PresenceLease, PresenceReturn, ReconnectAllowance

pytestmark = pytest.mark.django_db(transaction=True)

# Long turns (no clock fires by itself during a test) and the allowance asked for explicitly.
CLOCKS = {
    "turn_seconds": 30,
    "time_bank_seconds": 0,
    "max_timeouts": 20,
    "max_timeouts_per_round": 100,
    "reconnect_seconds": 60,
}


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


@pytest.fixture
def table_of_two(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob at a public ring table with round 1 dealt; cid is a bystander."""
    table = make_table(options=dict(CLOCKS))
    users = {name: make_player(name) for name in ("ann", "bob", "cid")}
    for name in ("ann", "bob"):
        answer = client_for(users[name]).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
        assert answer.status_code == 200
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    return {"game": game, "users": users, "table": table}


async def presence_message(socket: Any) -> dict[str, Any]:
    message = await receive(socket, presence=True)
    while message["type"] != "presence":
        message = await receive(socket, presence=True)
    return message


def connected_in_view(view: dict[str, Any]) -> dict[str, bool]:
    return {row["username"]: row["connected"] for row in view["players"]}


def without_presence(view: dict[str, Any]) -> dict[str, Any]:
    return {
        **view,
        "players": [{k: v for k, v in row.items() if k != "connected"} for row in view["players"]],
    }


def test_the_other_player_sees_who_is_connected_and_nothing_else(table_of_two: Any, settings: Any) -> None:
    settings.RAMINO_PRESENCE_CHECK_SECONDS = 0.2
    settings.RAMINO_PRESENCE_POLL_SECONDS = 1.0
    game_id = table_of_two["game"].pk
    ann, bob, cid = (table_of_two["users"][n] for n in ("ann", "bob", "cid"))

    async def scenario() -> None:
        before = {name: await game_view(user, game_id) for name, user in (("bob", bob), ("cid", cid))}
        assert connected_in_view(before["cid"]) == {"ann": False, "bob": False}
        socket = await signed_in(ann)
        assert (await subscribe(socket, f"game:{game_id}"))["type"] == "subscribed"
        told = await presence_message(socket)
        # Only the seated players' names and a yes or no each: no hand, no card, no count.
        assert told == {
            "type": "presence",
            "topic": f"game:{game_id}",
            "players": {"ann": True, "bob": False},
        }
        # The game view: ann is connected now; nothing else in it changed, for a player or a bystander.
        for name, user in (("bob", bob), ("cid", cid)):
            now = await game_view(user, game_id)
            assert connected_in_view(now) == {"ann": True, "bob": False}
            assert without_presence(now) == without_presence(before[name])
        assert "hand" not in await game_view(cid, game_id)

        # bob comes by socket: ann is told at once (the game's group).
        other = await signed_in(bob)
        assert (await subscribe(other, f"game:{game_id}"))["type"] == "subscribed"
        assert (await presence_message(other))["players"] == {"ann": True, "bob": True}
        assert (await presence_message(socket))["players"] == {"ann": True, "bob": True}
        # ...and goes: told again.
        await other.disconnect()
        assert (await presence_message(socket))["players"] == {"ann": True, "bob": False}
        assert connected_in_view(await game_view(cid, game_id)) == {"ann": True, "bob": False}

        # A long-poll connects bob for RAMINO_PRESENCE_POLL_SECONDS (1 s here), then he is gone again.
        answer = await in_thread(lambda: api_client(bob).get(f"/api/v1/games/{game_id}/events/?after=0"))()
        assert answer.status_code == 200
        assert (await presence_message(socket))["players"] == {"ann": True, "bob": True}
        assert (await presence_message(socket))["players"] == {"ann": True, "bob": False}

        # Unsubscribing ends ann's presence; the lease is kept (ended) to know when she left.
        await socket.send_json_to({"type": "unsubscribe", "topic": f"game:{game_id}"})
        assert (await receive(socket))["type"] == "unsubscribed"
        assert connected_in_view(await game_view(cid, game_id)) == {"ann": False, "bob": False}
        await socket.disconnect()

    run(scenario)
    assert not PresenceLease.objects.filter(expires_at__gt=timezone.now()).exists()


def _due_now(game: Game) -> int:
    """Make the running turn's deadline pass; the turn version the clock's message carries."""
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return game.turn_version


def _moves(game: Game) -> int:
    return GameEvent.objects.filter(game=game, kind="move").count()


def test_a_socket_never_tells_its_client_a_snapshot_older_than_its_own_lease(table_of_two: Any) -> None:
    """A snapshot of the game's presence read a moment before ann's socket wrote its lease (the process shares a
    read for a second) shows her away: the socket's periodic check right after its subscription must not send it
    to her client (it did once: her own page was told she was not connected)."""
    game_id = table_of_two["game"].pk
    ann = table_of_two["users"]["ann"]

    async def scenario() -> None:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        presence = SocketPresence(holder="socket-of-ann", send=send)
        before = await presence_socket._shared().get(game_id, time.time(), presence._snapshot)
        assert before == {"ann": False, "bob": False}
        await presence.hold(game_id=game_id, player_id=ann.pk)
        await presence.check()
        await presence.announce(game_id)
        assert sent and all(m["players"] == {"ann": True, "bob": False} for m in sent), sent

    run(scenario)


def test_the_allowance_delays_the_server_only_for_a_disconnected_player_once_a_round(
    table_of_two: Any,
) -> None:
    game = table_of_two["game"]
    users = table_of_two["users"]
    mover = game.turn_player
    seat = Seat.objects.get(table=game.table, player__username=mover)

    # Disconnected: the clock ran out, but the server waits reconnect_seconds more and plays nothing.
    before = _moves(game)
    started = timezone.now()
    assert not clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
    game.refresh_from_db()
    assert _moves(game) == before and game.turn_player == mover
    assert game.turn_deadline is not None
    assert 59 <= (game.turn_deadline - started).total_seconds() <= 61
    wait = GameEvent.objects.filter(game=game).order_by("-version").first()
    assert wait is not None and wait.kind == "reconnect_wait"
    assert wait.public["players"] == [mover] and wait.public["deadline"] == game.turn_deadline.isoformat()
    seat.refresh_from_db()
    assert (seat.timeouts_in_row, seat.timeouts_in_round) == (0, 0)  # the allowance is no timeout
    # A copy of the clock's message before the new deadline does nothing.
    assert not clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    assert _moves(game) == before

    # The allowance runs out with the player still away: the server plays, and that is a timeout.
    assert clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
    assert _moves(game) > before
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 1
    assert ReconnectAllowance.objects.filter(player__username=mover).count() == 1

    # The other player is connected (a socket follows the game): no allowance, played at once.
    game.refresh_from_db()
    other = game.turn_player
    assert other != mover

    async def connected_turn() -> None:
        socket = await signed_in(users[other])
        assert (await subscribe(socket, f"game:{game.pk}"))["type"] == "subscribed"
        played = await in_thread(lambda: clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game)))()
        assert played
        await socket.disconnect()

    run(connected_turn)
    assert not ReconnectAllowance.objects.filter(player__username=other).exists()

    # The first player's next turn in the same round: their allowance is spent, the server plays at once.
    game.refresh_from_db()
    while game.status == GameStatus.PLAYING and game.turn_player != mover:
        if game.claims_deadline is not None:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
            assert clock_runs.run_close_claims(game_id=game.pk, version=game.version)
        else:
            assert clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
        game.refresh_from_db()
    if game.status == GameStatus.PLAYING:
        count = _moves(game)
        assert clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
        assert _moves(game) > count
    assert ReconnectAllowance.objects.filter(player__username=mover).count() == 1


def test_a_table_whose_allowance_is_0_gives_none(table_of_two: Any) -> None:
    game = table_of_two["game"]
    table = table_of_two["table"]
    table.options = {**table.options, "reconnect_seconds": 0}
    table.save(update_fields=["options"])
    before = _moves(game)
    assert clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
    assert _moves(game) > before
    assert not ReconnectAllowance.objects.exists()


def test_back_after_the_server_played_the_summary_lists_its_moves_and_the_rounds_result(
    table_of_two: Any, settings: Any
) -> None:
    game = table_of_two["game"]
    ann = table_of_two["users"]["ann"]
    table = table_of_two["table"]
    # No allowance here: the server plays for ann as soon as her clock runs out.
    table.options = {**table.options, "reconnect_seconds": 0}
    table.save(update_fields=["options"])

    async def connect_then_drop() -> None:
        socket = await signed_in(ann)
        assert (await subscribe(socket, f"game:{game.pk}"))["type"] == "subscribed"
        # Nothing yet: she never left.
        summary = await in_thread(
            lambda: api_client(ann).get(f"/api/v1/games/{game.pk}/while-away/").json()
        )()
        assert summary == {
            "game": game.pk,
            "away_since": None,
            "back_at": None,
            "moves": 0,
            "truncated": False,
            "rounds": [],
        }
        await socket.disconnect()

    run(connect_then_drop)
    dropped = PresenceLease.objects.get(player=ann).expires_at
    # While she is away the server plays the round out (for both: bob never connected).
    settled = play_out_by_clock(game)
    assert settled.settled and settled.number == 1

    async def come_back() -> None:
        socket = await signed_in(ann)
        version = await in_thread(lambda: Game.objects.get(pk=game.pk).version)()
        assert (await subscribe(socket, f"game:{game.pk}", after=version))["type"] == "subscribed"
        # Nothing she already had is sent again; the next round's deal may come (a worker deals it on its clock).
        while not await socket.receive_nothing(timeout=0.1):
            message = dict(await socket.receive_json_from(timeout=5))
            assert message["type"] in {"presence", "events"}, message
            assert all(e["version"] > version for e in message.get("events", [])), message
        await socket.disconnect()

    run(come_back)
    back = PresenceReturn.objects.get(player=ann, game=game)
    assert back.away_since == dropped and back.back_at > dropped
    answer = api_client(ann).get(f"/api/v1/games/{game.pk}/while-away/")
    assert answer.status_code == 200
    summary = answer.json()
    expected_moves = [
        e
        for e in GameEvent.objects.filter(game=game, kind="move").order_by("version")
        if e.public["player"] == "ann" and e.public["server_played"]
    ]
    assert expected_moves and summary["moves"] == len(expected_moves)
    assert summary["away_since"] == dropped.isoformat() and summary["back_at"] == back.back_at.isoformat()
    [round_] = summary["rounds"]
    won = sum(t["amount"] for t in settled.transfers if t["to"] == "ann")
    paid = sum(t["amount"] for t in settled.transfers if t["from"] == "ann")
    assert round_["round"] == 1 and round_["over"] is True
    assert settled.scores is not None
    assert round_["points"] == settled.scores["ann"] and round_["chips"] == won - paid
    assert [m["version"] for m in round_["moves"]] == [e.version for e in expected_moves]
    # Her own stock draws show their card to her (her own hidden information, as in her events).
    draws = [m for m in round_["moves"] if m["move"] == {"type": "draw", "source": "stock"}]
    assert draws and all("card" in m or "cards" in m for m in draws)
    # bob may not read ann's summary: his own is asked for, and he never connected.
    other = api_client(table_of_two["users"]["bob"]).get(f"/api/v1/games/{game.pk}/while-away/").json()
    assert other["rounds"] == [] and other["away_since"] is None
    # A bystander of a public table may not read its events, nor a summary.
    refused = api_client(table_of_two["users"]["cid"]).get(f"/api/v1/games/{game.pk}/while-away/")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "auth.forbidden"
    assert Round.objects.filter(game=game).count() >= 1


def test_a_flicker_after_the_return_leaves_the_summary_of_what_the_server_played(table_of_two: Any) -> None:
    """ann's socket drops, her page falls back to the long-poll, the server plays her turn, she is back by the
    long-poll; a moment later its lease has run out and her socket comes back: that second gap, in which the
    server played nothing for her, leaves the first return (and its summary) as it was."""
    game = table_of_two["game"]
    ann = table_of_two["users"]["ann"]
    table = table_of_two["table"]
    table.options = {**table.options, "reconnect_seconds": 0}
    table.save(update_fields=["options"])
    game.refresh_from_db()
    if game.turn_player != "ann":
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    assert presence_services.socket_subscribed(game_id=game.pk, player_id=ann.pk, holder="socket-1")
    presence_services.socket_left(holder="socket-1")
    assert clock_runs.run_turn_clock(game_id=game.pk, version=_due_now(game))
    assert presence_services.polled(game_id=game.pk, player_id=ann.pk)  # back, by the long-poll
    first = PresenceReturn.objects.get(player=ann, game=game)
    summary = api_client(ann).get(f"/api/v1/games/{game.pk}/while-away/").json()
    assert summary["moves"] >= 2
    # The long-poll's lease runs out, then her socket follows the game again: connected once more ...
    PresenceLease.objects.filter(player=ann).update(expires_at=first.back_at)
    assert presence_services.socket_subscribed(game_id=game.pk, player_id=ann.pk, holder="socket-2")
    # ... and the summary is the one of the gap in which the server played for her.
    after = PresenceReturn.objects.get(player=ann, game=game)
    assert (after.away_since, after.back_at) == (first.away_since, first.back_at)
    assert api_client(ann).get(f"/api/v1/games/{game.pk}/while-away/").json() == summary
