"""SQLite only: the case-insensitive unique index on usernames (0001) again, where it is missing.

0001 runs once auth's first migration has made the user table, before auth's later ones; those alter columns
of auth_user, and Django's SQLite schema editor alters a column by remaking the table, which drops every index
the models do not declare. On the embedded default the index was gone, so two registrations racing with
"Alice" and "alice" could both commit. PostgreSQL alters in place and kept it. As in 0001, names that already
differ only in case stop the migration with the groups to rename.
"""

from importlib import import_module

from django.db import migrations

initial = import_module("accounts.migrations.0001_username_unique_case_insensitive")


def restore(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = %s", [initial.INDEX])
        if cursor.fetchone() is not None:
            return
    initial.create_index(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_schedule_token_purge"),
        # auth's last migration that remakes its user table on SQLite.
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(restore, migrations.RunPython.noop)]
