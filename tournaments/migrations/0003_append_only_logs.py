"""The move log and the game events are append-only in the database itself: UPDATE and DELETE are refused."""

from django.db import migrations

TABLES = ("tournaments_movelog", "tournaments_gameevent")

PG_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION tournaments_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'tournaments: % on % is refused; the log is append-only', TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    *(
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION tournaments_refuse_change()"
        for table in TABLES
    ),
]
PG_BACKWARD = [
    *(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}" for table in TABLES),
    "DROP FUNCTION IF EXISTS tournaments_refuse_change()",
]
SQLITE_FORWARD = [
    f"CREATE TRIGGER {table}_no_{op} BEFORE {op.upper()} ON {table} "
    f"BEGIN SELECT RAISE(ABORT, 'tournaments: {op} on {table} is refused; the log is append-only'); END"
    for table in TABLES
    for op in ("update", "delete")
]
SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {table}_no_{op}" for table in TABLES for op in ("update", "delete")
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_schedule_clock_sweeper")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        ),
    ]
