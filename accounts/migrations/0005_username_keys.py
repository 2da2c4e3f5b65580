"""Every username's folded form (NFKC, case-folded, NFKC: accounts.usernames.folded), unique, for the users
that exist; later saves keep it (accounts.receivers). As in 0001, names that already share a folded form stop
the migration, naming each group, and change nothing: rename all but one of each group, then migrate again."""

import unicodedata

import django.db.models.deletion
from django.conf import settings
from django.core.management.base import CommandError
from django.db import migrations, models


def _folded(name):
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def backfill(apps, schema_editor):
    User = apps.get_model(settings.AUTH_USER_MODEL)
    UsernameKey = apps.get_model("accounts", "UsernameKey")
    groups = {}
    for pk, name in User.objects.values_list("pk", "username").iterator():
        groups.setdefault(_folded(name), []).append((pk, name))
    clashes = sorted(sorted(n for _, n in group) for group in groups.values() if len(group) > 1)
    if clashes:
        listed = "; ".join(", ".join(group) for group in clashes)
        raise CommandError(
            f"{len(clashes)} group(s) of usernames are the same name once normalised and case-folded: {listed}. "
            "Rename all but one account of each group, then run migrate again (docs/operations.md, Migrations)."
        )
    UsernameKey.objects.bulk_create(
        UsernameKey(user_id=group[0][0], folded=folded) for folded, group in groups.items()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_sqlite_username_index_after_remake"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.CreateModel(
            name="UsernameKey",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="username_key",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("folded", models.TextField(unique=True)),
            ],
            options={
                "verbose_name": "folded username",
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
