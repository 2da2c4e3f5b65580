"""A multi-table tournament played through the real services in this process (`simulate_tournament --kind
multi`, the simulation tests and the benchmark's in-process timing).

Nothing goes to a broker: the messages are captured in order (`dispatch.captured`) and the driver runs the task bodies the worker would run, one at a time in that order: a round start
(`round_start.start_round`), the table's job after a round (`multi_progress.after_table_round`), a one-table job
(`tournament_progress.advance`). Turn clocks and claim windows are never waited for: the bots play every move
through `moves.submit_move` (what the HTTP API calls) and a claim window is closed at once (`run_close_claims`, as
its clock would). Between messages every table with a round in play gets one move, tables in primary-key order,
so the tables' rounds overlap as they do on a site: one ends and is balanced while others are mid-round.
With `instant_rounds` the round start ends each round at once with drawn scores (no move at all).

Determinism: under `seeded(seed)` every `secrets` the tournament code draws from (the deal, the seat draw, the
balancing planner's generator, instant rounds' scores) answers from one `random.Random(seed)`, and the order of
the steps depends only on the data, so the same seed gives the same standings. A simulation only: play never
does this.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from unittest import mock  # the seeded `secrets` only

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test.utils import override_settings
from django.utils import timezone

from tournaments import engine, tasks
from tournaments.deals.services import EXPIRE_DEAL
from tournaments.engine import bots as engine_bots
from tournaments.engine.bots import RandomBot
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress as multi_progress
from tournaments.multi_table import start as multi_start
from tournaments.multi_table.task_names import START_BATCH, TABLE_ROUND_OVER
from tournaments.single_table import progress as tournament_progress
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT
from tournaments.tournament.models import Tournament, TournamentStatus

MAX_STEPS = 2_000_000
# Messages whose work the driver does itself (bots move at once; claim windows are closed by the driver).
DROPPED = (dispatch.TURN_CLOCK, dispatch.CLOSE_CLAIMS, EXPIRE_DEAL)
# ...and what tells the players (notifications/: "your turn", their tournament started, their table moved).
DROPPED_PREFIX = "notifications."


class SeededSecrets:
    """What the dealing and drawing code asks of `secrets`, answered from one seeded generator."""

    compare_digest = staticmethod(secrets.compare_digest)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def SystemRandom(self) -> random.Random:
        return self.rng

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)

    def randbits(self, k: int) -> int:
        return self.rng.getrandbits(k)  # a batched start's seed (`multi_table.start`)

    def choice(self, seq: Sequence[Any]) -> Any:
        return self.rng.choice(seq)

    def token_hex(self, nbytes: int = 32) -> str:
        return f"{self.rng.getrandbits(8 * nbytes):0{2 * nbytes}x}"


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Every tournament module's `secrets` (and the deal's) drawn from `random.Random(seed)`."""
    import tournaments.tasks  # noqa: F401  (every service module the worker would load, loaded)

    shim = SeededSecrets(random.Random(seed))
    # The real module, held before the loop: a check against a global that a patch replaced would stop matching
    # the modules sorted after it.
    real = secrets
    with contextlib.ExitStack() as stack:
        for name, module in sorted(sys.modules.items()):
            if name.startswith("tournaments.") and getattr(module, "secrets", None) is real:
                stack.enter_context(mock.patch.object(module, "secrets", shim))
        yield


class CapturedDispatch:
    """The messages the services send on this thread, collected in order (`dispatch.captured`) instead of
    sent: a message is kept when it is enqueued, not at the commit (the driver runs one body at a time, after
    the previous one's commit)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[Any]]] = []
        self._context: contextlib.AbstractContextManager[list[tuple[str, list[Any]]]] | None = None

    def push(self, task_name: str, args: Sequence[Any]) -> None:
        self.messages.append((task_name, list(args)))

    def pop(self) -> tuple[str, list[Any]]:
        return self.messages.pop(0)

    def __bool__(self) -> bool:
        return bool(self.messages)

    def __enter__(self) -> CapturedDispatch:
        self._context = dispatch.captured()
        self.messages = self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._context is not None
        self._context.__exit__(*exc)


@dataclass(frozen=True)
class Step:
    """One task body run (or one bot move): `name` is the task's name or "move" / "close_claims"."""

    name: str
    args: tuple[Any, ...]


