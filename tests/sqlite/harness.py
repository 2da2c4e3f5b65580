"""The embedded default's site in one process, for the SQLite leg: players and staff as HTTP clients (Django's
test client: every request through the real URLs, views, authentication and idempotency), and the worker's
part done here: the messages the services send are captured in order (`dispatch.captured`) and the Celery
tasks' own bodies run from them, one at a time, each after the request or task that sent it.

Turn clocks and claim windows are not waited for: the bots move at once, a claim window is closed by running
its task when the bots have nothing to claim (its deadline moved to now), and a test that wants a timeout
moves a turn's deadline to now and runs the clock's task (`fire_turn_clock`). When nothing is queued and
nothing is in play the driver runs the sweeper as beat would (`sweep_clocks`); a tournament that still does not
move is reported as stalled."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from celery import current_app
from django.db.models import QuerySet
from django.utils import timezone
from rest_framework.test import APIClient

import tournaments.tasks  # noqa: F401  (the task bodies, registered with the Celery app as a worker has them)
from tests.clients import api_client, signed_in
from tests.factories import AdminFactory
from tournaments import engine, tasks
from tournaments.engine import bots as engine_bots
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus

# Clock messages: the driver fires clocks itself (see the module's docstring).
CLOCKS = (dispatch.TURN_CLOCK, dispatch.CLOSE_CLAIMS)
MAX_STEPS = 20_000


class Player:
    """A signed-up user with a token, calling the API (`/api/v1` + path)."""

    def __init__(self, name: str, client: APIClient) -> None:
        self.name = name
        self.client = client

    def call(
        self, method: str, path: str, body: Any = None, *, key: str | None = None, expect: int = 200
    ) -> Any:
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        response = getattr(self.client, method.lower())(f"/api/v1{path}", body, format="json", **headers)
        assert response.status_code == expect, (method, path, response.status_code, response.content[:500])
        return response.json() if response.content else None

    def post(self, path: str, body: Any = None, *, expect: int = 200) -> Any:
        """A POST with a fresh idempotency key, as docs/api.md tells a client to send every action."""
        return self.call("POST", path, body, key=uuid.uuid4().hex, expect=expect)

    def get(self, path: str, *, expect: int = 200) -> Any:
        return self.call("GET", path, expect=expect)


class Site:
    """The clients, the captured messages and the in-process worker of one test."""

    def __init__(self, queue: list[tuple[str, list[Any]]]) -> None:
        self.queue = queue
        self.ran: dict[str, int] = {}
        self.moves = 0
        self.users: dict[str, Player] = {}

    # ------------------------------------------------------------------------------------------- people

    def _signed_in(self, name: str, password: str) -> Player:
        player = self.users[name] = Player(name, signed_in(name, password))
        return player

    def admin(self, name: str = "boss") -> Player:
        """A superuser (made as `createsuperuser` would: the API has no way to make one), signed in."""
        password = f"pw-{uuid.uuid4().hex}"
        AdminFactory.create(username=name, password=password)
        return self._signed_in(name, password)

    def player(self, name: str, *, chips: int, admin: Player) -> Player:
        """A player signed up through `/auth/register/`, signed in, wallet credited by an admin's adjustment."""
        password = f"pw-{uuid.uuid4().hex}"
        signup = api_client().post(
            "/api/v1/auth/register/", {"username": name, "password": password, "date_of_birth": "1990-01-01"}
        )
        assert signup.status_code == 201, signup.content
        if chips:
            admin.post(
                "/ledger/adjustments/",
                {"username": name, "amount": chips, "reason": "sqlite leg"},
                expect=201,
            )
        return self._signed_in(name, password)

    # ------------------------------------------------------------------------------------------- worker

    def run_messages(self) -> None:
        """Run every captured message's task body in order (those they send included); clocks are skipped."""
        # Every app's tasks registered, as a worker's start imports them (the notifications' included).
        current_app.loader.import_default_modules()
        while self.queue:
            name, args = self.queue.pop(0)
            if name in CLOCKS:
                continue
            current_app.tasks[name].run(*args)
            self.ran[name] = self.ran.get(name, 0) + 1

    def fire_turn_clock(self, game: Game) -> bool:
        """The turn's deadline passed and its clock's task run (the message armed for the turn's version): the
        server plays the turn."""
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        played = bool(current_app.tasks[dispatch.TURN_CLOCK].run(game.pk, game.turn_version))
        self.ran[dispatch.TURN_CLOCK] = self.ran.get(dispatch.TURN_CLOCK, 0) + 1
        return played

    def move(self, game: Game, *, key: str | None = "fresh") -> Any:
        """The player to act at `game` makes the greedy bot's move over HTTP (with a fresh key by default)."""
        assert game.state is not None
        state = engine.state_from_dict(game.state)
        name = game.turn_player or state.may_act[0]
        body = {**engine_bots.greedy_move(state, name), "expected_version": game.version}
        self.moves += 1
        idempotency_key = uuid.uuid4().hex if key == "fresh" else key
        return self.users[name].call("POST", f"/games/{game.pk}/moves/", body, key=idempotency_key)

    def step(self, games: QuerySet[Game]) -> bool:
        """One move (or claim window closed) at every game of `games` in play, in id order; False when none
        is in play."""
        playing = list(games.filter(status=GameStatus.PLAYING).order_by("pk"))
        for game in playing:
            if game.claims_deadline is not None:
                Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
                current_app.tasks[dispatch.CLOSE_CLAIMS].run(game.pk, game.version)
            else:
                self.move(game)
        return bool(playing)

    def play(
        self,
        games: Callable[[], QuerySet[Game]],
        *,
        until: Callable[[], bool],
        check: Callable[[], object] | None = None,
    ) -> None:
        """Run messages and moves until `until()`; it is checked before each batch of messages, so a test can
        stop between a round's end and the next deal. `check()` runs before every batch and step."""
        for _ in range(MAX_STEPS):
            if check is not None:
                check()
            if until():
                return
            if self.queue:
                self.run_messages()
                continue
            if not self.step(games()):
                # Nothing queued, nothing in play, not done: what beat's sweeper would re-send.
                tasks.sweep_all(grace_seconds=0)
                if not self.queue:
                    raise AssertionError("stalled: nothing queued, nothing in play")
        raise AssertionError(f"not done after {MAX_STEPS} steps")


@contextmanager
def site() -> Iterator[Site]:
    with dispatch.captured() as queue:
        yield Site(queue)
