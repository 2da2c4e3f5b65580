"""Every username's look-alike key (Unicode TS #39's skeleton, case-folded: accounts.usernames.confusable_key),
unique, for the users that exist; later saves keep it (accounts.receivers). Names that already look like an older
one (same key) do not stop the migration: the oldest account of each group keeps the key, the others keep none
(NULL, which the unique index allows) and are listed on the migration's output, for staff to rename
(docs/operations.md, "Migrations"). The key is computed by the module as it is now: a later change of the
confusables data is a new migration."""

from django.conf import settings
from django.db import migrations, models


def backfill(apps, schema_editor):
    from accounts.usernames import confusable_key

    User = apps.get_model(settings.AUTH_USER_MODEL)
    UsernameKey = apps.get_model("accounts", "UsernameKey")
    names = dict(User.objects.values_list("pk", "username"))
    holders = {}
    clashes = []
    for key in UsernameKey.objects.order_by("user_id").iterator():
        name = names.get(key.user_id, "")
        skeleton = confusable_key(name)
        if skeleton in holders:
            clashes.append(f"{name} (id {key.user_id}) looks like {holders[skeleton]}")
            continue
        holders[skeleton] = f"{name} (id {key.user_id})"
        key.skeleton = skeleton
        key.save(update_fields=["skeleton"])
    if clashes:
        print(f"\n  {len(clashes)} username(s) look like an older one and keep no look-alike key:")
        for line in clashes:
            print(f"    {line}")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_username_keys")]

    operations = [
        migrations.AddField(
            model_name="usernamekey",
            name="skeleton",
            field=models.TextField(blank=True, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="usernamekey",
            name="skeleton",
            field=models.TextField(blank=True, null=True, unique=True),
        ),
    ]
