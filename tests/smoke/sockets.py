"""The smoke test's socket follower: a player follows the ring table's game over the live room's socket
(`/ws/v1/`, docs/api.md "Live socket") while the table plays, in a thread; afterwards every event must have
arrived once, in order, as the REST events read gives it to the same player, and the game's presence must have
shown the follower connected."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .api import Client, expect

# How long the follower may lag the REST read at the end (the worker's events reach it by the recheck, 1 s).
WAIT_SECONDS = 15.0


class Follower:
    def __init__(self, base: str, player: Client, game_id: int) -> None:
        self.player = player
        self.game_id = game_id
        self.url = base.replace("http://", "ws://", 1) + "/ws/v1/"
        self.events: list[dict[str, Any]] = []
        self.presence: list[dict[str, bool]] = []
        self.problems: list[str] = []
        self._stop = threading.Event()
        self._opened = contextlib.ExitStack()
        self._thread = threading.Thread(target=self._follow, name="smoke-socket", daemon=True)

    def start(self) -> None:
        token = str(self.player.http.session.headers["Authorization"]).split(" ", 1)[1]
        self.socket = self._opened.enter_context(connect(self.url, open_timeout=10))
        self.socket.send(json.dumps({"type": "auth", "token": token}))
        welcome = json.loads(self.socket.recv(timeout=10))
        expect(welcome.get("type") == "welcome", f"the socket refused the player's token: {welcome}")
        self.socket.send(json.dumps({"type": "subscribe", "topic": f"game:{self.game_id}", "after": 0}))
        subscribed = json.loads(self.socket.recv(timeout=10))
        expect(subscribed.get("type") == "subscribed", f"the socket refused the game: {subscribed}")
        self._thread.start()

    def _follow(self) -> None:
        while not self._stop.is_set():
            try:
                message = json.loads(self.socket.recv(timeout=0.5))
            except TimeoutError:
                continue
            except ConnectionClosed as closed:
                if not self._stop.is_set():
                    self.problems.append(f"the socket closed: {closed}")
                return
            if message.get("type") == "events":
                self.events.extend(message["events"])
            elif message.get("type") == "presence" and message.get("topic") == f"game:{self.game_id}":
                self.presence.append(message["players"])
            else:
                self.problems.append(f"unexpected message: {message}")

    def _last_version(self) -> int:
        return int(self.events[-1]["version"]) if self.events else 0

    def stop_and_check(self) -> int:
        """Every event the REST read gives this player arrived once, in order; answers how many."""
        rest: list[dict[str, Any]] = []
        after = 0
        while True:
            page = self.player.call("GET", f"/games/{self.game_id}/events/?after={after}")
            rest.extend(page["events"])
            if not page["events"]:
                break
            after = page["next_after"]
        last = rest[-1]["version"] if rest else 0
        deadline = time.monotonic() + WAIT_SECONDS
        while self._last_version() < last and time.monotonic() < deadline and self._thread.is_alive():
            time.sleep(0.1)
        self._stop.set()
        self._thread.join(timeout=5)
        self._opened.close()
        expect(not self.problems, f"socket follower: {self.problems}")
        name = self.player.username
        expect(
            any(players.get(name) is True for players in self.presence),
            f"the game's presence never showed {name} connected: {self.presence[-3:]}",
        )
        versions = [e["version"] for e in self.events]
        expect(versions == sorted(set(versions)), f"events repeated or out of order: {versions}")
        got = [e for e in self.events if e["version"] <= last]
        missing = sorted({e["version"] for e in rest} - set(versions))
        expect(not missing, f"the socket never sent the events of versions {missing} (of {len(rest)})")
        expect(len(got) == len(rest) > 0, f"the socket sent {len(got)} of the {len(rest)} events")
        differing = [(mine, theirs) for mine, theirs in zip(got, rest, strict=True) if mine != theirs]
        expect(not differing, f"the socket's events differ from the REST read's: {differing[:2]}")
        return len(self.events)
