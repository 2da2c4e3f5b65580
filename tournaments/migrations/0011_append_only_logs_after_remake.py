"""SQLite only: the move log's and the game events' append-only triggers (0003) again.

0007 altered columns of both tables, and Django's SQLite schema editor alters a column by remaking the
table, which dropped the triggers with the old table.
PostgreSQL alters in place and kept them.
"""

from django.db import migrations

TABLES = ("tournaments_movelog", "tournaments_gameevent")

SQLITE_FORWARD = [
    f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op} BEFORE {op.upper()} ON {table} "
    f"BEGIN SELECT RAISE(ABORT, 'tournaments: {op} on {table} is refused; the log is append-only'); END"
    for table in TABLES
    for op in ("update", "delete")
]


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_FORWARD:
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_table_error_state")]

    # Backwards: 0003's triggers belong in the schema at 0007 too.
    operations = [migrations.RunPython(restore, migrations.RunPython.noop)]
