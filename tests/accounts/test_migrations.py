"""Migration 0001 of accounts on a database that already holds usernames differing only in case: it stops,
names every such group and changes nothing; once they are renamed it creates the index (docs/operations.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models.signals import post_save

from accounts.models import UsernameKey
from accounts.receivers import keep_username_key
from tests.ledger.utils import make_user

pytestmark = pytest.mark.django_db(transaction=True)

INDEX_MIGRATION = ("accounts", "0001_username_unique_case_insensitive")
KEYS_MIGRATION = ("accounts", "0005_username_keys")
KEY_RECEIVER = "accounts.keep_username_key"


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
    # No folded-name table before 0005: users are saved without it, as they were then.
    post_save.disconnect(sender=settings.AUTH_USER_MODEL, dispatch_uid=KEY_RECEIVER)
    try:
        yield
    finally:
        # A failed test may leave duplicates behind. In SQL: the ORM would also delete the folded names,
        # whose table is not there before 0005.
        with connection.cursor() as cursor:
            if UsernameKey._meta.db_table in connection.introspection.table_names(cursor):
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(UsernameKey._meta.db_table)}")
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(get_user_model()._meta.db_table)}")
        leaf = MigrationExecutor(connection).loader.graph.leaf_nodes("accounts")[0]
        _migrate(leaf)
        post_save.connect(keep_username_key, sender=settings.AUTH_USER_MODEL, dispatch_uid=KEY_RECEIVER)


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


def test_names_the_same_once_folded_stop_the_keys_migration(before_the_index: None) -> None:
    """0005 fills the folded names of the users there are; two that fold to one name (beyond ASCII case,
    which 0001 already stopped) stop it, named, and it creates nothing."""
    _migrate(("accounts", "0004_sqlite_username_index_after_remake"))
    for name in ["straße", "STRASSE", "niccolò"]:
        make_user(name)
    with pytest.raises(CommandError) as stopped:
        _migrate(KEYS_MIGRATION)
    assert "STRASSE, straße" in str(stopped.value) and "niccolò" not in str(stopped.value)
    get_user_model().objects.filter(username="STRASSE").update(username="strasse2")
    _migrate(KEYS_MIGRATION)
    assert sorted(UsernameKey.objects.values_list("folded", flat=True)) == ["niccolò", "strasse", "strasse2"]


def test_the_look_alike_keys_are_filled_and_later_look_alikes_keep_none(before_the_index: None) -> None:
    """0006 fills every user's look-alike key (TS #39's skeleton); a name that reads as an older one (`dee` in
    Cyrillic letters registered after `dee`, `lan` after `Ian`) does not stop it: the older keeps the key, the later none, and
    the unique index holds from then on."""
    _migrate(("accounts", "0004_sqlite_username_index_after_remake"))
    for name in ["dee", "Ian", "\u0501\u0435\u0435", "lan", "cid"]:
        make_user(name)
    _migrate(KEYS_MIGRATION)
    _migrate(("accounts", "0006_username_skeletons"))
    keys = dict(UsernameKey.objects.values_list("user__username", "skeleton"))
    assert keys == {"dee": "dee", "Ian": "lan", "\u0501\u0435\u0435": None, "lan": None, "cid": "cid"}
    assert any(found["unique"] and found["columns"] == ["skeleton"] for found in _key_constraints().values())
    with pytest.raises(IntegrityError), transaction.atomic():
        UsernameKey.objects.filter(user__username="lan").update(skeleton="dee")


def _key_constraints() -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = connection.introspection.get_constraints(
        connection.cursor(), UsernameKey._meta.db_table
    )
    return found
