"""A tournament's payouts are a list of positive integer percentages summing to 100, checked by the database.

A CHECK constraint cannot sum a JSON list (no subqueries), so a trigger does it on both backends; the
services and the API validate first, with a clean error, and this refuses whatever bypasses them.
"""

from django.db import migrations

POSTGRES_FORWARD = [
    """
    CREATE FUNCTION tournaments_payouts_sum_100() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF jsonb_typeof(NEW.payouts) <> 'array'
           OR jsonb_array_length(NEW.payouts) = 0
           OR EXISTS (SELECT 1 FROM jsonb_array_elements(NEW.payouts) AS p(v)
                      WHERE jsonb_typeof(p.v) <> 'number' OR (p.v)::numeric <= 0
                         OR (p.v)::numeric <> trunc((p.v)::numeric))
           OR (SELECT sum((p.v)::numeric) FROM jsonb_array_elements(NEW.payouts) AS p(v)) <> 100
        THEN
            RAISE EXCEPTION 'tournament payouts must be positive integer percentages summing to 100'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER tournaments_tournament_payouts_sum_100
    BEFORE INSERT OR UPDATE OF payouts ON tournaments_tournament
    FOR EACH ROW EXECUTE FUNCTION tournaments_payouts_sum_100()
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_tournament_payouts_sum_100 ON tournaments_tournament",
    "DROP FUNCTION IF EXISTS tournaments_payouts_sum_100()",
]
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
SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS tournaments_tournament_payouts_{op}" for op in ("insert", "update")
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_tournaments_and_entries")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": POSTGRES_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        )
    ]