class Observer:
    """Called around every step (the tests check their invariants here). The default does nothing."""

    def before(self, step: Step) -> None:
        return None

    def after(self, step: Step, result: Any) -> None:
        return None


@dataclass
class Outcome:
    tournament: Tournament
    steps: dict[str, int] = field(default_factory=dict)
    moves: int = 0


class Driver:
    """Runs the captured messages and the bots' moves until the tournament is over."""

    def __init__(
        self,
        tournament_id: int,
        queue: CapturedDispatch,
        *,
        bots: str = "greedy",
        seed: int = 0,
        observer: Observer | None = None,
        max_steps: int = MAX_STEPS,
    ) -> None:
        self.tournament_id = tournament_id
        self.queue = queue
        self.bots = bots
        self.seed = seed
        self.observer = observer or Observer()
        self.max_steps = max_steps
        self.random_bots: dict[str, RandomBot] = {}
        self.users: dict[str, Any] = {}
        self.outcome = Outcome(tournament=Tournament.objects.get(pk=tournament_id))

    def run(self) -> Outcome:
        for _ in range(self.max_steps):
            if self.queue:
                self._message(*self.queue.pop())
                continue
            status = Tournament.objects.values_list("status", flat=True).get(pk=self.tournament_id)
            if status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
                break
            if not self._one_move_per_table():
                # Nothing queued, nothing in play, not over: what beat's sweeper would re-send.
                self._step(Step("sweep", ()), lambda: tasks.sweep_all(grace_seconds=0))
                if not self.queue:
                    raise RuntimeError(f"tournament {self.tournament_id} stalled ({status})")
        else:
            raise RuntimeError(f"tournament {self.tournament_id} not over after {self.max_steps} steps")
        self.outcome.tournament.refresh_from_db()
        return self.outcome

    def _step(self, step: Step, body: Callable[[], Any]) -> Any:
        self.observer.before(step)
        result = body()
        self.outcome.steps[step.name] = self.outcome.steps.get(step.name, 0) + 1
        self.observer.after(step, result)
        return result

    def _message(self, name: str, args: list[Any]) -> None:
        if name in DROPPED or name.startswith(DROPPED_PREFIX):
            return
        if name == dispatch.START_ROUND:

            def deal() -> Any:
                # Due now: the pause between rounds is not waited for.
                Game.objects.filter(pk=args[0], next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                return round_start.start_round(game_id=args[0])

            self._step(Step(name, tuple(args)), deal)
        elif name == TABLE_ROUND_OVER:
            self._step(
                Step(name, tuple(args)),
                lambda: multi_progress.after_table_round(
                    tournament_id=args[0], table_id=args[1], round_id=args[2]
                ),
            )
        elif name == START_BATCH:  # a large field's start, one step a message (`multi_table.start`)
            self._step(Step(name, tuple(args)), lambda: multi_start.seat_next_batch(tournament_id=args[0]))
        elif name == ADVANCE_TOURNAMENT:
            self._step(
                Step(name, tuple(args)),
                lambda: tournament_progress.advance(tournament_id=args[0], round_id=args[1]),
            )
        else:
            raise RuntimeError(f"the simulation does not run {name}")

    def _one_move_per_table(self) -> bool:
        games = list(
            Game.objects.filter(table__tournament_id=self.tournament_id, status=GameStatus.PLAYING).order_by(
                "pk"
            )
        )
        for game in games:
            if game.claims_deadline is not None:
                Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
                self._close_claims(game.pk, game.version)
            else:
                self._move(game)
        return bool(games)

    def _close_claims(self, game_id: int, version: int) -> None:
        self._step(
            Step("close_claims", (game_id,)),
            lambda: clock_runs.run_close_claims(game_id=game_id, version=version),
        )

    def _move(self, game: Game) -> None:
        assert game.state is not None
        state = engine.state_from_dict(game.state)
        name = game.turn_player or state.may_act[0]
        if name not in self.users:
            self.users[name] = get_user_model().objects.get(username=name)
        if self.bots == "random":
            bot = self.random_bots.setdefault(name, RandomBot(self.seed * 100_003 + len(self.random_bots)))
            move = dict(bot.choose(state, name))
        else:
            move = dict(engine_bots.greedy_move(state, name))
        self.outcome.moves += 1
        self._step(
            Step("move", (game.pk, name)),
            lambda: moves.submit_move(
                user=self.users[name],
                game_id=game.pk,
                move=move,
                expected_version=game.version,
                idempotency_key=None,
            ),
        )


def play_out(
    tournament_id: int,
    *,
    bots: str = "greedy",
    seed: int = 0,
    observer: Any = None,
    start: Callable[[], Any],
) -> Outcome:
    """Start the tournament with `start()` (the real start, e.g. `tournament_admin.start`) and drive it to its
    end, seeded, with no pause between rounds and every message captured."""
    with (
        seeded(seed),
        CapturedDispatch() as queue,
        override_settings(RAMINO_NEXT_ROUND_DELAY_SECONDS=0),
    ):
        assert float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS) == 0
        observer = observer or Observer()
        step = Step("start", (tournament_id,))
        observer.before(step)
        result = start()
        observer.after(step, result)
        driver = Driver(tournament_id, queue, bots=bots, seed=seed, observer=observer)
        return driver.run()


