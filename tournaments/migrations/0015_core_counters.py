from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_multi_table_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="players_left",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tables_open",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
    ]
