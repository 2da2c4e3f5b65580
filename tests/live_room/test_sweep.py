"""A socket process's periodic work done once for all its sockets (live_room/sweep.py, docs/operations.md "The socket
tier"): the tokens checked in one statement, the topics' versions read once and only the sockets behind them
catching up (a lost wake-up still arrives, once), every socket's presence leases renewed in one statement, and
none of it reading anything per socket when nothing changed."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from knox.models import AuthToken

from live_room import topics
from live_room.presence import reads as presence_reads
from tests.live_room.sockets import game_view, play, quiet, receive, signed_in, subscribe
from tests.live_room.threads import in_thread
from tests.tournaments.live.helpers import simple_move
from tournaments.live.messaging import fanout
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.presence import services as presence_services
from tournaments.presence.models import PresenceLease

pytestmark = pytest.mark.django_db(transaction=True)


def run(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(scenario())


@pytest.fixture
def table_of_two(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """ann and bob at a public ring table with round 1 dealt (version 1)."""
    table = make_table()
    users = {name: make_player(name) for name in ("ann", "bob")}
    for user in users.values():
        assert client_for(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}).status_code == 200
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    game.refresh_from_db()
    return {"game": game, "users": users}


class Calls:
    """A function's calls, counted (the sockets' reads run in threads)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.args: list[tuple[Any, ...]] = []
        self.lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            self.args.append(args + tuple(kwargs.values()))
        return self.function(*args, **kwargs)


def test_nothing_changed_nothing_is_read_per_socket(
    table_of_two: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three sockets on one game, rechecked every 0.1 s: each recheck is one token statement for all of them and
    one versions read for all their topics; no socket reads its topic again, and nothing is sent."""
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.1
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]
    own = Calls(topics.read)
    tokens = Calls(topics.standing_digests)
    versions = Calls(topics.versions)
    monkeypatch.setattr(topics, "read", own)
    monkeypatch.setattr(topics, "standing_digests", tokens)
    monkeypatch.setattr(topics, "versions", versions)

    async def scenario() -> None:
        sockets = [await signed_in(users[name]) for name in ("ann", "ann", "bob")]
        for socket in sockets:
            assert (await subscribe(socket, f"game:{game_id}"))["type"] == "subscribed"
            assert (await receive(socket))["type"] == "events"  # the deal
        subscribed_reads = len(own.args)
        await asyncio.sleep(0.7)
        for socket in sockets:
            assert await quiet(socket, 0.05)
        assert len(own.args) == subscribed_reads, "a socket read its topic with nothing new"
        assert len(tokens.args) >= 3
        # Every call asked about all three sockets' tokens at once (each signed in with a token of its own).
        assert all(len(set(args[0])) == 3 for args in tokens.args[1:]), tokens.args
        assert len(versions.args) >= 3
        assert all([t.name for t in args[0]] == [f"game:{game_id}"] for args in versions.args)
        for socket in sockets:
            await socket.disconnect()

    run(scenario)


def test_a_lost_wake_up_is_brought_by_the_recheck_once(
    table_of_two: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move whose wake-up never reaches the socket process (Redis away, another process's write on the
    embedded default) reaches its sockets at the next recheck, each event once."""
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.3
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]
    monkeypatch.setattr(fanout, "version_on_commit", lambda **_kwargs: None)

    async def scenario() -> None:
        socket = await signed_in(users["ann"])
        assert (await subscribe(socket, f"game:{game_id}", after=1))["type"] == "subscribed"
        view = await game_view(users["ann"], game_id)
        mover = view["turn"]["player"]
        view = await game_view(users[mover], game_id)
        moved = int((await play(users[mover], game_id, simple_move(view), view["version"]))["version"])
        message = await receive(socket)
        assert message["type"] == "events" and [e["version"] for e in message["events"]] == [moved]
        assert await quiet(socket, 0.8)  # rechecks come and go: nothing sent twice
        await socket.disconnect()

    run(scenario)


def test_a_socket_whose_token_is_revoked_is_closed_and_the_others_stay(
    make_player: Any, settings: Any
) -> None:
    settings.RAMINO_SOCKET_RECHECK_SECONDS = 0.2
    ann, bob = make_player("ann"), make_player("bob")

    async def scenario() -> None:
        mine = await signed_in(ann)
        theirs = await signed_in(bob)
        await in_thread(lambda: ann.auth_token_set.all().delete())()
        error = await receive(mine)
        assert error["type"] == "error" and error["code"] == "auth.failed", error
        output = await mine.receive_output(timeout=5)
        assert output == {"type": "websocket.close", "code": 4401}, output
        await theirs.send_json_to({"type": "ping"})
        assert (await receive(theirs))["type"] == "pong"
        await theirs.disconnect()

    run(scenario)


def test_the_processs_sockets_renew_their_leases_in_one_statement(
    table_of_two: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.RAMINO_PRESENCE_SOCKET_LEASE_SECONDS = 0.9  # renewed every 0.3 s
    game_id = table_of_two["game"].pk
    users = table_of_two["users"]
    renew = Calls(presence_reads.renew)
    monkeypatch.setattr(presence_reads, "renew", renew)

    async def scenario() -> None:
        sockets = [await signed_in(users[name]) for name in ("ann", "bob")]
        for socket in sockets:
            assert (await subscribe(socket, f"game:{game_id}"))["type"] == "subscribed"
        await asyncio.sleep(1.2)
        assert renew.args, "no renewal"
        assert all(len(args[0]) == 2 for args in renew.args), renew.args  # both sockets' leases at once
        running = await in_thread(
            lambda: PresenceLease.objects.filter(game_id=game_id, expires_at__gt=timezone.now()).count()
        )()
        assert running == 2  # renewed past the 0.9 s they were taken for
        for socket in sockets:
            await socket.disconnect()

    run(scenario)


def test_a_renewal_runs_on_the_running_leases_only(table_of_two: Any) -> None:
    """A lease its socket ended (it left the game, the socket still open on others) is not revived by the
    process's renewal; one run out is taken again by its socket (recording the player's return), not renewed."""
    game_id = table_of_two["game"].pk
    ann, bob = table_of_two["users"]["ann"], table_of_two["users"]["bob"]
    presence_services.socket_subscribed(game_id=game_id, player_id=ann.pk, holder="socket-a")
    presence_services.socket_subscribed(game_id=game_id, player_id=bob.pk, holder="socket-b")
    presence_services.socket_left(holder="socket-b", game_ids=[game_id])
    assert presence_services.sockets_renew(holders=["socket-a", "socket-b", "socket-gone"]) == 1
    running = PresenceLease.objects.filter(expires_at__gt=timezone.now())
    assert list(running.values_list("holder", flat=True)) == ["socket-a"]


def test_the_tokens_that_still_stand_are_read_for_many_at_once(make_player: Any) -> None:
    ann, bob, cid = make_player("ann"), make_player("bob"), make_player("cid")
    _token, standing = AuthToken.objects.create(ann)
    _token, revoked = AuthToken.objects.create(ann)
    _token, inactive = AuthToken.objects.create(bob)
    _token, expired = AuthToken.objects.create(cid, expiry=timedelta(seconds=-1))
    AuthToken.objects.filter(digest=topics.token_digest(revoked)).delete()
    get_user_model().objects.filter(pk=bob.pk).update(is_active=False)
    digests = [topics.token_digest(t) for t in (standing, revoked, inactive, expired)]
    assert topics.standing_digests(digests) == {topics.token_digest(standing)}
    assert topics.standing_digests([]) == set()
