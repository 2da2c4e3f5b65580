"""Every place the code asks which database it runs on (`connection.vendor`, `connection.features`) is listed
here with where this leg runs its SQLite side; a new one fails `test_every_vendor_branch_is_listed` until
its SQLite side has a test here. The flows (test_ring_table, test_one_table, test_multi_table) run the move
path, the ledger's posting and the reads; the tests below run the rest: the migrations' SQLite triggers, the
ledger's replay and refusals, and the long-polls without a listener."""

from __future__ import annotations

import ast
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from ledger.errors import IdempotencyConflict, InsufficientFunds
from ledger.models import AccountKind, Entry, Transfer, TransferKind
from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.sqlite.conftest import Sides
from tests.sqlite.harness import Site
from tests.sqlite.triggers import triggers_on
from tests.test_architecture import PACKAGES  # every package with code, as the architecture test reads them
from tests.tournaments.multi_table.helpers import new_multi
from tournaments.live.messaging import wakeups
from tournaments.tournament.models import Tournament

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]

FLOWS = "test_ring_table, test_one_table, test_multi_table"
# (file, function) -> where its SQLite side runs in this leg.
BRANCHES = {
    # SQL text cached per vendor: one code path on every database.
    ("database/rows.py", "table"): FLOWS,
    ("database/rows.py", "columns"): FLOWS,
    ("database/rows.py", "from_row"): FLOWS,
    ("database/rows.py", "update_sql"): FLOWS,
    ("database/rows.py", "insert_sql"): FLOWS,
    # SQLite runs a move's writes one statement at a time (vendor_sides: sqlite:rows_execute_one_by_one).
    ("database/rows.py", "execute"): FLOWS,
    # Statements prepared once per connection on PostgreSQL; here they run as text.
    ("database/rows.py", "run"): FLOWS,
    # The ledger's posting: PostgreSQL's hand-written statements (`_post_pg`, never called here; vendor_sides:
    # pg:ledger_post) or the ORM (`_post_locked`, vendor_sides: sqlite:ledger_post).
    (
        "ledger/services/postings.py",
        "_hand_written",
    ): f"{FLOWS}, test_ledger_postings_replay_and_refuse_on_sqlite",
    # The move's lock and read (vendor_sides: sqlite:move_context:keyed / unkeyed).
    ("tournaments/live/storage/locks.py", "lock_game_row"): FLOWS,
    ("tournaments/live/storage/locks.py", "_lock_game_sql"): FLOWS,
    ("tournaments/live/storage/locks.py", "seats_with_stacks"): FLOWS,
    ("tournaments/live/moves/context.py", "lock_for_move"): FLOWS,
    ("tournaments/live/moves/context.py", "_move_context_pg_sql"): "PostgreSQL only (never called here)",
    # The reads' ORM sides (vendor_sides: game_rows' statements never called).
    (
        "tournaments/live/storage/selectors.py",
        "game_access",
    ): "test_ring_table (players' and a spectator's views)",
    ("tournaments/live/storage/selectors.py", "events_after"): "test_ring_table (events, the long-poll)",
    (
        "tournaments/live/storage/selectors.py",
        "events_with_seated",
    ): "test_live_socket (the seated sockets' shared read)",
    (
        "tournaments/live/storage/selectors.py",
        "readable_events_after",
    ): "test_ring_table (a player's, a bystander's 403)",
    (
        "tournaments/live/messaging/wakeups.py",
        "enabled",
    ): "test_long_polls_wait_by_reading_again_without_a_listener",
    # Migrations, run by this leg's test database: the SQLite triggers (0004 is PostgreSQL only).
    ("ledger/migrations/0002_database_invariants.py", "run"): "test_the_migrations_sqlite_triggers_hold",
    ("ledger/migrations/0004_cheaper_balance_trigger.py", "run"): "PostgreSQL only (a function it replaces)",
    # The grant kind remakes ledger_transfer on SQLite (its kind constraint): its triggers are made again.
    (
        "ledger/migrations/0008_house_grant_policy.py",
        "restore_triggers",
    ): "test_the_migrations_sqlite_triggers_hold",
    ("tournaments/migrations/0003_append_only_logs.py", "run"): "test_the_migrations_sqlite_triggers_hold",
    ("tournaments/migrations/0011_append_only_logs_after_remake.py", "restore"): (
        "test_the_migrations_sqlite_triggers_hold"
    ),
    ("tournaments/migrations/0013_tournament_payouts_sum_to_100.py", "run"): (
        "test_the_migrations_sqlite_triggers_hold"
    ),
    ("tournaments/migrations/0020_payouts_triggers_after_remake.py", "restore"): (
        "test_the_migrations_sqlite_triggers_hold"
    ),
    # A multi-table table's job: no row lock on SQLite (one writer at a time), busts to the exclusive job.
    ("tournaments/multi_table/quiet.py", "share_lock"): "test_multi_table (the tables' jobs)",
    ("tournaments/multi_table/quiet.py", "after_quiet_round"): "test_multi_table (the tables' jobs)",
    # The planner's statistics refreshed after a batched start (PostgreSQL's ANALYZE; SQLite plans without it).
    ("tournaments/multi_table/start.py", "refresh_statistics"): "test_multi_table (a batched start)",
    ("accounts/migrations/0004_sqlite_username_index_after_remake.py", "restore"): (
        "test_usernames_are_unique_in_any_case_on_sqlite"
    ),
}


