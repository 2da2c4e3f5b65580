"""API tokens moved from DRF's authtoken (keys stored in clear, one per user, never expiring) to
django-rest-knox: the old table is dropped, so its keys stop working and leave no clear copy behind
(docs/operations.md, "Tokens"). Its migration records go too, so that an older release deployed again
creates the table afresh instead of finding it missing."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_username_unique_case_insensitive")]

    operations = [
        migrations.RunSQL(
            [
                'DROP TABLE IF EXISTS "authtoken_token"',
                "DELETE FROM django_migrations WHERE app = 'authtoken'",
            ],
            migrations.RunSQL.noop,
        )
    ]