def default_payouts(entrants: int) -> list[int]:
    """About a fifth of the field paid (at least the winner)."""
    if entrants <= 4:
        return [100]
    if entrants <= 10:
        return [65, 35]
    if entrants <= 20:
        return [50, 30, 20]
    return [30, 20, 14, 10, 8, 7, 6, 5]


def create_multi(
    admin: Any,
    *,
    name: str,
    entrants: int,
    seats: int,
    buy_in: int,
    fee: int,
    starting_stack: int,
    pcr_schedule: Sequence[int],
    rounds_per_level: int,
    payouts: Sequence[int],
    instant: bool,
    game: str = "rummy500",
    options: dict[str, Any] | None = None,
    guarantee: int = 0,
    formats: dict[str, Any] | None = None,
) -> Tournament:
    """A multi-table tournament open for registration, with its prize pool account (the row written as the
    services' own tests write it: `instant_rounds` is no setting a client may choose)."""
    from ledger.models import SITE_CHIPS, AccountKind
    from ledger.services import accounts

    tournament = Tournament.objects.create(
        name=name,
        kind="multi",
        game=game,
        options=options or {},
        buy_in=buy_in,
        fee=fee,
        guarantee=guarantee,
        starting_stack=starting_stack,
        seats=seats,
        pcr_schedule=list(pcr_schedule),
        rounds_per_level=rounds_per_level,
        min_entrants=2,
        max_entrants=max(entrants, 2),
        starts_at=timezone.now(),
        payouts=list(payouts),
        status=TournamentStatus.REGISTERING,
        instant_rounds=instant,
        created_by=admin,
        **(formats or {}),  # rebuys, the add-on, bounties (`tournament.formats.options`)
    )
    tournament.pool_account = accounts.open_account(
        kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}"
    )
    tournament.save(update_fields=["pool_account"])
    return tournament


def standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Every entry by place (then registration): username, place, prize, re-entries, times moved."""
    from tournaments.tournament.models import TournamentEntry

    rows = (
        TournamentEntry.objects.filter(tournament=tournament)
        .order_by("place", "registered_at", "pk")
        .values(
            "player__username",
            "place",
            "prize",
            "reentries",
            "times_moved",
            "status",
            "rebuys",
            "addon",
            "bounties_won",
        )
    )
    return [
        {
            "username": row["player__username"],
            "place": row["place"],
            "prize": row["prize"],
            "reentries": row["reentries"],
            "times_moved": row["times_moved"],
            "status": row["status"],
            "rebuys": row["rebuys"],
            "addon": row["addon"],
            "bounties_won": row["bounties_won"],
        }
        for row in rows
    ]
