"""factory_boy factories of the suite's people, chips, tables and tournaments.

Chips never appear outside the ledger: a funded wallet (`WalletFactory`, `PlayerFactory(chips=...)`) is
credited by `ledger.services.postings.move_chips` from the house cashier (site chips) or the tournament's mint (a
tournament's chips), so every chip type still sums to zero. Tables and tournaments are made by their services
(`tables.create_table`, `setup.create_tournament`), so what a test builds is what an admin could
have built, its accounts opened and its settings checked; a test that needs a tournament further on (running,
at a level) names those fields too and they are written after the creation (`MultiTournamentFactory`).

Every factory creates (`Factory()`); none builds an unsaved object (`.build()` is refused where the service is
the only way in)."""

from __future__ import annotations

import itertools
from dataclasses import fields as dataclass_fields
from datetime import date, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone
from factory.base import Factory
from factory.declarations import LazyAttribute, LazyFunction, PostGeneration, Sequence, SubFactory
from factory.django import DjangoModelFactory

from ledger.models import SITE_CHIPS, Account, AccountKind
from ledger.services import accounts, postings
from tournaments.live.models import Table
from tournaments.live.tables import services as tables
from tournaments.tournament import setup
from tournaments.tournament.models import Tournament, TournamentStatus

PASSWORD = "pw-for-tests-1"
# A date of birth registration takes (an adult: docs/rules.md "Responsible play").
ADULT_BIRTH = date(1990, 1, 1)
# A table's clocks that never hold a test up: one-second turns, no time bank.
FAST_CLOCKS = {"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 2, "max_timeouts_per_round": 6}
# A tournament's clocks: turns long enough that no clock fires while a test plays the round itself.
FAST = {"turn_seconds": 30, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}

_fundings = itertools.count(1)


def fund(user: Any, amount: int, *, chip_type: str = SITE_CHIPS) -> Account:
    """The user's wallet credited with `amount` chips by one ledger transfer: from the house cashier (site
    chips, an `adjustment`) or from the tournament's mint (a tournament's chips, a `mint`)."""
    wallet = accounts.get_wallet(user=user, chip_type=chip_type)
    site = chip_type == SITE_CHIPS
    source = accounts.get_house_account(
        kind=AccountKind.HOUSE_CASHIER if site else AccountKind.TOURNAMENT_MINT, chip_type=chip_type
    )
    postings.move_chips(
        source=source,
        destination=wallet,
        amount=amount,
        kind="adjustment" if site else "mint",
        idempotency_key=f"test:fund:{wallet.pk}:{next(_fundings)}",
        reason="test funding",
    )
    wallet.refresh_from_db()
    return wallet


class _CreatedOnly:
    """For factories whose object only a service makes: `.build()` cannot make it."""

    @classmethod
    def _build(cls, model_class: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{cls.__name__} only creates (its service is the one way in); call it.")


# ------------------------------------------------------------------------------------------------- people


class UserFactory(DjangoModelFactory[User]):
    """A user with no chips (password `PASSWORD`): `UserFactory(username="ann", is_staff=True)`."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = Sequence(lambda n: f"user{n + 1}")

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Any:
        password = kwargs.pop("password", PASSWORD)
        return model_class._default_manager.create_user(*args, password=password, **kwargs)


class StaffFactory(UserFactory):
    """Staff: audits the ledger, configures nothing."""

    is_staff = True


class AdminFactory(UserFactory):
    """An admin (a superuser): configures tables, tournaments and the ledger."""

    is_staff = True
    is_superuser = True


def _fund_chips(user: User, create: bool, extracted: int | None, **kwargs: Any) -> None:
    """PlayerFactory's `chips`: 10,000 unless told; 0 moves nothing."""
    amount = 10_000 if extracted is None else extracted
    if create and amount:
        fund(user, amount)


class PlayerFactory(UserFactory):
    """A user whose wallet holds `chips` site chips (10,000 unless told; 0: no transfer), credited through
    the ledger: `PlayerFactory(username="ann", chips=500)`."""

    username = Sequence(lambda n: f"p{n + 1}")

    chips = PostGeneration(_fund_chips)


class WalletFactory(_CreatedOnly, Factory[Account]):
    """A user's wallet credited through the ledger (see `fund`): `WalletFactory(user=ann, amount=500)`, or a
    tournament's chips with `chip_type=tournament_chip_type(id)`."""

    class Meta:
        model = Account

    user = SubFactory(UserFactory)
    amount = 10_000
    chip_type = SITE_CHIPS

    @classmethod
    def _create(cls, model_class: Any, *, user: Any, amount: int, chip_type: str) -> Account:
        return fund(user, amount, chip_type=chip_type)


# ------------------------------------------------------------------------------------------------- tables


class TableFactory(_CreatedOnly, Factory[Table]):
    """A ring table made by `tables.create_table` (public unless `private=True`; an admin creates it unless
    `creator=` says who): Rummy 500, four seats, PCR 1, buy-ins 100-2000, fast clocks with 30-second turns."""

    class Meta:
        model = Table

    creator = SubFactory(AdminFactory)
    private = False
    game = "rummy500"
    options = LazyFunction(lambda: dict(FAST_CLOCKS, turn_seconds=30))
    seats = 4
    pcr = 1
    min_buy_in = 100
    max_buy_in = 2000
    multiplier = 1

    @classmethod
    def _create(cls, model_class: Any, *, creator: Any, **fields: Any) -> Table:
        return tables.create_table(user=creator, **fields)


# -------------------------------------------------------------------------------------------- tournaments

# The fields `setup.create_tournament` checks; any other field a factory is given is state.
SETTINGS = frozenset(f.name for f in dataclass_fields(setup.TournamentSettings))


class _TournamentFactory(_CreatedOnly, Factory[Tournament]):
    class Meta:
        model = Tournament
        abstract = True

    created_by = SubFactory(AdminFactory)

    @classmethod
    def _create(cls, model_class: Any, *, created_by: Any, **fields: Any) -> Tournament:
        """Created by `setup.create_tournament` (its settings checked, its prize pool opened);
        the fields that are no setting (`status`, `level`, `instant_rounds`, ...) are then written as they
        are."""
        state = {name: fields.pop(name) for name in list(fields) if name not in SETTINGS}
        tournament = setup.create_tournament(user=created_by, settings=fields)
        if state:
            Tournament.objects.filter(pk=tournament.pk).update(**state)
            tournament.refresh_from_db()
        return tournament


class TournamentFactory(_TournamentFactory):
    """A one-table tournament: a sit-and-go of three to a target score of 1 (buy-in 100, fee 10), or a quick
    game of one round with `kind="quick"`."""

    name = "Friday sit-and-go"
    kind = "single"
    game = "rummy500"
    options = LazyFunction(lambda: dict(FAST))
    buy_in = 100
    fee = 10
    max_entrants = 3
    target_score = LazyAttribute(lambda t: None if t.kind == "quick" else 1)
    rounds = LazyAttribute(lambda t: 1 if t.kind == "quick" else None)


class MultiTournamentFactory(_TournamentFactory):
    """A multi-table tournament, registering, an hour before its start: tables of four, 2 to 1,000 entrants,
    stacks of 1,000, PCR 1-2-3-5-8 by level of two rounds, the top three paid 50/30/20."""

    name = "Sunday multi"
    kind = "multi"
    game = "rummy500"
    options = LazyFunction(lambda: dict(FAST))
    buy_in = 100
    fee = 10
    max_entrants = 1000
    min_entrants = 2
    starting_stack = 1000
    seats = 4
    pcr_schedule = LazyFunction(lambda: [1, 2, 3, 5, 8])
    rounds_per_level = 2
    starts_at = LazyFunction(lambda: timezone.now() + timedelta(hours=1))
    payouts = LazyFunction(lambda: [50, 30, 20])
    status = TournamentStatus.REGISTERING
