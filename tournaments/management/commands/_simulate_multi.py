"""`simulate_tournament --kind multi`: players funded and registered, the real start, then the tournament driven
in this process by `tournaments.multi_table.simulation`; standings, prizes, events and the reconciliation printed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, OutputWrapper
from django.db.models import Count

from ledger.selectors import reconcile
from ledger.services import postings
from tournaments.errors import PlayError
from tournaments.multi_table import simulation
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import Tournament, TournamentEvent


def _ints(text: str, what: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise CommandError(f"--{what}: comma-separated integers") from exc
    return values


def simulate(options: dict[str, Any], out: OutputWrapper) -> Tournament:
    entrants = int(options["entrants"])
    if not 2 <= entrants <= 100_000 or not 2 <= options["seats"] <= 10:
        raise CommandError("--entrants 2..100000 and --seats 2..10")
    payouts = _ints(options["payouts"], "payouts") or simulation.default_payouts(entrants)
    schedule = _ints(options["pcr_schedule"], "pcr-schedule")
    if sum(payouts) != 100 or len(payouts) > entrants or not schedule:
        raise CommandError(
            "--payouts must sum to 100 over at most --entrants places; --pcr-schedule non-empty"
        )
    try:
        tournament = _play(options, entrants=entrants, payouts=payouts, schedule=schedule)
    except PlayError as exc:
        raise CommandError(f"{exc.code}: {exc.message}") from exc
    report(tournament, out)
    return tournament


def _play(options: dict[str, Any], *, entrants: int, payouts: list[int], schedule: list[int]) -> Tournament:
    User = get_user_model()
    run = Tournament.objects.aggregate(n=Count("id"))["n"] + 1
    admin, _ = User.objects.get_or_create(
        username="simulator", defaults={"is_superuser": True, "is_staff": True}
    )
    cost = options["buy_in"] + options["fee"]
    players = [User.objects.get_or_create(username=f"sim{run}-p{i + 1}")[0] for i in range(entrants)]
    if cost:
        for user in players:
            postings.adjust_wallet(
                user=user,
                amount=cost,
                reason="simulate_tournament",
                idempotency_key=f"simulate:{run}:{user.get_username()}",
                posted_by=admin,
            )
    tournament = simulation.create_multi(
        admin,
        name=f"simulation {run} (seed {options['seed']})",
        entrants=entrants,
        seats=options["seats"],
        buy_in=options["buy_in"],
        fee=options["fee"],
        starting_stack=options["starting_stack"],
        pcr_schedule=schedule,
        rounds_per_level=options["rounds_per_level"],
        payouts=payouts,
        instant=options["instant"],
    )
    for user in players:
        registration.register(user=user, tournament_id=tournament.pk)
    outcome = simulation.play_out(
        tournament.pk,
        bots=options["bots"],
        seed=options["seed"],
        start=lambda: admin_actions.start(tournament_id=tournament.pk),
    )
    return outcome.tournament


def report(tournament: Tournament, out: OutputWrapper) -> None:
    tournament.refresh_from_db()
    out.write(f"tournament {tournament.pk} ({tournament.kind}): {tournament.status}")
    out.write("place  player  prize  re-entries  moved")
    rows = simulation.standings(tournament)
    for row in rows:
        label = row["username"].split("-", 1)[-1]
        out.write(
            f"{row['place']!s:>5}  {label:<6}  {row['prize']:>5}  {row['reentries']:>10}  {row['times_moved']:>5}"
        )
    pool = tournament.buy_in * sum(1 + row["reentries"] for row in rows)
    paid = sum(row["prize"] for row in rows)
    events = TournamentEvent.objects.filter(tournament=tournament).count()
    out.write(
        f"entrants {len(rows)}, pool {max(pool, tournament.guarantee)}, paid {paid}, "
        f"tournament events {events}"
    )
    reconciliation = reconcile()
    out.write(f"reconciliation: {'ok' if reconciliation.ok else reconciliation.problems}")
