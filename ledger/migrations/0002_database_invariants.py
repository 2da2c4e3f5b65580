"""The ledger's invariants enforced by the database itself, not only by Python.

PostgreSQL: a deferred constraint trigger checks that every transfer's entries balance (at least two,
summing to zero, all of the transfer's chip type) at commit; another trigger refuses any UPDATE or
DELETE of transfers and entries. SQLite (the embedded default) gets the immutability triggers only:
it has no deferred triggers. The non-negative balance CHECK and the unique keys live in 0001.
"""

from django.db import migrations

PG_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'ledger: % on % is refused; ledger rows are immutable (post a reversal instead)',
            TG_OP, TG_TABLE_NAME
            USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    """
    CREATE TRIGGER ledger_transfer_immutable BEFORE UPDATE OR DELETE ON ledger_transfer
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()
    """,
    """
    CREATE TRIGGER ledger_entry_immutable BEFORE UPDATE OR DELETE ON ledger_entry
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_check_transfer_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        tid bigint;
        tchip varchar;
        total numeric;
        legs integer;
        foreign_legs integer;
    BEGIN
        IF TG_TABLE_NAME = 'ledger_entry' THEN
            tid := NEW.transfer_id;
        ELSE
            tid := NEW.id;
        END IF;
        SELECT chip_type INTO tchip FROM ledger_transfer WHERE id = tid;
        SELECT COALESCE(SUM(e.amount), 0), COUNT(*), COUNT(*) FILTER (WHERE a.chip_type <> tchip)
            INTO total, legs, foreign_legs
            FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id
            WHERE e.transfer_id = tid;
        IF legs < 2 OR total <> 0 THEN
            RAISE EXCEPTION 'ledger: transfer % does not balance (% entries summing to %)', tid, legs, total
                USING ERRCODE = 'check_violation';
        END IF;
        IF foreign_legs > 0 THEN
            RAISE EXCEPTION 'ledger: transfer % moves chips of another chip type than %', tid, tchip
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_transfer_balanced AFTER INSERT ON ledger_transfer
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_check_transfer_balanced()
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_entry_balanced AFTER INSERT ON ledger_entry
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_check_transfer_balanced()
    """,
]

PG_BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_entry_balanced ON ledger_entry",
    "DROP TRIGGER IF EXISTS ledger_transfer_balanced ON ledger_transfer",
    "DROP FUNCTION IF EXISTS ledger_check_transfer_balanced()",
    "DROP TRIGGER IF EXISTS ledger_entry_immutable ON ledger_entry",
    "DROP TRIGGER IF EXISTS ledger_transfer_immutable ON ledger_transfer",
    "DROP FUNCTION IF EXISTS ledger_refuse_change()",
]

SQLITE_FORWARD = [
    f"""
    CREATE TRIGGER ledger_{table}_no_{op} BEFORE {op.upper()} ON ledger_{table}
    BEGIN SELECT RAISE(ABORT, 'ledger: {op} on ledger_{table} is refused; ledger rows are immutable'); END
    """
    for table in ("transfer", "entry")
    for op in ("update", "delete")
]

SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS ledger_{table}_no_{op}"
    for table in ("transfer", "entry")
    for op in ("update", "delete")
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            # params=None: the SQL holds literal % signs that must not be read as placeholders.
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}),
            _run({"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}),
        ),
    ]
