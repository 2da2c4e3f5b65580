"""`manage.py simulate_tournament --kind quick|single|multi --entrants N --bots greedy|random --seed S`: a
tournament played by bots through the real services — real registrations paid with real chips, every move
through `moves.submit_move` (what the HTTP API calls), each deal and each after-round job run by the same
functions the Celery tasks run (in this process, in order, instead of on a worker) — then its standings, prizes
and the ledger's reconciliation are printed.

The same seed gives the same standings: for the run, the seat draw, the first dealer and every shuffle take their
randomness from a generator seeded with S instead of the CSPRNG (a simulation only; play never does this).

`--kind multi` (also `--instant`, `--seats`, `--starting-stack`, `--pcr-schedule`, `--rounds-per-level`,
`--payouts`, `--deal icm|chips`: a final-table deal proposed and accepted by everyone) plays a multi-table tournament: registered through `registration.register`, started through
`tournament_admin.start`, then driven by `devtools.multi_table_simulation` (the messages the services send are
captured and their task bodies run here in order; with `--instant` the tournament's instant rounds replace
the bots' moves). It prints the standings, the prizes, the number of tournament events and the reconciliation.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count
from django.utils import timezone

from devtools.multi_table_simulation import SeededSecrets
from devtools.simulate_multi import write_tickets
from ledger.selectors import reconcile
from ledger.services import postings
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.engine.bots import RandomBot
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, Round, Table
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start
from tournaments.single_table import progress
from tournaments.tournament import registration, selectors, setup
from tournaments.tournament.models import Tournament, TournamentStatus

MAX_ROUNDS = 300
MAX_MOVES_PER_ROUND = 5000


@contextlib.contextmanager
def _seeded_and_in_process(seed: int) -> Iterator[None]:
    shim = SeededSecrets(random.Random(seed))
    with (
        mock.patch("tournaments.engine.deal.secrets", shim),
        mock.patch("tournaments.single_table.start.secrets", shim),
        # The tasks' bodies run here, in order: no message goes to a broker (nor to a worker that would race).
        mock.patch.object(dispatch, "send", lambda *args, **kwargs: None),
    ):
        yield


class Command(BaseCommand):
    help = (
        "Play a quick game or a sit-and-go with bots through the real services; print standings and prizes."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--kind", choices=["quick", "single", "multi"], required=True)
        parser.add_argument("--entrants", type=int, default=3)
        parser.add_argument("--bots", choices=["greedy", "random"], default="greedy")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--rounds", type=int, default=2, help="quick: rounds played (1-3)")
        parser.add_argument("--target-score", type=int, default=100, help="single: the total that ends it")
        parser.add_argument("--buy-in", type=int, default=100)
        parser.add_argument("--fee", type=int, default=10)
        parser.add_argument("--instant", action="store_true", help="multi: instant rounds (drawn scores)")
        parser.add_argument("--seats", type=int, default=4, help="multi: seats per table")
        parser.add_argument("--starting-stack", type=int, default=300, help="multi: tournament chips each")
        parser.add_argument(
            "--pcr-schedule", default="1,2,3,5,8,12,20,30,50", help="multi: PCR by level (comma-separated)"
        )
        parser.add_argument(
            "--rounds-per-level", type=int, default=1, help="multi: rounds of a table per level"
        )
        parser.add_argument(
            "--payouts", default="", help="multi: percentages by place (default: a fifth paid)"
        )
        parser.add_argument(
            "--satellite-to",
            type=int,
            default=None,
            help="a satellite: the id of the tournament whose tickets are its prizes",
        )
        parser.add_argument("--rebuy-levels", type=int, default=0, help="multi: rebuys during levels 1..this")
        parser.add_argument("--rebuy-cost", type=int, default=None, help="multi: a rebuy's cost [the buy-in]")
        parser.add_argument(
            "--max-rebuys", type=int, default=0, help="multi: most rebuys per entry (0: no limit)"
        )
        parser.add_argument("--addon-chips", type=int, default=0, help="multi: the add-on's chips (0: none)")
        parser.add_argument(
            "--bounty-share", type=int, default=0, help="multi: percent of the buy-in as bounty"
        )
        parser.add_argument(
            "--rebuy-odds",
            type=float,
            default=0.5,
            help="multi: how often a busted bot rebuys (and takes the add-on); one short of chips (at most the "
            "starting stack), half as often",
        )
        parser.add_argument(
            "--deal",
            choices=["icm", "chips"],
            default=None,
            help="multi: at the final table, a deal of this kind proposed and accepted by every player",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["kind"] == "multi":
            from devtools import simulate_multi as _simulate_multi

            _simulate_multi.simulate(options, self.stdout)
            return
        try:
            with _seeded_and_in_process(options["seed"]):
                tournament = self._play(options)
        except Exception as exc:
            from tournaments.errors import PlayError

            if isinstance(exc, PlayError):
                raise CommandError(f"{exc.code}: {exc.message}") from exc
            raise
        self._report(tournament)

    def _play(self, options: dict[str, Any]) -> Tournament:
        User = get_user_model()
        run = Tournament.objects.aggregate(n=Count("id"))["n"] + 1
        admin, _ = User.objects.get_or_create(
            username="simulator", defaults={"is_superuser": True, "is_staff": True}
        )
        cost = options["buy_in"] + options["fee"]
        names = [f"sim{run}-p{i + 1}" for i in range(options["entrants"])]
        players = [User.objects.get_or_create(username=name)[0] for name in names]
        for user in players:
            postings.adjust_wallet(
                user=user,
                amount=cost,
                reason="simulate_tournament",
                idempotency_key=f"simulate:{run}:{user.get_username()}",
                posted_by=admin,
            )
        quick = options["kind"] == "quick"
        tournament = setup.create_tournament(
            user=admin,
            settings={
                "name": f"simulation {run} (seed {options['seed']})",
                "kind": options["kind"],
                "game": "rummy500",
                "options": {},
                "buy_in": options["buy_in"],
                "fee": options["fee"],
                "max_entrants": options["entrants"],
                "rounds": options["rounds"] if quick else None,
                "target_score": None if quick else options["target_score"],
                "payouts": [70, 30] if options["entrants"] > 2 else [100],
                "satellite_target_id": options.get("satellite_to"),
            },
        )
        for user in players:
            registration.register(user=user, tournament_id=tournament.pk)
        bots = {name: RandomBot(options["seed"] * 10 + i) for i, name in enumerate(names)}
        game = Game.objects.get(table=Table.objects.get(tournament=tournament))
        for _ in range(MAX_ROUNDS):
            tournament.refresh_from_db()
            if tournament.status != TournamentStatus.RUNNING:
                break
            Game.objects.filter(pk=game.pk).update(next_round_at=None)
            if round_start.start_round(game_id=game.pk) is None:
                raise CommandError("the next round could not be dealt")
            round_ = self._play_round(game, bots if options["bots"] == "random" else None)
            progress.advance(tournament_id=tournament.pk, round_id=round_.pk)
        return tournament

    def _play_round(self, game: Game, bots: dict[str, RandomBot] | None) -> Round:
        users = {}
        for _ in range(MAX_MOVES_PER_ROUND):
            game.refresh_from_db()
            if game.status != GameStatus.PLAYING:
                round_ = Round.objects.filter(game=game).order_by("-number").first()
                assert round_ is not None
                return round_
            if game.claims_deadline is not None:
                Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
                clock_runs.run_close_claims(game_id=game.pk, version=game.version)
                continue
            assert game.state is not None
            state = engine.state_from_dict(game.state)
            name = game.turn_player or state.may_act[0]
            if name not in users:
                users[name] = get_user_model().objects.get(username=name)
            move = bots[name].choose(state, name) if bots else engine_bots.greedy_move(state, name)
            moves.submit_move(
                user=users[name],
                game_id=game.pk,
                move=dict(move),
                expected_version=game.version,
                idempotency_key=None,
            )
        raise CommandError("a round did not end")

    def _report(self, tournament: Tournament) -> None:
        tournament.refresh_from_db()
        out = self.stdout
        out.write(f"tournament {tournament.pk} ({tournament.kind}): {tournament.status}")
        out.write("place  player  total  tie-break  prize")
        for row in selectors.standings(tournament=tournament):
            label = row.username.split("-", 1)[-1]
            tiebreak = "" if row.tiebreak_total is None else row.tiebreak_total
            out.write(f"{row.place!s:>5}  {label:<6}  {row.total:>5}  {tiebreak!s:>9}  {row.prize:>5}")
        report = selectors.payouts(tournament=tournament)
        out.write(
            f"entrants {report.entrants}, buy-ins {report.buy_ins}, fees {report.fees}, "
            f"pool {report.prize_pool}, paid {sum(p.amount for p in report.prizes)}"
        )
        write_tickets(tournament, out)
        reconciliation = reconcile()
        out.write(f"reconciliation: {'ok' if reconciliation.ok else reconciliation.problems}")
