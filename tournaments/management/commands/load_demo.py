"""Demo data for `make run`: an admin, a staff member, four players with funded wallets, two public ring tables.

Idempotent: running it again changes nothing (users are matched by username, funding by idempotency key).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from audit.services import make_staff
from ledger import services
from ledger.selectors import wallet_balance
from tournaments.models import Table
from tournaments.services.tables import create_table

DEMO_PASSWORD = "demo-pass-123"
ADMIN = ("admin", "admin-pass-123")
STAFF = ("staff", "staff-pass-123")
PLAYERS = ("ann", "bob", "cid", "dee")
STARTING_CHIPS = 10_000
# (game, seats, pcr, min_buy_in, max_buy_in): one table per preset of the site's main game.
DEMO_TABLES = (("rummy500", 4, 1, 100, 5_000), ("rummy500_household", 4, 1, 200, 5_000))


class Command(BaseCommand):
    help = "Create the demo admin, staff member and players (with funded wallets); safe to run twice."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        with transaction.atomic():
            admin = self._user(User, *ADMIN, is_staff=True, is_superuser=True)
            # In the staff group: the admin shows the ledger and tables read-only, /audit/ lets them in.
            make_staff(user=self._user(User, *STAFF, is_staff=True, is_superuser=False))
            players = [
                self._user(User, name, DEMO_PASSWORD, is_staff=False, is_superuser=False) for name in PLAYERS
            ]
            for player in players:
                services.adjust_wallet(
                    user=player,
                    amount=STARTING_CHIPS,
                    reason="demo funding",
                    idempotency_key=f"demo:fund:{player.get_username()}",
                    posted_by=admin,
                )
            tables = [self._table(admin, *spec) for spec in DEMO_TABLES]
        self.stdout.write("Demo tables: " + ", ".join(f"#{t.pk} {t.game} (pcr {t.pcr})" for t in tables))
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
