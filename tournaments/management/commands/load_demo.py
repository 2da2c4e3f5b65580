"""Demo data for `make run`: the house grant turned on (welcome chips for every player who registers, a daily
top-up to a floor), an admin, a staff member, four players with funded wallets, four public ring tables
(both Rummy 500 presets, Basic Rummy and Board Rummy),
a multi-table tournament open for registration (it starts 30 minutes after the demo data is loaded, with at least
two entrants) and a nightly multi-table template (beat creates one such tournament every evening).

Idempotent: running it again changes nothing (users are matched by username, funding by idempotency key).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from audit.services import make_staff
from ledger.selectors import wallet_balance
from ledger.services import grants, postings
from tournaments.live.models import Table
from tournaments.live.tables.services import create_table
from tournaments.multi_table.recurring import save_template
from tournaments.tournament.models import Tournament, TournamentKind, TournamentStatus, TournamentTemplate
from tournaments.tournament.setup import create_tournament

DEMO_PASSWORD = "demo-pass-123"
ADMIN = ("admin", "admin-pass-123")
STAFF = ("staff", "staff-pass-123")
PLAYERS = ("ann", "bob", "cid", "dee")
STARTING_CHIPS = 10_000
# The house grant of a play-money demo (docs/operations.md, "The house grant").
DEMO_WELCOME_CHIPS = 1_000
DEMO_DAILY_FLOOR = 500
# (game, seats, pcr, min_buy_in, max_buy_in): one table per preset of the site's main game, one of the Basic
# family and one of Board Rummy, so that every family can be played against people from the first visit.
DEMO_TABLES = (
    ("rummy500", 4, 1, 100, 5_000),
    ("rummy500_household", 4, 1, 200, 5_000),
    ("basic", 4, 1, 100, 5_000),
    ("board", 4, 1, 100, 5_000),
)
DEMO_MULTI_NAME = "Demo multi-table"
DEMO_TEMPLATE_NAME = "Nightly multi-table"
# Two seats a table: the four demo players make two tables, broken into a final table as they bust.
DEMO_MULTI_SETTINGS: dict[str, Any] = {
    "kind": "multi",
    "game": "rummy500",
    "options": {},
    "buy_in": 100,
    "fee": 10,
    "guarantee": 500,
    "starting_stack": 1_000,
    "seats": 2,
    "pcr_schedule": [1, 2, 3, 5, 8],
    "rounds_per_level": 2,
    "min_entrants": 2,
    "max_entrants": 100,
    "late_registration_levels": 1,
    "reentry": True,
    "payouts": [70, 30],
}
DEMO_MULTI_STARTS_IN = 30  # minutes


class Command(BaseCommand):
    help = "Create the demo admin, staff member and players (with funded wallets); safe to run twice."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        with transaction.atomic():
            grants.configure(enabled=True, welcome_chips=DEMO_WELCOME_CHIPS, daily_floor=DEMO_DAILY_FLOOR)
            admin = self._user(User, *ADMIN, is_staff=True, is_superuser=True)
            # In the staff group: the admin shows the ledger and tables read-only, /audit/ lets them in.
            make_staff(user=self._user(User, *STAFF, is_staff=True, is_superuser=False))
            players = [
                self._user(User, name, DEMO_PASSWORD, is_staff=False, is_superuser=False) for name in PLAYERS
            ]
            for player in players:
                postings.adjust_wallet(
                    user=player,
                    amount=STARTING_CHIPS,
                    reason="demo funding",
                    idempotency_key=f"demo:fund:{player.get_username()}",
                    posted_by=admin,
                )
            tables = [self._table(admin, *spec) for spec in DEMO_TABLES]
            multi = self._multi(admin)
            self._template(admin)
        self.stdout.write("Demo tables: " + ", ".join(f"#{t.pk} {t.game} (pcr {t.pcr})" for t in tables))
        self.stdout.write(
            f"Demo tournament: #{multi.pk} {multi.name} ({multi.status}, starts {multi.starts_at:%H:%M} UTC)"
        )
        self.stdout.write(
            f"House grant: {DEMO_WELCOME_CHIPS} welcome chips, a daily top-up to {DEMO_DAILY_FLOOR} (admin: Ledger)"
        )
        self.stdout.write("Demo logins:")
        self.stdout.write(f"  admin   {ADMIN[0]} / {ADMIN[1]}")
        self.stdout.write(f"  staff   {STAFF[0]} / {STAFF[1]}  (audit pages: /audit/)")
        for player in players:
            self.stdout.write(
                f"  player  {player.get_username()} / {DEMO_PASSWORD}  (wallet: {wallet_balance(user=player)} chips)"
            )

    def _user(self, User: Any, username: str, password: str, *, is_staff: bool, is_superuser: bool) -> Any:
        user, created = User.objects.get_or_create(
            username=username, defaults={"is_staff": is_staff, "is_superuser": is_superuser}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        return user

    def _table(self, admin: Any, game: str, seats: int, pcr: int, min_buy_in: int, max_buy_in: int) -> Table:
        existing = Table.objects.filter(created_by=admin, game=game, private=False).order_by("pk").first()
        if existing is not None:
            return existing
        return create_table(
            user=admin,
            game=game,
            options={},
            seats=seats,
            pcr=pcr,
            min_buy_in=min_buy_in,
            max_buy_in=max_buy_in,
        )

    def _multi(self, admin: Any) -> Tournament:
        """The demo multi-table tournament; a new one once the last has started or ended."""
        waiting = (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING)
        existing = Tournament.objects.filter(
            kind=TournamentKind.MULTI, name=DEMO_MULTI_NAME, status__in=waiting
        ).first()
        if existing is not None:
            return existing
        starts_at = timezone.now() + timedelta(minutes=DEMO_MULTI_STARTS_IN)
        return create_tournament(
            user=admin,
            settings={**DEMO_MULTI_SETTINGS, "name": DEMO_MULTI_NAME, "starts_at": starts_at},
        )

    def _template(self, admin: Any) -> None:
        if TournamentTemplate.objects.filter(name=DEMO_TEMPLATE_NAME).exists():
            return
        save_template(
            user=admin,
            name=DEMO_TEMPLATE_NAME,
            tournament_settings=DEMO_MULTI_SETTINGS,
            crontab="0 20 * * *",
            registration_minutes=60,
        )
