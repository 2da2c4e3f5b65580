"""Measure the integrity signals on simulated private tables (devtools.integrity_simulation; no database).

    python manage.py simulate_integrity --tables 50 --honest-tables 200 --rounds 25 --seats 2 --seed 1 --farms 20

prints, per behaviour, how many colluding pairs the signals flagged (detection) and how many honest pairs
they flagged (false positives); with `--farms`, how many grant farms were flagged and how many honest regulars
who beat as many new players; docs/performance.md "Integrity signals" and docs/integrity.md report runs."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from devtools import integrity_simulation as simulation
from integrity import selectors


class Command(BaseCommand):
    help = "Measure detection and false-positive rates of the integrity signals over simulated tables."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=20, help="Dumping tables, and soft-playing tables.")
        parser.add_argument(
            "--honest-tables", type=int, default=None, help="Honest tables (default: --tables)."
        )
        parser.add_argument("--rounds", type=int, default=25, help="Rounds at each table.")
        parser.add_argument("--seats", type=int, default=2)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--game", default="rummy500")
        parser.add_argument(
            "--bots",
            choices=["greedy", "random", "mixed"],
            default="greedy",
            help="The honest players (mixed: one random).",
        )
        parser.add_argument(
            "--farms", type=int, default=0, help="Grant farms, and regulars beating new players (0: none)."
        )
        parser.add_argument("--farm-accounts", type=int, default=6, help="New accounts in each farm.")
        parser.add_argument("--farm-rounds", type=int, default=1, help="Rounds each farm account plays.")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        rates, tables = simulation.measure(
            tables=options["tables"],
            honest_tables=options["honest_tables"],
            rounds=options["rounds"],
            seats=options["seats"],
            seed=options["seed"],
            game=options["game"],
            bots=options["bots"],
            thresholds=selectors.thresholds(),
            farms=options["farms"],
            farm_accounts=options["farm_accounts"],
            farm_rounds=options["farm_rounds"],
        )
        rounds = sum(len(t.rounds) for t in tables)
        self.stdout.write(f"{len(tables)} tables, {rounds} rounds in {time.perf_counter() - started:.1f} s")
        for behaviour in ("dumping", "soft"):
            n = rates.tables[behaviour]
            found = rates.detected[behaviour]
            self.stdout.write(
                f"{behaviour}: {found}/{n} colluding pairs flagged ({100 * found / max(n, 1):.1f}%)"
            )
        self.stdout.write(
            f"honest pairs flagged: {rates.false_positive_pairs}/{rates.honest_pairs} "
            f"({100 * rates.false_positive_pairs / max(rates.honest_pairs, 1):.1f}%)"
        )
        if rates.farms:
            self.stdout.write(
                f"grant farming: {rates.farms_detected}/{rates.farms} farms flagged "
                f"({100 * rates.farms_detected / rates.farms:.1f}%); regulars beating as many new players "
                f"flagged: {rates.regulars_flagged}/{rates.regulars}"
            )
        if rates.bystander_pairs:
            self.stdout.write(
                f"a colluder with an honest player flagged: {rates.bystanders_flagged}/{rates.bystander_pairs}"
            )
