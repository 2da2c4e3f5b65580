"""The suite's quick flush on PostgreSQL (tests/conftest.py `_quick_flush`): after a transactional test only the
tables with rows are emptied, each by a DELETE with the append-only triggers passed by for that one
transaction; every table ends empty, the ledger's append-only tables included."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management.color import no_style
from django.db import connection

from ledger.models import Entry, Transfer
from tests.ledger.utils import funded_wallet, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _filled_tables() -> list[str]:
    return sorted(
        model._meta.db_table
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy and model._default_manager.exists()
    )


def test_only_the_filled_tables_are_emptied_past_the_append_only_triggers() -> None:
    funded_wallet(make_user("ann"), 500)  # rows in the ledger's append-only tables
    filled = _filled_tables()
    assert Transfer._meta.db_table in filled and Entry._meta.db_table in filled

    statements = connection.ops.sql_flush(no_style(), connection.introspection.django_table_names())
    assert statements[0] == "SET LOCAL session_replication_role = replica"
    assert sorted(statements[1:]) == sorted(f'DELETE FROM "{table}"' for table in filled)

    connection.ops.execute_sql_flush(statements)
    assert _filled_tables() == []
