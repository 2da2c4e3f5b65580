"""Migration 0001 of accounts on a database that already holds usernames differing only in case: it stops,
names every such group and changes nothing; once they are renamed it creates the index (docs/operations.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db(transaction=True)

INDEX_MIGRATION = ("accounts", "0001_username_unique_case_insensitive")


def _indexes() -> set[str]:
    return set(connection.introspection.get_constraints(connection.cursor(), "auth_user"))


def _migrate(target: tuple[str, str | None]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


@pytest.fixture
def before_the_index() -> Iterator[None]:
    _migrate(("accounts", None))
    assert "accounts_username_folded_uniq" not in _indexes()
    yield
    get_user_model().objects.all().delete()  # a failed test may leave duplicates behind
    leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("accounts")[0]
    _migrate(leaf)


def test_case_duplicates_stop_the_migration_naming_them(before_the_index: None) -> None:
    for name in ["Dup", "dup", "DUP", "Pair", "pAIR", "solo"]:
        make_user(name)
    with pytest.raises(CommandError) as stopped:
        _migrate(INDEX_MIGRATION)
    message = str(stopped.value)
    assert "2 username(s)" in message
    assert "DUP, Dup, dup" in message and "Pair, pAIR" in message
    assert "solo" not in message
    assert "accounts_username_folded_uniq" not in _indexes()

    for n, name in enumerate(["dup", "DUP", "pAIR"]):
        get_user_model().objects.filter(username=name).update(username=f"renamed-{n}")
    _migrate(INDEX_MIGRATION)
    assert "accounts_username_folded_uniq" in _indexes()
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("SOLO")
