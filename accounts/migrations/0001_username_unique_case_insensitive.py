"""Usernames unique case-insensitively in the database: a unique index on the folded name (UPPER, as Django's
`iexact` folds on PostgreSQL), so that two registrations racing with "Alice" and "alice" cannot both commit.

A database that already holds names differing only in case cannot take the index: the migration stops
before creating it, naming every such group, and changes nothing (docs/operations.md, "Migrations": rename
or deactivate-and-rename the extra accounts, then migrate again). Renaming them here would silently change
how players are named in games, transfers and logins.
"""

from django.conf import settings
from django.core.management.base import CommandError
from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Upper

INDEX = "accounts_username_folded_uniq"


def _user_table(apps):
    return apps.get_model(settings.AUTH_USER_MODEL)


def create_index(apps, schema_editor):
    User = _user_table(apps)
    folded = (
        User.objects.annotate(folded=Upper("username"))
        .values("folded")
        .annotate(count=Count("pk"))
        .filter(count__gt=1)
        .values_list("folded", flat=True)
    )
    groups = [
        sorted(User.objects.filter(username__iexact=name).values_list("username", flat=True))
        for name in folded
    ]
    if groups:
        listed = "; ".join(", ".join(group) for group in sorted(groups))
        raise CommandError(
            f"{len(groups)} username(s) exist in several cases, so usernames cannot be made unique "
            f"case-insensitively: {listed}. Rename all but one account of each group (admin or "
            "`manage.py shell`), then run migrate again. See docs/operations.md, Migrations."
        )
    quote = schema_editor.quote_name
    schema_editor.execute(
        f"CREATE UNIQUE INDEX {quote(INDEX)} ON {quote(User._meta.db_table)} "
        f"(UPPER({quote(User._meta.get_field('username').column)}))"
    )


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX {schema_editor.quote_name(INDEX)}")


class Migration(migrations.Migration):
    initial = True

    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [migrations.RunPython(create_index, drop_index)]
