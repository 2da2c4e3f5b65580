"""A cheaper balance check at commit on PostgreSQL.

0002 checks a transfer once per inserted row (the transfer and each entry). When the transfer was
created by the committing transaction itself, its own deferred trigger already checks every entry
(deferred triggers run at commit, after the last entry), so the entries' triggers may stop early.
An entry added to a transfer of an earlier transaction (or of a savepoint) is still checked in full.
"""

from django.db import migrations

PG_FUNCTION = """
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
        IF EXISTS (SELECT 1 FROM ledger_transfer WHERE id = tid AND xmin = pg_current_xact_id()::xid) THEN
            RETURN NULL;
        END IF;
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
"""

PG_PREVIOUS = """
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
"""


def _run(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # params=None: the SQL holds literal % signs that must not be read as placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0003_nightly_reconciliation")]

    operations = [migrations.RunPython(_run(PG_FUNCTION), _run(PG_PREVIOUS))]