def _asks_for_the_database(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and node.attr in ("vendor", "features"):
        return True
    return isinstance(node, ast.Name) and node.id == "vendor"


def _branches() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for app in PACKAGES:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()

            def visit(node: ast.AST, function: str, relative: str = relative) -> None:
                for child in ast.iter_child_nodes(node):
                    inner = (
                        child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
                    )
                    if _asks_for_the_database(child):
                        found.add((relative, function))
                    visit(child, inner)

            visit(ast.parse(path.read_text()), "<module>")
    return found


def test_every_vendor_branch_is_listed() -> None:
    found = _branches()
    unlisted = sorted(found - set(BRANCHES))
    gone = sorted(set(BRANCHES) - found)
    assert not unlisted, (
        f"code that asks which database it runs on, not listed in BRANCHES: {unlisted}; give its SQLite side "
        "a test in tests/sqlite and list it"
    )
    assert not gone, f"listed in BRANCHES but no longer asking for the database: {gone}"


def test_the_migrations_sqlite_triggers_hold(django_user_model: Any) -> None:
    assert connection.vendor == "sqlite"
    # Every trigger the migrations create is there after the last one: a migration that remakes a table on
    # SQLite (altering a column) drops its triggers, and must create them again after it (0011, 0020; ledger 0008).
    names = {name for name, _ in triggers_on(connection)}
    for table in ("ledger_transfer", "ledger_entry", "tournaments_movelog", "tournaments_gameevent"):
        assert {f"{table}_no_update", f"{table}_no_delete"} <= names, (table, names)
    assert {"tournaments_tournament_payouts_insert", "tournaments_tournament_payouts_update"} <= names

    user = make_user("trig")
    funded_wallet(user, 100)
    entry_table, transfer_table = Entry._meta.db_table, Transfer._meta.db_table
    for statement in (
        f"UPDATE {entry_table} SET amount = amount + 1",
        f"DELETE FROM {entry_table}",
        f"UPDATE {transfer_table} SET reason = 'edited'",
        f"DELETE FROM {transfer_table}",
    ):
        with pytest.raises(IntegrityError) as refused, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
        assert isinstance(refused.value.__cause__, sqlite3.IntegrityError), statement
        assert "immutable" in str(refused.value)
    tournament = new_multi(user, payouts=[60, 40])
    # An insert the service would refuse first: a copy of the row, written by the ORM.
    copy: dict[str, Any] = dict(Tournament.objects.filter(pk=tournament.pk).values().get())
    copy.update(id=None, pool_account_id=None, mint_account_id=None, payouts=[60, 30])
    with pytest.raises(IntegrityError, match="summing to 100"), transaction.atomic():
        Tournament.objects.create(**copy)
    with pytest.raises(IntegrityError, match="summing to 100"), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(payouts=[60, 40.5])
    assert_reconciled()


def test_usernames_are_unique_in_any_case_on_sqlite() -> None:
    # auth's migrations remake the user table on SQLite, which dropped 0001's index; 0004 makes it again.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'accounts_username_folded_uniq'"
        )
        assert "UPPER" in cursor.fetchone()[0]
    make_user("Bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("bOB")
    assert get_user_model().objects.filter(username__iexact="bob").count() == 1


def test_ledger_postings_replay_and_refuse_on_sqlite(vendor_sides: Sides) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    wallet = funded_wallet(ann, 500)
    other = accounts.get_wallet(user=bob)
    cashier = accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER)

    def post(amount: int, key: str) -> Transfer:
        return postings.post_transfer(
            kind=TransferKind.ADJUSTMENT,
            legs=[(wallet, -amount), (other, amount - 1), (cashier, 1)],
            idempotency_key=key,
            reason="sqlite leg",
        )

    first = post(200, "leg:1")
    assert (wallet.balance, other.balance) == (300, 199)
    assert post(200, "leg:1").pk == first.pk  # the same key and content: the first transfer, nothing again
    with pytest.raises(IdempotencyConflict):
        post(201, "leg:1")
    transfers = Transfer.objects.count()
    with pytest.raises(InsufficientFunds):
        post(301, "leg:2")
    assert Transfer.objects.count() == transfers  # refused before anything was written
    assert accounts.get_wallet(user=ann).balance == 300
    assert Entry.objects.filter(transfer=first).count() == 3
    assert vendor_sides.ran("sqlite:ledger_post") >= 3 and vendor_sides.pg() == {}
    assert_reconciled()


def test_long_polls_wait_by_reading_again_without_a_listener(sqlite_site: Site) -> None:
    assert not wakeups.enabled()
    assert wakeups.announcement(game_id=1, version=2) is None
    assert wakeups.announcement(tournament_id=1, version=2) is None
    admin = sqlite_site.admin()
    tournament = new_multi(make_user("owner"))
    version = admin.get(f"/tournaments/{tournament.pk}/")["version"]
    started = time.monotonic()
    waited = admin.get(f"/tournaments/{tournament.pk}/events/?after={version}&wait=1")
    assert waited["events"] == [] and time.monotonic() - started >= 0.9
