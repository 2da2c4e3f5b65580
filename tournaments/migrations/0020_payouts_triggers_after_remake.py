"""SQLite only: the tournament payouts' triggers (0013) again.

Later migrations (0014 onwards) alter the tournament table, and Django's SQLite schema editor alters a column
by remaking the table, which drops the triggers with the old table. PostgreSQL alters in place and kept them.
A migration that remakes a table with triggers re-creates them after it, as this one and 0011 do; the SQLite
leg checks that every trigger is there after the last migration (tests/sqlite/test_vendor_branches.py).
"""

from django.db import migrations

_SQLITE_BAD = (
    "json_type(NEW.payouts) <> 'array' OR json_array_length(NEW.payouts) = 0 "
    "OR EXISTS (SELECT 1 FROM json_each(NEW.payouts) WHERE type <> 'integer' OR value <= 0) "
    "OR (SELECT sum(value) FROM json_each(NEW.payouts)) <> 100"
)
SQLITE_FORWARD = [
    f"CREATE TRIGGER IF NOT EXISTS tournaments_tournament_payouts_{op} BEFORE {op.upper()} "
    f"ON tournaments_tournament WHEN {_SQLITE_BAD} "
    "BEGIN SELECT RAISE(ABORT, 'tournament payouts must be positive integer percentages summing to 100'); END"
    for op in ("insert", "update")
]


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_FORWARD:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0019_balance_awaiting_job_index")]

    # Backwards: 0013's triggers belong in the schema at 0019 too.
    operations = [migrations.RunPython(restore, migrations.RunPython.noop)]
