"""`simulate_tournament --kind multi`: players funded and registered, the real start, then the tournament driven
in this process by `devtools.multi_table_simulation`; standings, prizes, events and the reconciliation printed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, OutputWrapper
from django.db.models import Count, Sum

from devtools import multi_table_simulation as simulation
from devtools.format_bots import FormatBots
from ledger.models import Entry
from ledger.selectors import reconcile
from ledger.services import postings
from tournaments.deals import services as deals
from tournaments.deals.models import Deal, DealStatus
from tournaments.errors import PlayError
from tournaments.live.models import SEATED_STATUSES, Seat
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.satellites import settings as satellite_settings
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentEvent, TournamentStatus


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


class DealMaker(simulation.Observer):
    """`--deal icm|chips`: once the final table is between rounds (its job just ran), its first player from the
    dealer's left proposes a deal of that kind and every other player accepts it (docs/rules.md "The final-table
    deal"); a proposal refused for now (nothing unpaid yet, late registration open) is tried after the next job."""

    def __init__(self, tournament_id: int, method: str) -> None:
        self.tournament_id = tournament_id
        self.method = method
        self.made = False

    def after(self, step: simulation.Step, result: Any) -> None:
        if self.made or step.name != TABLE_ROUND_OVER:
            return
        tournament = Tournament.objects.get(pk=self.tournament_id)
        if tournament.status != TournamentStatus.RUNNING or tournament.tables_open != 1:
            return
        seats = Seat.objects.filter(
            table__tournament=tournament, status__in=SEATED_STATUSES, stack_account__balance__gt=0
        ).select_related("player")
        players = {s.player.get_username(): s.player for s in seats}
        if len(players) < 2:
            return
        try:
            deal = deals.propose(
                user=next(iter(players.values())), tournament_id=tournament.pk, method=self.method
            )
        except PlayError:
            return
        for name in deal.players:
            if name not in deal.answers:
                deal = deals.answer(
                    user=players[name], tournament_id=tournament.pk, deal_id=deal.pk, accept=True
                )
        self.made = True


def _play(options: dict[str, Any], *, entrants: int, payouts: list[int], schedule: list[int]) -> Tournament:
    User = get_user_model()
    run = Tournament.objects.aggregate(n=Count("id"))["n"] + 1
    admin, _ = User.objects.get_or_create(
        username="simulator", defaults={"is_superuser": True, "is_staff": True}
    )
    formats = _formats(options)
    # Enough for the entry and every rebuy and add-on a bot may buy.
    buys = (
        1
        + (options.get("max_rebuys") or 5 if formats["rebuy_levels"] else 0)
        + (1 if formats["addon_chips"] else 0)
    )
    cost = (options["buy_in"] + options["fee"]) * buys
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
        formats=formats,
    )
    if options.get("satellite_to"):
        # A satellite (docs/rules.md "Tickets and satellites"): the target checked as the API checks it.
        target = satellite_settings.check(
            satellite_target=options["satellite_to"], satellite_template=None, tickets_only=False
        )
        Tournament.objects.filter(pk=tournament.pk).update(satellite_target_id=target["satellite_target_id"])
    for user in players:
        registration.register(user=user, tournament_id=tournament.pk)
    method = options.get("deal") or ""
    outcome = simulation.play_out(
        tournament.pk,
        bots=options["bots"],
        seed=options["seed"],
        start=lambda: admin_actions.start(tournament_id=tournament.pk),
        observer=FormatBots(
            tournament.pk,
            seed=options["seed"],
            rebuy_odds=float(options.get("rebuy_odds") or 0),
            addon_odds=float(options.get("rebuy_odds") or 0),
            # A bot short of chips (at most the starting stack) rebuys too, half as often: without it a run
            # whose stacks outlast the rebuy period (the defaults) would buy none.
            short_odds=float(options.get("rebuy_odds") or 0) / 2,
            inner=DealMaker(tournament.pk, method) if method else None,
        ),
    )
    return outcome.tournament


def _formats(options: dict[str, Any]) -> dict[str, Any]:
    """The rebuy, add-on and knockout options of the command line (off by default)."""
    levels = int(options.get("rebuy_levels") or 0)
    cost = options.get("rebuy_cost")
    cost = options["buy_in"] if cost is None else int(cost)
    addon = int(options.get("addon_chips") or 0) if levels else 0
    return {
        "rebuy_levels": levels,
        "rebuy_cost": cost if levels else 0,
        "rebuy_fee": options["fee"] if levels else 0,
        "max_rebuys": int(options.get("max_rebuys") or 0) if levels else 0,
        "addon_cost": cost if addon else 0,
        "addon_fee": options["fee"] if addon else 0,
        "addon_chips": addon,
        "addon_seconds": 0,
        "bounty_share": int(options.get("bounty_share") or 0),
    }


def report(tournament: Tournament, out: OutputWrapper) -> None:
    tournament.refresh_from_db()
    out.write(f"tournament {tournament.pk} ({tournament.kind}): {tournament.status}")
    out.write("place  player  prize  re-entries  moved  rebuys  add-on  bounties")
    rows = simulation.standings(tournament)
    for row in rows:
        label = row["username"].split("-", 1)[-1]
        out.write(
            f"{row['place']!s:>5}  {label:<6}  {row['prize']:>5}  {row['reentries']:>10}  {row['times_moved']:>5}"
            f"  {row['rebuys']:>6}  {'yes' if row['addon'] else 'no':>6}  {row['bounties_won']:>8}"
        )
    # What went into the pool (buy-ins less bounties, rebuys, add-ons, the guarantee), read from the ledger.
    assert tournament.pool_account_id is not None
    pool = (
        Entry.objects.filter(account_id=tournament.pool_account_id, amount__gt=0).aggregate(s=Sum("amount"))[
            "s"
        ]
        or 0
    )
    paid = sum(row["prize"] for row in rows)
    bounties = sum(row["bounties_won"] for row in rows)
    events = TournamentEvent.objects.filter(tournament=tournament).count()
    out.write(
        f"entrants {len(rows)}, pool {pool}, paid {paid}, tournament events {events}, bounties paid {bounties}, "
        f"rebuys {sum(row['rebuys'] for row in rows)}, add-ons {sum(1 for row in rows if row['addon'])}"
    )
    for deal in Deal.objects.filter(tournament=tournament, status=DealStatus.ACCEPTED):
        amounts = ", ".join(f"{name.split('-', 1)[-1]} {amount}" for name, amount in deal.amounts.items())
        out.write(f"final-table deal ({deal.method}) at level {deal.level}: {amounts}; kept {deal.keep}")
    reconciliation = reconcile()
    write_tickets(tournament, out)
    out.write(f"reconciliation: {'ok' if reconciliation.ok else reconciliation.problems}")


def write_tickets(tournament: Tournament, out: OutputWrapper) -> None:
    """A satellite's tickets won, one line each (nothing for another tournament)."""
    if tournament.satellite_target_id is None and tournament.satellite_template_id is None:
        return
    won = TournamentEntry.objects.filter(tournament=tournament, tickets_won__gt=0).order_by("place", "pk")
    out.write(f"satellite to tournament {tournament.satellite_target_id}: {won.count()} ticket(s) won")
    for entry in won.select_related("player"):
        out.write(f"  ticket: {entry.player.get_username()} (place {entry.place})")
